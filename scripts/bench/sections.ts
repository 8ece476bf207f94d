/** The Markdown of each report section, with the issue's goals judged from the figures. */
import { DEFAULT_SANDBOX_LIMITS } from "@epicenter/warehouse";
import type { IngestBenchResult } from "../bench-ingest";
import type { ContentionTiming } from "./contention";
import type { DatasetProfile } from "./dataset";
import type { ParquetExport } from "./duckdb";
import type { HostileResult } from "./hostile";
import type { LoadResult } from "./load";
import type { Machine } from "./machine";
import type { QueryTiming } from "./query-bench";
import { kib, mib, ms, ratio, seconds, table } from "./stats";
import type { BundleSize, FirstLoad } from "./web";

export interface ReportContext {
  startedAt: Date;
  machine: Machine;
  timings: Array<{ phase: string; ms: number; load: number }>;
  flags: string;
}

export const measured = (c: ReportContext) =>
  `_Measured ${c.startedAt.toISOString()} with \`npm run bench -- ${c.flags}\`._`;
export const phaseLoad = (c: ReportContext, name: string) => c.timings.find((t) => t.phase === name);
export const verdict = (ok: boolean) => (ok ? "met" : "**missed**");
export const n = (value: number) => value.toLocaleString("en-US");

export function headerSection(c: ReportContext): string {
  const m = c.machine;
  return `## Machine

${measured(c)}

| | |
|---|---|
| CPU | ${m.cores} cores, ${m.cpuModel} |
| RAM | ${m.memoryGiB} GiB |
| OS | ${m.os} |
| Node | ${m.node} |
| chDB | ${m.chdb} (ClickHouse ${m.clickhouse}) |
| DuckDB | ${m.duckdb} |

Phases of this run (wall time, and the 1-minute load average when each ended; the machine
is shared, so figures are noisy — hence medians and spreads):

${table(
  ["phase", "time", "load average"],
  c.timings.map((t) => [t.phase, seconds(t.ms), String(t.load)]),
)}
`;
}

export function datasetSection(d: DatasetProfile, c: ReportContext): string {
  const share = (x: number) => `${(x * 100).toFixed(0)} %`;
  return `## Dataset

${measured(c)}

The demo dataset (\`generateDemoHistory\`) grown to ${n(d.marketSnapshotRows)} market-snapshot rows:
${n(d.polymarketMarkets)} Polymarket and ${n(d.kalshiMarkets)} Kalshi markets (the recorded fixtures cloned
under new ids, ${n(d.catalogSizePerVenue)} per venue asked) × ${n(d.steps)} ten-minute snapshots from ${d.from} to ${d.to},
generated inside the engine (\`INSERT … SELECT\` over \`numbers()\`) in ${seconds(d.generateMs)}.

- Polymarket: ${share(d.polymarketOpenShare)} of markets open, ${share(d.polymarketZeroVolumeShare)} with zero volume;
  categories by keywords in the question: ${d.categories.map((x) => `${x.category} ${n(x.markets)}`).join(", ")}.
- Kalshi: statuses ${d.kalshiStatuses.map((s) => `${s.status} ${n(s.markets)}`).join(", ")}; ${share(d.kalshiZeroVolumeShare)} with zero volume.
- \`raw\` (the upstream JSON) is the recorded object of each market, the same in every snapshot; the typed
  columns move (prices wander, cumulative volumes grow in a daily cycle).

${table(
  ["table", "rows", "on disk", "uncompressed", "parts"],
  d.tables.map((t) => [t.table, n(t.rows), mib(t.bytesOnDisk), mib(t.uncompressedBytes), String(t.parts)]),
)}
`;
}

export function queriesSection(
  timings: QueryTiming[],
  d: DatasetProfile,
  parquet: ParquetExport | undefined,
  runs: number,
  c: ReportContext,
  contention?: ContentionTiming[],
): string {
  const load = phaseLoad(c, "queries");
  const rows = timings.map((t) => [
    t.query.title,
    ms(t.product),
    ms(t.engine),
    ms(t.duckdb),
    (t.product.median - t.engine.median).toFixed(1),
    t.service.median.toFixed(1),
    ratio(t.product.median, t.engine.median),
    ratio(t.product.median, t.duckdb.median),
    String(t.rows.product),
  ]);
  const goals = timings.map((t) => {
    const overhead = t.product.median - t.engine.median;
    return [
      t.query.id,
      `${verdict(t.product.median <= 200)} (${t.product.median.toFixed(0)} ms)`,
      t.query.isSmallResult
        ? `${verdict(overhead <= 5)} (${overhead.toFixed(1)} ms)`
        : `${verdict(t.product.median <= 1.2 * t.engine.median)} (${ratio(t.product.median, t.engine.median)} of the engine)`,
      `${verdict(t.product.median < t.duckdb.median)} (${ratio(t.product.median, t.duckdb.median)})`,
    ];
  });
  const profiles = timings.map((t) => [
    t.query.id,
    t.profile ? n(t.profile.rowsRead) : "–",
    t.profile ? t.profile.engineElapsedMs.toFixed(1) : "–",
    t.profile?.granules.join("; ") || "–",
  ]);
  return `## Queries

${measured(c)} Load average at the end of the phase: ${load?.load ?? "?"}.

${n(d.marketSnapshotRows)} market-snapshot rows. Each query ${runs} times after one warm-up, the three
paths back to back in every round, in an order that changes from round to round and query to
query (the call right after another engine's work pays for cold caches). **product** =
\`POST /api/query\` over HTTP on loopback with an API key, on a real \`startServer\` in this
process (auth, the parser checks, the sandbox, recording the run), called and timed from a client
process of its own, as a user's is (\`bench/product-client.ts\`); **engine** = the same SQL on
a warehouse client over the same data, with the sandbox's engine settings (threads, aggregation
in order, limits); **DuckDB** = the translated SQL over Parquet written by the engine (${
    parquet ? parquet.files.map((f) => `${f.view} ${mib(f.bytes)}`).join(", ") : "not exported"
  }; \`raw\` left out). Times in ms, median (min–max). *service* is the server's own
\`execution_time_ms\` (validation + sandbox run + decoding), so product − service is HTTP,
auth and JSON.

${table(
  ["query", "product", "engine", "DuckDB", "overhead", "service", "product/engine", "product/DuckDB", "rows"],
  rows,
)}

### Goals

${table(["query", "median ≤ 200 ms", "overhead ≤ 5 ms (small results), product ≤ 1.2× engine (large)", "faster than DuckDB"], goals)}
${contention ? contentionText(contention) : ""}
### Profile

What the engine read for each query (chDB's result metrics) and what the primary index kept
(\`EXPLAIN indexes = 1\`, granules kept/total per table):

${table(["query", "rows to read (EXPLAIN ESTIMATE)", "one more engine run, ms", "granules kept/total"], profiles)}

The full-text-ish search is \`question ILIKE '%bitcoin%'\` on both engines (the same
semantics on both; \`hasToken\` has no exact DuckDB twin) over the last 7 days of snapshots.
`;
}

export function ingestSection(r: IngestBenchResult, c: ReportContext): string {
  const s = (x: { median: number; min: number; max: number }, scale = 1, digits = 0) =>
    `${(x.median / scale).toFixed(digits)} (${(x.min / scale).toFixed(digits)}–${(x.max / scale).toFixed(digits)})`;
  const disk = (d: IngestBenchResult["disk"]) =>
    `${d.bytesPerMarketRow} B (${d.bytesPerMarketRowWithoutRaw} B without \`raw\`, ${d.bytesPerMarketRowRaw} B \`raw\`) over ${n(d.rowsOnDisk)} rows: ${d.runs} snapshots of ${n(d.catalogMarkets)} markets`;
  const steady = r.diskDay ?? r.disk;
  return `## Ingest and freshness

${measured(c)} Load average at the end: ${phaseLoad(c, "ingest")?.load ?? "?"}.

\`runIngestBench()\` (\`scripts/bench-ingest.ts\`): ${r.runs.length} consecutive full Polymarket snapshots of a
${n(r.catalogMarkets)}-market catalog from the replay server (in a child process) on loopback into a fresh
embedded warehouse; ${n(r.marketsWritten)} markets and ${n(r.eventsWritten)} events per run. *Map + insert* is the
same full run repeated with the upstream replaced by the bytes it sent, held in memory, so only our own write
path runs (reading the pages, the engine's mapping, the snapshot and latest tables, the run's records); each
starts once the engine's merges of the runs before it are done, as they are when runs come ten minutes apart.
Its CPU time counts the engine's threads; the machine has two cores.

${table(
  ["figure", "median (min–max)", "goal", ""],
  [
    ["run duration", `${s(r.runDurationMs, 1000, 1)} s`, "", ""],
    ["waiting for upstream pages (overlaps the engine's work)", `${s(r.upstreamWaitMs, 1000, 1)} s`, "", ""],
    ["engine time on the run's batches", `${s(r.engineMs, 1000, 1)} s`, "", ""],
    [
      "queryable after (from run start)",
      `${s(r.queryableAfterMs, 1000, 1)} s`,
      "≤ 60 s",
      verdict(r.queryableAfterMs.median <= 60_000),
    ],
    [
      "map + insert (run over recorded bytes)",
      `${s(r.mapInsertRowsPerSecond)} rows/s (runs of ${s(r.mapInsertRunMs, 1000, 1)} s, CPU ${s(r.mapInsertCpuMs, 1000, 1)} s)`,
      "≥ 50,000",
      verdict(r.mapInsertRowsPerSecond.median >= 50_000),
    ],
    ["bytes on disk per market row, timed runs", disk(r.disk), "", ""],
    [
      "bytes on disk per market row, a day of snapshots",
      disk(steady),
      "< 100 B",
      verdict(steady.bytesPerMarketRow < 100),
    ],
  ],
)}

Per run: ${r.runs.map((run, i) => `${i + 1}: ${(run.runDurationMs / 1000).toFixed(1)} s (engine ${(run.engineMs / 1000).toFixed(1)} s), queryable ${(run.queryableAfterMs / 1000).toFixed(1)} s`).join("; ")}.
`;
}

function loadRow(name: string, r: LoadResult): string[] {
  return [
    name,
    String(r.connections),
    `${r.durationS.toFixed(0)} s`,
    n(r.requests),
    r.requestsPerSecond.toFixed(0),
    `${r.latency.p50} / ${r.latency.p90} / ${r.latency.p99} / ${r.latency.max}`,
    Object.entries(r.statusCounts)
      .map(([code, count]) => `${code}: ${n(count)}`)
      .join(", "),
    `${r.errors} (${r.timeouts} timeouts)`,
    `${mib(r.rss.before)} / ${mib(r.rss.peak)} / ${mib(r.rss.after)}`,
  ];
}

export function loadSection(load: LoadResult, overload: LoadResult, c: ReportContext): string {
  const non503 = (r: LoadResult) =>
    Object.entries(r.statusCounts)
      .filter(([code]) => Number(code) >= 500 && code !== "503")
      .reduce((total, [, count]) => total + count, 0);
  const noFailures = load.non2xx === 0 && load.errors === 0;
  return `## Load

${measured(c)} Load average at the end: ${phaseLoad(c, "load")?.load ?? "?"} (load), ${phaseLoad(c, "overload")?.load ?? "?"} (overload).

autocannon on loopback against the server in a child process (\`node --import tsx
apps/server/src/main.ts\`, \`UV_THREADPOOL_SIZE=16\`, \`LOG_LEVEL=warn\`), every request with an API
key. Each connection cycles through: four \`/api/query\` calls (count of open markets, one
market's last day, top-50 Kalshi by open interest, open markets by category, top 100 by
24 h volume — small and medium results), \`/api/tables\`, \`/api/table/polymarket/markets_latest/sample\`
and \`/api/sync/status\`. The overload run sends only the queries. RSS is the server's VmRSS.

${table(
  [
    "run",
    "connections",
    "duration",
    "requests",
    "req/s",
    "latency ms p50 / p90 / p99 / max",
    "status",
    "errors",
    "RSS before / peak / after",
  ],
  [loadRow("load", load), loadRow("beyond capacity", overload)],
)}

- Load: no 5xx and no failed request — ${verdict(noFailures)}; p99 ${load.latency.p99} ms; server memory
  ${mib(load.rss.before)} → peak ${mib(load.rss.peak)} → ${mib(load.rss.after)}.
- Beyond capacity: ${n(overload.statusCounts["503"] ?? 0)} answers were 503, other 5xx ${non503(overload)}; a refused client saw
  ${overload.refusals ? `\`${overload.refusals.status}\` with \`Retry-After: ${overload.refusals.retryAfter}\` and \`${overload.refusals.body.replaceAll("`", "'")}\`` : "no refusal during the probe"}.
  The server was ${overload.aliveAfter ? "still running" : "**not running**"} afterwards and \`/health\` answered ${overload.healthAfter}.
`;
}

export function webSection(bundle: BundleSize | undefined, first: FirstLoad | undefined, c: ReportContext): string {
  const parts: string[] = [`## Web\n\n${measured(c)}\n`];
  if (bundle) {
    parts.push(`Initial JavaScript: the entry script of \`apps/web/dist/index.html\` and the modules it preloads,
gzip level 9 — **${kib(bundle.initialGzipBytes)}** (goal ≤ 300 KB: ${verdict(bundle.initialGzipBytes <= 300 * 1000)}).
All ${bundle.chunks} JavaScript chunks together: ${kib(bundle.allJsGzipBytes)} gzip; the rest load with the page that needs them.
Build time ${Number.isNaN(bundle.buildMs) ? "(not rebuilt)" : seconds(bundle.buildMs)}.

${table(
  ["file", "bytes", "gzip"],
  bundle.initial.map((f) => [f.file, n(f.bytes), n(f.gzipBytes)]),
)}
`);
  }
  if (first) {
    parts.push(`First load of \`/queries\` in chromium on loopback, signed in (through the magic-link outbox), each
load in a fresh browser context (cold cache), ${first.loads} loads after one warm-up, median (min–max):
load event ${ms(first.loadEventMs, 0)} ms; first query card on screen ${ms(first.firstCardMs, 0)} ms;
${kib(first.transferredBytes.median)} of response bodies.
`);
  }
  return parts.join("\n");
}

export function hostileSection(r: HostileResult, c: ReportContext): string {
  const limitMs = r.timeLimitSeconds * 1000;
  const health = Math.max(...r.cases.map((x) => x.healthMaxMs));
  const other = Math.max(...r.cases.map((x) => x.otherUserMaxMs));
  const failures = r.cases.reduce((sum, x) => sum + x.otherUserFailures, 0);
  const ran = Math.max(...r.cases.map((x) => x.ranMs ?? 0));
  const rows = r.cases.map((x) => [
    x.name,
    `${x.healthMaxMs} ms`,
    `${x.otherUserMaxMs} ms${x.otherUserFailures > 0 ? ` (${x.otherUserFailures} failed)` : ""}`,
    x.ranMs === undefined ? "refused" : `${(x.ranMs / 1000).toFixed(1)} s`,
    x.outcome,
  ]);
  const memory = r.memory.map((x) => [
    x.name,
    x.status,
    `${x.ms} ms`,
    `${mib(x.peakRssBefore)} → ${mib(x.peakRssAfter)}`,
  ]);
  return `## One user must not stall the others (issue 18)

${measured(c)} The server runs in its own process; one user sends each hostile request and
aborts it after 3 s (the download is read once and then left), while \`/health\` is probed
every 100 ms and a second user runs a small query every 250 ms. "Ran" is the hostile run's
recorded duration (validation to the engine letting go). Load average at the end: ${phaseLoad(c, "hostile")?.load ?? "?"}.

${table(["hostile request", "/health, most", "other user, most", "ran", "what the hostile caller got"], rows)}

| goal | figure | |
|---|---|---|
| \`/health\` within 1 s throughout | most ${health} ms | ${verdict(health <= 1_000)} |
| another user's small query within 2 s | most ${other} ms, ${failures} failed | ${verdict(other <= 2_000 && failures === 0)} |
| hostile query stopped within its limit + 5 s (${r.timeLimitSeconds + 5} s) | longest ran ${(ran / 1000).toFixed(1)} s | ${verdict(ran <= limitMs + 5_000)} |

Memory of the server process (peak resident set, VmHWM, before → after):

${table(["load", "answers", "time", "peak RSS"], memory)}
`;
}

/** A third of the sandbox's time limit: what a gallery example may take on a busy machine. */
const EXAMPLE_BUDGET_MS = (DEFAULT_SANDBOX_LIMITS.maxExecutionSeconds * 1000) / 3;

export function contentionText(timings: ContentionTiming[]): string {
  const slowest = timings.reduce((most, t) => Math.max(most, t.busyMs), 0);
  const failed = timings.filter((t) => t.failure !== undefined);
  return `
### The gallery under contention

Every gallery example through \`POST /api/query\` (median of 3 after a warm-up), on the quiet server and
then while another user keeps two scans of both cores running through it (\`bench/contention.ts\`).
Goal: every example answers, under a third of the ${DEFAULT_SANDBOX_LIMITS.maxExecutionSeconds} s limit (${(EXAMPLE_BUDGET_MS / 1000).toFixed(0)} s): ${verdict(
    failed.length === 0 && slowest <= EXAMPLE_BUDGET_MS,
  )} (slowest busy ${slowest.toFixed(0)} ms, ${failed.length} failed).

${table(
  ["example", "quiet", "busy", "busy/quiet", "rows", "failure"],
  timings.map((t) => [
    t.title,
    t.quietMs.toFixed(0),
    t.busyMs.toFixed(0),
    ratio(t.busyMs, t.quietMs),
    String(t.rows),
    t.failure ?? "",
  ]),
)}
`;
}
