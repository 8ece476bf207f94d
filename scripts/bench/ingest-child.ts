/**
 * Runs `runIngestBench()` (scripts/bench-ingest.ts, issue 3's figures) in its own process:
 * chDB opens one data directory per process, and the main bench already holds another.
 * Prints the result as one JSON line on stdout.
 */
import { runIngestBench } from "../bench-ingest";

const [catalogSize, runs, dayRuns] = process.argv.slice(2).map(Number);
const result = await runIngestBench({
  ...(catalogSize ? { catalogSize } : {}),
  ...(runs ? { runs } : {}),
  ...(dayRuns !== undefined && Number.isFinite(dayRuns) ? { dayRuns } : {}),
});
process.stdout.write(`${JSON.stringify(result)}\n`);
