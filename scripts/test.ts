/**
 * `npm test`: every tier, those that mostly wait beside each other, and each tier's wall
 * time at the end (the CI budget is 15 minutes; `.ci/run` prints the same table).
 *
 * 1. The type check, the lint and the unit tier at once (each is a few seconds to a
 *    minute, and the unit tier leaves a core idle while it imports).
 * 2. The integration tier's files, two at a time by themselves.
 * 3. Its serial files (they start and kill real servers, one at a time) beside the browser
 *    tier's preparation: the SPA build and the archive's seed, which would otherwise run
 *    alone before the first browser test.
 * 4. The browser tier.
 * Integration beside e2e was tried: the machine's load reached 10 on 2 cores and a
 * 23-second test met its 60-second timeout, so those two never overlap. A tier's output is
 * printed whole when it ends, so two tiers' lines never interleave. Exits 1 if any tier
 * failed, after every tier of its stage has ended (a failed stage skips the later ones:
 * its failures are cheaper to read first).
 *
 * `npm test -- unit integration` runs those tiers only; `integration` and `e2e` name their
 * parts too (`integration:serial`, `e2e:prepare`).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E_ARCHIVE_ENV } from "../tests/e2e/prepared";

interface Tier {
  name: string;
  command: string[];
}

const STAGES: Tier[][] = [
  [
    { name: "typecheck", command: ["npm", "run", "--silent", "typecheck"] },
    { name: "lint", command: ["npm", "run", "--silent", "lint"] },
    { name: "unit", command: ["npm", "run", "--silent", "test:unit"] },
  ],
  [{ name: "integration", command: ["npx", "vitest", "run", "--project", "integration"] }],
  [
    { name: "integration:serial", command: ["npx", "vitest", "run", "--project", "integration:serial"] },
    { name: "e2e:prepare", command: ["npx", "tsx", "tests/e2e/prepare.ts"] },
  ],
  [{ name: "e2e", command: ["npm", "run", "--silent", "test:e2e"] }],
];

/** `integration` selects `integration:serial` too. */
function selected(tier: Tier, only: string[]): boolean {
  return only.length === 0 || only.includes(tier.name) || only.includes(tier.name.split(":")[0] as string);
}

interface Outcome {
  name: string;
  seconds: number;
  code: number;
}

function run(tier: Tier, alone: boolean): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [command, ...args] = tier.command as [string, ...string[]];
    // A tier that runs alone streams as it goes; beside others, it is printed when it ends.
    const child = spawn(command, args, { stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      if (!alone) {
        process.stdout.write(`\n── ${tier.name} ${"─".repeat(Math.max(0, 70 - tier.name.length))}\n`);
        process.stdout.write(Buffer.concat(output));
      }
      process.stdout.write(`\n${tier.name}: ${code === 0 ? "passed" : "FAILED"} in ${seconds.toFixed(1)} s\n`);
      resolve({ name: tier.name, seconds, code: code ?? (signal ? 1 : 0) });
    });
  });
}

const only = process.argv.slice(2);
const stages = STAGES.map((stage) => stage.filter((tier) => selected(tier, only))).filter((stage) => stage.length > 0);
const unknown = only.filter((name) => !STAGES.flat().some((tier) => selected(tier, [name])));
if (unknown.length > 0) {
  console.error(
    `npm test: no tier named ${unknown.join(", ")} (tiers: ${STAGES.flat()
      .map((t) => t.name)
      .join(", ")})`,
  );
  process.exit(2);
}

// The browser tier takes over the archive its preparation seeds; a skipped tier leaves it here.
const names = stages.flat().map((tier) => tier.name);
const archive =
  names.includes("e2e:prepare") && names.includes("e2e") ? mkdtempSync(join(tmpdir(), "epicenter-e2e-")) : undefined;
if (archive) process.env[E2E_ARCHIVE_ENV] = archive;
else delete process.env[E2E_ARCHIVE_ENV];

const started = performance.now();
const outcomes: Outcome[] = [];
for (const stage of stages) {
  const results = await Promise.all(stage.map((tier) => run(tier, stage.length === 1)));
  outcomes.push(...results);
  if (results.some((result) => result.code !== 0)) break;
}
if (archive) rmSync(archive, { recursive: true, force: true });
const total = (performance.now() - started) / 1000;
const skipped = stages.flat().filter((tier) => !outcomes.some((outcome) => outcome.name === tier.name));
const NAME_WIDTH = Math.max(...STAGES.flat().map((tier) => tier.name.length)) + 1;
const lines = [
  "",
  "Tier wall times:",
  ...outcomes.map(
    ({ name, seconds, code }) =>
      `  ${name.padEnd(NAME_WIDTH)} ${seconds.toFixed(1).padStart(7)} s  ${code === 0 ? "passed" : "FAILED"}`,
  ),
  ...skipped.map(({ name }) => `  ${name.padEnd(NAME_WIDTH)}       -    not run (an earlier stage failed)`),
  `  ${"total".padEnd(NAME_WIDTH)} ${total.toFixed(1).padStart(7)} s`,
];
console.log(lines.join("\n"));
process.exit(outcomes.some((outcome) => outcome.code !== 0) || skipped.length > 0 ? 1 : 0);
