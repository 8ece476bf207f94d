/**
 * The history phase's section of `docs/BENCHMARKS.md` (issue 15's figures, its goals
 * judged), and where it goes in the file.
 *
 * `report.ts` writes the phases it knows (`Phase`) and drops any other block; until
 * `history` is one of them, `withHistorySection` keeps this section's block (the new one,
 * or the one already in the file) right after the ingest section.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { HistoryBenchResult } from "../bench-history";
import type { TableBytes } from "./history-disk";
import { ARCHIVE, projectVenue, type VenueProjection } from "./history-projection";
import type { PathTiming } from "./history-timing";
import { contentionText, measured, n, phaseLoad, type ReportContext, verdict } from "./sections";
import { mib, seconds, table } from "./stats";

const QUERY_GOAL_MS = 1_000;

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const hours = (value: number | null) =>
  value === null || !Number.isFinite(value) ? "never" : value >= 48 ? `${fixed(value / 24)} days` : `${fixed(value)} h`;
const perHost = (requests: Record<string, number>, digits = 1) =>
  Object.entries(requests)
    .map(([host, count]) => `${host} ${fixed(count, digits)}`)
    .join(", ") || "–";

/** What a refresh costs for a market with nothing stored, against the others. */
function emptyRefresh(venues: HistoryBenchResult["backfill"]["venues"]): string {
  let costlier = false;
  const lines = venues
    .filter((v) => v.refreshEmpty.markets > 0)
    .map((v) => {
      const others = v.refresh.markets - v.refreshEmpty.markets;
      const total = (requests: Record<string, number>) => Object.values(requests).reduce((a, b) => a + b, 0);
      const emptyEach = total(v.refreshEmpty.requests) / v.refreshEmpty.markets;
      const othersEach =
        others > 0 ? (total(v.refresh.requests) - total(v.refreshEmpty.requests)) / others : Number.NaN;
      costlier ||= emptyEach > 2 * othersEach;
      return `${v.venue}: ${v.refreshEmpty.markets} of the ${v.refresh.markets} refreshed markets cost ${fixed(emptyEach)} requests each per refresh, against ${fixed(othersEach)} for the others`;
    });
  if (lines.length === 0) return "Every refreshed market had history stored.";
  return `Refreshing a market with nothing stored (the venue had no point for it: a placeholder, a market without a trade): ${lines.join("; ")}. ${
    costlier
      ? "With no stored point, its series start again from the market's opening at every refresh."
      : "A series with no point resumes after what the earlier steps covered, so they cost no more than the others."
  }`;
}

function backfillPart(r: HistoryBenchResult): string {
  const b = r.backfill;
  const projections = b.venues.map(projectVenue);
  const segments = b.venues.flatMap((v) =>
    v.segments.map((s) => {
      const limits = Object.fromEntries(v.hosts.map((h) => [h.name, h.perSecond]));
      return [
        v.venue,
        s.name,
        seconds(s.seconds * 1000),
        String(s.steps),
        `${s.markets.open} / ${s.markets.closed}`,
        fixed(((s.markets.open + s.markets.closed) / s.seconds) * 60),
        Object.entries(s.requests)
          .map(([host, count]) => `${host} ${fixed(count / s.seconds)} of ${fixed(limits[host] ?? Number.NaN, 0)}`)
          .join(", "),
        `${fixed(s.cpuSeconds / s.seconds, 2)} cores`,
        String(s.load),
      ];
    }),
  );
  const perMarket = b.venues.map((v, i) => {
    const p = projections[i] as VenueProjection;
    return [
      v.venue,
      `${n(v.known.open)} / ${n(v.known.closed)}`,
      `${v.initial.open.markets} / ${v.initial.closed.markets} / ${v.refresh.markets}`,
      `${v.empty.open} / ${v.empty.closed}`,
      `${fixed(v.lifeDays.open, 0)} / ${fixed(v.lifeDays.closed, 0)}`,
      perHost(p.perMarket.open),
      perHost(p.perMarket.closed),
      perHost(p.perMarket.refresh, 2),
      perHost(v.points.open, 0),
      perHost(v.points.closed, 0),
    ];
  });
  const projection = projections.map((p) => [
    p.venue,
    p.limits
      .map(
        (l) =>
          `${l.host} ${fixed(l.perSecond, 0)}/s${l.snapshotPerSecond > 0 ? ` − snapshots ${fixed(l.snapshotPerSecond, 2)}` : ""}`,
      )
      .join(", "),
    `${n(Math.round(p.atLimit.open.perHour))}/h (${p.atLimit.open.bottleneck}): ${hours(p.openHours)}`,
    `${n(Math.round(p.atLimit.closed.perHour))}/h (${p.atLimit.closed.bottleneck}): ${hours(p.closedHours)}`,
    `**${hours(p.openHours + p.closedHours)}**`,
    p.limits
      .map((l) => `${l.host} ${fixed(l.refreshPerSecond)}/s (${fixed((l.refreshPerSecond / l.perSecond) * 100, 0)} %)`)
      .join(", "),
    hours(p.closedHoursWithRefresh),
    `${fixed(p.measuredPerMinute.open)} / ${fixed(p.measuredPerMinute.closed)} per min: ${hours(p.measuredHours)}`,
  ]);
  return `### Backfill at the venues' limits

\`runBackfillBench()\` (\`scripts/bench/history-backfill.ts\`, in a child process): a fresh embedded warehouse,
the replay server in a child process of its own with a ${n(b.catalogSize)}-market catalog per venue and its clock
fixed at ${b.now}; snapshots of both venues and both closed-history backfills first (${fixed(b.setupSeconds, 0)} s), so
the markets are known. Then \`runHistoryStep\` (${b.marketsPerStep} markets per step, the default) with the product's
limiters (one \`rateLimiters\` map shared by every run, no fast limits) for ${b.secondsPerVenue} s per venue, in three
segments: *open first* (half the time; the worker takes open markets first), *closed* (three tenths; the open
markets not reached are marked as refreshed in \`internal.history_state\`, so the steps reach closed ones) and
*refresh* (a fifth; both clocks moved on two hours, so the open markets fetched are brought up to date, as the
worker does every hour). Every request is counted by host and attributed to the markets its URL names.

${table(
  [
    "venue",
    "segment",
    "time",
    "steps",
    "markets open / closed",
    "markets/min",
    "requests/s (of the limit)",
    "CPU",
    "load average",
  ],
  segments,
)}

The limits hold over any 10 s (Polymarket) or 1 s (Kalshi) window, so a segment of a few seconds can show more
than the per-second average of the limit.

Per market (averages over the markets fetched; requests by host, points = rows stored per table):

${table(
  [
    "venue",
    "known open / closed",
    "fetched open / closed / refreshed",
    "of them with nothing stored (open / closed)",
    "median life, days (open / closed)",
    "requests, open market",
    "requests, closed market",
    "requests, hourly refresh",
    "points, open market",
    "points, closed market",
  ],
  perMarket,
)}

${emptyRefresh(b.venues)}

**Projection** to ${n(ARCHIVE.open)} open and ${n(ARCHIVE.closed)} closed markets per venue. Assumptions: a market's
first fetch costs the requests per market measured above for its class; each host runs at its documented limit as
the product's limiter holds it (Polymarket CLOB 900 per 10 s and Data API 270 per 10 s; Kalshi 18 per s, shared
with its snapshots: one every 10 minutes of all open markets at the pages per market measured in the setup), the
slowest host setting the pace; open markets first, then closed. *Refresh* is what keeping every open market's
history no more than an hour old takes (the worker's default interval) at the refresh cost measured; *closed,
with the refresh* is the closed markets' time on what the refresh leaves of each host ("never" when the refresh
alone needs more than a host's limit). *Measured pace* is this machine's own rate against the replay server,
extrapolated.

${table(
  [
    "venue",
    "limits",
    `${n(ARCHIVE.open)} open`,
    `${n(ARCHIVE.closed)} closed`,
    "total at the limits",
    "hourly refresh of all open markets",
    "closed, with the refresh",
    "measured pace (open / closed)",
  ],
  projection,
)}

The replay markets' lives are not the venues': every clone keeps its recorded template's open date, so open
replay markets are one to two years old (the median above) and a request per 15-day window (Polymarket) or
4,800 hourly candles (Kalshi) makes their first fetch expensive; closed replay markets are a mix of recent
closes and the recorded templates. Requests and points per market scale with a market's life, so the
projection moves with the real distribution of lives, which the replay does not reproduce.`;
}

function cell(path: PathTiming): string {
  if (path.spread.n === 0 && path.failures === 0) return "–";
  const time = `${fixed(path.spread.median, 0)} (${fixed(path.spread.min, 0)}–${fixed(path.spread.max, 0)}, n=${path.spread.n})`;
  return path.failures > 0
    ? `${time}; ${path.failures} failed: ${path.error?.replaceAll("|", "/").slice(0, 160)}`
    : time;
}

function bytesRow(label: string, t: TableBytes): string[] {
  const perRow = (bytes: number) => (t.rows > 0 ? (bytes / t.rows).toFixed(2) : "–");
  return [
    label,
    n(t.rows),
    String(t.parts),
    `**${perRow(t.compressedBytes)}**`,
    perRow(t.bytesOnDisk),
    perRow(t.uncompressedBytes),
    t.columns.map((c) => `${c.name} ${perRow(c.compressedBytes)}`).join(", ") || "(compact parts: not split)",
    seconds(t.optimizeMs),
  ];
}

function queryPart(r: HistoryBenchResult): string {
  const q = r.queries;
  const s = q.synthetic;
  const rows = q.timings.map((t) => [
    t.query.title,
    cell(t.product),
    fixed(t.service.median, 0),
    cell(t.engine),
    cell(t.duckdb),
    `${t.product.rows} / ${t.engine.rows} / ${t.duckdb.rows}`,
    t.profile ? `${n(t.profile.rowsToRead)}; ${t.profile.granules.join(", ")}` : "–",
  ]);
  const goals = q.timings
    .filter((t) => !t.query.engineOnly)
    .map((t) => [
      t.query.title,
      `${verdict(t.product.failures === 0 && t.product.spread.median <= QUERY_GOAL_MS)} (${fixed(t.product.spread.median, 0)} ms${t.product.failures > 0 ? ", failed" : ""})`,
    ]);
  const parquet = q.parquet.files.find((f) => f.view === "pm_prices");
  return `### Queries on ${n(s.points)} price points

\`runHistoryQueries()\` (\`scripts/bench/history-queries.ts\`, in a child process with a fresh DATA_DIR):
${n(s.markets)} resolved yes/no markets × 2 tokens × ${n(s.pointsPerToken)} hourly points (${s.from} → ${s.to}) generated
inside the engine (\`INSERT … SELECT\` over \`numbers()\`, \`scripts/bench/history-synthetic.ts\`) in
${seconds(s.generateMs)}, with the same markets resolved in \`polymarket.markets_latest\` and one snapshot each, derived into
the resolutions ledger in ${seconds(q.ledgerMs)} (\`polymarket.resolutions\`, with each market's last history point before its close); \`OPTIMIZE TABLE … FINAL\` took
${seconds(q.prices.optimizeMs)}; the Parquet export for DuckDB ${parquet ? `${mib(parquet.bytes)} in ${seconds(parquet.ms)}` : "–"}.
Load average ${q.load.generated} when the data was ready, ${q.load.queried} after the queries.

Each query after one warm-up, ${q.runs} times (3 for a path whose warm-up took over 5 s), the three paths in an
order that changes from round to round: **product** = \`POST /api/query\` with an API key on an in-process
\`startServer\` (its sandbox: 30 s time limit, 2 threads), called and timed from a client process of its own; **engine** = the same SQL on a warehouse client with the
sandbox's settings but no time limit (how long the query really takes); **DuckDB** = the same question over the
Parquet export (2 threads). ms, median (min–max, n). Example 9 is the market the gallery picks (the most traded
resolved one, \`${q.lookupId}\`). The calibration reads the outcomes from \`polymarket.resolutions\` and the prices from
\`polymarket.daily_closes\` (a row per market-day); DuckDB's reads the outcomes from the markets' own prices and asks
the same question over every point, and its answer ${q.calibrationAgrees ? "is the same, bucket for bucket" : "**differs**"}. The diagnostics, on the engine only, are not gallery queries.

${table(["query", "product", "service", "engine", "DuckDB", "rows (product / engine / DuckDB)", "rows to read; granules kept"], rows)}

${table(["goal: ≤ 1 s through the API", ""], goals)}

The calibration's answer on this data: ${q.calibration.map((row) => `${row.bucket}: ${row.markets} markets, yes ${row.yes_rate}`).join("; ")}.
${q.contention ? contentionText(q.contention) : ""}`;
}

export function historySection(r: HistoryBenchResult, c: ReportContext): string {
  const load = phaseLoad(c, "history")?.load ?? "?";
  return `## History (issue 15)

${measured(c)} The phase took ${seconds(r.partMs.backfill + r.partMs.queries)} (backfill ${seconds(r.partMs.backfill)},
queries ${seconds(r.partMs.queries)}); load average at its end: ${load}. \`npm run bench -- --only history\`
(not in the default run: it adds about that much). Sizes: \`--history-seconds\`, \`--history-catalog\`,
\`--history-points\`, \`--history-runs\`.

${backfillPart(r)}

${queryPart(r)}

### Bytes on disk

From \`system.parts\` after \`OPTIMIZE TABLE … FINAL\` (one part per monthly partition): compressed column data per
row (the figure), whole parts per row (marks, primary index, checksums too), uncompressed, and per column where
the parts are wide. The synthetic prices move every 1–6 hours on a 0.0005 grid at times a few seconds past the hour,
like the recorded sample; the replay server's move every point, on a 0.0001 grid, exactly on the hour, and include
its one-minute points; both Kalshi candles and these prices come from the backfill above.

${table(
  [
    "table",
    "rows",
    "parts",
    "bytes per row",
    "on disk per row",
    "uncompressed per row",
    "per column",
    "OPTIMIZE FINAL",
  ],
  [
    bytesRow("polymarket.prices (synthetic)", r.queries.prices),
    bytesRow("polymarket.prices (replay backfill)", r.backfill.replayPrices),
    bytesRow("kalshi.candles (replay backfill)", r.backfill.candles),
  ],
)}
`;
}

const BLOCK = /<!-- phase:history -->\n[\s\S]*?<!-- \/phase:history -->\n/;

/** Runs `write` (which rewrites the report) and puts the history section back: `section`, or the one the file had. */
export function withHistorySection(path: string, section: string | undefined, write: () => void): void {
  const previous = existsSync(path) ? BLOCK.exec(readFileSync(path, "utf8"))?.[0] : undefined;
  write();
  const block =
    section === undefined ? previous : `<!-- phase:history -->\n${section.trimEnd()}\n<!-- /phase:history -->\n`;
  if (block === undefined) return;
  const text = readFileSync(path, "utf8").replace(BLOCK, "");
  const anchor = "<!-- /phase:ingest -->\n";
  const at = text.indexOf(anchor);
  writeFileSync(
    path,
    at < 0
      ? `${text.trimEnd()}\n\n${block}`
      : `${text.slice(0, at + anchor.length)}\n${block}${text.slice(at + anchor.length)}`,
  );
}
