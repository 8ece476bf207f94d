/**
 * The large budget of the sandbox's differential fuzzing (issue 44):
 * `npm run bench -- --only fuzz [--fuzz-cases 2000] [--fuzz-seeds 20]`. The same harness
 * as `sql-fuzz.integration.test.ts`, on more seeds: how many statements each property saw
 * and every mismatch found, which then become fixed cases in that test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chdbFuzzEngine, type FuzzReport, fuzzPolicy, fuzzReaders } from "../packages/warehouse/src/sandbox/sql-fuzz";

export interface FuzzBenchResult {
  reports: FuzzReport[];
  seconds: number;
}

export async function runFuzzBench(
  options: { cases: number; seeds: number; firstSeed?: number },
  log: (line: string) => void,
): Promise<FuzzBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-fuzz-"));
  const engine = chdbFuzzEngine(join(dir, "engine"));
  const started = performance.now();
  const reports: FuzzReport[] = [];
  try {
    const policy = fuzzPolicy(engine);
    for (let seed = options.firstSeed ?? 1000; reports.length < options.seeds; seed++) {
      const report = await fuzzReaders(engine, policy, { seed, cases: options.cases });
      reports.push(report);
      log(
        `fuzz: seed ${seed}: ${report.cases} statements, engine ran ${report.engineRan}, sandbox accepted ${report.accepted}, refused ${report.refused}, mismatches ${report.mismatches.length}`,
      );
      for (const mismatch of report.mismatches.slice(0, 3))
        log(`fuzz:   ${mismatch.property}: ${mismatch.detail} — ${JSON.stringify(mismatch.sql)}`);
    }
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { reports, seconds: (performance.now() - started) / 1000 };
}

export function summarize(result: FuzzBenchResult): string[] {
  const sum = (pick: (report: FuzzReport) => number) =>
    result.reports.reduce((total, report) => total + pick(report), 0);
  const byProperty = new Map<string, number>();
  for (const report of result.reports) {
    for (const mismatch of report.mismatches)
      byProperty.set(mismatch.property, (byProperty.get(mismatch.property) ?? 0) + 1);
  }
  return [
    `${sum((r) => r.cases).toLocaleString("en-US")} statements over ${result.reports.length} seeds in ${result.seconds.toFixed(1)} s: the engine ran ${sum((r) => r.engineRan).toLocaleString("en-US")}, the sandbox accepted ${sum((r) => r.accepted).toLocaleString("en-US")} and refused ${sum((r) => r.refused).toLocaleString("en-US")}`,
    `mismatches: ${sum((r) => r.mismatches.length)}${byProperty.size > 0 ? ` (${[...byProperty].map(([property, count]) => `${property} ${count}`).join(", ")})` : ""}`,
  ];
}
