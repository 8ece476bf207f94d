/**
 * `docs/BENCHMARKS.md`, one section per phase between markers, so a later run of some
 * phases only (`--only queries`) replaces those sections and keeps the others.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** `notes` is written by hand (findings, what misses and why) and never by the bench. */
export type Phase = "header" | "notes" | "dataset" | "queries" | "ingest" | "load" | "hostile" | "web";
export const PHASE_ORDER: readonly Phase[] = [
  "header",
  "notes",
  "dataset",
  "queries",
  "ingest",
  "load",
  "hostile",
  "web",
];

const TITLE = `# Benchmarks

Written by \`npm run bench\` (\`scripts/bench.ts\`); every figure below is measured by it.
Medians with their spread (min–max unless marked) over several runs; ratios are measured
side by side in the same run. Sections from different invocations say so in their own
"measured" line.
`;

export function writeReport(path: string, sections: Partial<Record<Phase, string>>): void {
  const previous = existsSync(path) ? readFileSync(path, "utf8") : "";
  const kept = (phase: Phase) =>
    new RegExp(`<!-- phase:${phase} -->\\n([\\s\\S]*?)<!-- /phase:${phase} -->`).exec(previous)?.[1];
  const body = PHASE_ORDER.map((phase) => {
    const text = sections[phase] ?? kept(phase);
    return text === undefined ? "" : `<!-- phase:${phase} -->\n${text.trimEnd()}\n<!-- /phase:${phase} -->\n`;
  })
    .filter(Boolean)
    .join("\n");
  writeFileSync(path, `${TITLE}\n${body}`);
}
