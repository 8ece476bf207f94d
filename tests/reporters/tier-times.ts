/**
 * A reporter that says where each tier's time goes, so the CI budget (45 minutes, STYLE.md)
 * is watched: after the run, the tier's wall time and its slowest test files (setup,
 * import and tests together). Printed beside vitest's own report, never instead of it.
 */
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const SLOWEST = 8;

export default class TierTimes implements Reporter {
  private started = performance.now();

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const wall = (performance.now() - this.started) / 1000;
    const tiers = [...new Set(modules.map((module) => module.project.name || "tests"))].join(", ");
    const files = modules
      .map((module) => {
        const diagnostic = module.diagnostic();
        const seconds =
          (diagnostic.environmentSetupDuration +
            diagnostic.prepareDuration +
            diagnostic.collectDuration +
            diagnostic.setupDuration +
            diagnostic.duration) /
          1000;
        return { file: relative(process.cwd(), module.moduleId), seconds };
      })
      .sort((a, b) => b.seconds - a.seconds);
    const lines = [
      `Tier times: ${tiers}: ${modules.length} files in ${wall.toFixed(1)} s of wall time`,
      ...files.slice(0, SLOWEST).map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}`),
    ];
    process.stdout.write(`\n${lines.join("\n")}\n`);
  }
}
