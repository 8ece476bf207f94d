/**
 * `npm run bench -- --only resolutions` (issue 29): what feeding the resolutions ledger
 * costs at the venues' scale, in a child process with a warehouse of its own.
 *
 * `--resolutions-markets` Polymarket markets (default 150,000) captured every 10 minutes for
 * `--resolutions-captures` snapshots (default 72, half a day), written in-engine into
 * `polymarket.markets` with the columns the ledger reads (`raw` holds only `umaEndDate`, so
 * the figures leave out reading Gamma's full objects of the markets that settle). Of them,
 * `--resolutions-settling` markets (default 300, a 10-minute run's share of Kalshi's 40,000
 * settlements a day) settle at the last capture, after a proposal two hours before;
 * `--resolutions-pending` (default 20,000) settled half-way and are still captured by every
 * run (the venues' pending window). Timed:
 * - the backfill over the whole archive before the last capture (the migration's work);
 * - the run that captures the new settlements (`recordResolutions` after a snapshot);
 * - the next run, which finds nothing new (the key lookup every run pays).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { recordResolutions } from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, resolutionsSql, toDateTime64 } from "@epicenter/warehouse";
import { loadAverage } from "./bench/machine";

export interface ResolutionsBenchOptions {
  markets: number;
  captures: number;
  settling: number;
  /** Markets settled half-way and still captured at every run (the venue's pending window). */
  pending: number;
}

export interface ResolutionsBenchResult {
  snapshotRows: number;
  generateMs: number;
  backfill: { ms: number; rows: number };
  newSettlements: { ms: number; rows: number };
  nothingNew: { ms: number; rows: number };
  load: string;
}

export async function runResolutionsBench(
  options: ResolutionsBenchOptions,
  log: (line: string) => void = console.log,
): Promise<ResolutionsBenchResult> {
  log(
    `resolutions: ${options.markets} markets × ${options.captures} captures, ${options.settling} settling at the last, ${options.pending} settled before and still captured`,
  );
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--child", JSON.stringify(options)],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}") as ResolutionsBenchResult;
}

export function summarize(result: ResolutionsBenchResult): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `${result.snapshotRows.toLocaleString("en-US")} snapshot rows written in ${s(result.generateMs)}`,
    `backfill over the archive: ${result.backfill.rows.toLocaleString("en-US")} rows in ${s(result.backfill.ms)}`,
    `a run with ${result.newSettlements.rows.toLocaleString("en-US")} new settlements: ${s(result.newSettlements.ms)}`,
    `a run with nothing new (${result.nothingNew.rows} rows written): ${s(result.nothingNew.ms)}`,
    `load ${result.load}`,
  ];
}

const MINUTE = 60_000;

async function child(options: ResolutionsBenchOptions): Promise<ResolutionsBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-resolutions-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  try {
    await migrateWarehouse(warehouse);
    const last = Math.floor(Date.now() / (10 * MINUTE)) * 10 * MINUTE;
    const first = last - (options.captures - 1) * 10 * MINUTE;
    const half = Math.floor(options.captures / 2);
    // Market i: group A (i < settling) settles at the last capture, proposed 12 captures before;
    // group B (the next `pending`) settled half-way; the rest trade throughout.
    const capture = (from: number, to: number) => `INSERT INTO polymarket.markets
      (sync_timestamp, id, event_id, question, groupItemTitle, outcomes, outcomePrices, closed, umaResolutionStatus,
       umaResolutionStatuses, negRisk, endDate, closedTime, raw)
    SELECT toDateTime64(${first / 1000} + s * 600, 3, 'UTC') AS ts, toString(700000 + i), toString(90000 + intDiv(i, 4)),
      concat('Synthetic market ', toString(i), '?'), '', ['Yes', 'No'],
      if(settled, if(yes_won, [1., 0.], [0., 1.]), [price, round(1 - price, 3)]),
      settled, multiIf(settled, 'resolved', proposed, 'proposed', ''),
      if(settled, ['proposed', 'resolved'], if(proposed, ['proposed'], [])), false,
      toDateTime64(settles_at - 3600, 3, 'UTC'), if(settled, toDateTime64(settles_at, 3, 'UTC'), NULL),
      if(settled, concat('{"umaEndDate":"', formatDateTime(toDateTime(settles_at, 'UTC'), '%FT%TZ'), '"}'), '{}')
    FROM (
      SELECT number % ${options.markets} AS i, intDiv(number, ${options.markets}) + ${from} AS s,
        i < ${options.settling} AS group_a, i >= ${options.settling} AND i < ${options.settling + options.pending} AS group_b,
        multiIf(group_a, ${last / 1000} - 300, group_b, ${first / 1000} + ${half} * 600 - 300, ${last / 1000} + 86400 * 30) AS settles_at,
        toUnixTimestamp(toDateTime64(${first / 1000} + s * 600, 3, 'UTC')) >= settles_at AS settled,
        NOT settled AND toUnixTimestamp(toDateTime64(${first / 1000} + s * 600, 3, 'UTC')) >= settles_at - 7200 AS proposed,
        cityHash64(i) % 2 = 0 AS yes_won,
        round(0.05 + 0.9 * ((cityHash64(i, s) % 1000) / 1000), 3) AS price
      FROM numbers(${options.markets} * ${to - from})
    )`;
    const started = performance.now();
    await warehouse.command(capture(0, options.captures - 1), { settings: { max_insert_threads: "2" } });
    const generateMs = performance.now() - started;
    const rowsOf = async () =>
      Number((await warehouse.query<{ n: string }>("SELECT count() AS n FROM polymarket.resolutions"))[0]?.n ?? 0);
    const timed = async (work: () => Promise<void>) => {
      const before = await rowsOf();
      const at = performance.now();
      await work();
      return { ms: performance.now() - at, rows: (await rowsOf()) - before };
    };
    const backfill = await timed(() => warehouse.command(resolutionsSql("polymarket", "all")));
    await warehouse.command(capture(options.captures - 1, options.captures));
    const lastRun = toDateTime64(last);
    const newSettlements = await timed(() => recordResolutions(warehouse, "polymarket", lastRun));
    // One capture more, nothing new settles.
    await warehouse.command(capture(options.captures, options.captures + 1));
    const nothingNew = await timed(() => recordResolutions(warehouse, "polymarket", toDateTime64(last + 10 * MINUTE)));
    const [rows] = await warehouse.query<{ n: string }>("SELECT count() AS n FROM polymarket.markets");
    return {
      snapshotRows: Number(rows?.n ?? 0),
      generateMs,
      backfill,
      newSettlements,
      nothingNew,
      load: String(loadAverage()),
    };
  } finally {
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") {
  const result = await child(JSON.parse(process.argv[3] ?? "{}") as ResolutionsBenchOptions);
  console.log(JSON.stringify(result));
}
