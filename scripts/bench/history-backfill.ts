/**
 * Issue 15's backfill figures: the history worker (`runHistoryStep`) against the replay
 * server's history endpoints at the venues' documented limits, on a fresh embedded
 * warehouse, for a bounded time per venue.
 *
 * Setup: a catalog of `catalogSize` markets per venue with a fixed clock; snapshots of
 * both venues and both closed-history backfills (Polymarket's too, or it would know only
 * the few markets closed in the last week), so the markets are known. Every run shares one
 * `rateLimiters` map with the product's own limits, as the scheduler does.
 *
 * Each venue then gets three timed segments:
 * - *open first*: steps as the worker takes them (open markets never fetched come first);
 * - *closed*: the open markets still unfetched are marked in `internal.history_state` as
 *   refreshed a day ahead (a write only this benchmark makes), so the steps reach closed
 *   markets, whose requests per market differ;
 * - *refresh*: the clock (and the replay server's) moves on two hours, past the refresh
 *   interval, so the open markets fetched in the first segment are brought up to date:
 *   what keeping open markets fresh costs per market and hour.
 * Every request is counted by host and attributed to the markets its URL names (a batch
 * candle request split evenly over its tickers; a step's `/historical/cutoff` spread over
 * its markets), which gives requests per market for open and closed markets, the inputs of
 * the projection in `history-projection.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type IngestConfig,
  replayIngestConfig,
  runBackfillStep,
  runHistoryStep,
  runSync,
  type SourceName,
  type SyncDeps,
  silentLogger,
  sourceNamed,
  unitsPerSecond,
} from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { measureTable, type TableBytes } from "./history-disk";
import { loadAverage } from "./machine";
import { startReplayChild } from "./replay-child";

export type MarketClass = "open" | "closed";
type Venue = Extract<SourceName, "polymarket" | "kalshi">;

/** Requests attributed to a set of markets, by host. */
export interface RequestTally {
  markets: number;
  requests: Record<string, number>;
}

export interface Segment {
  name: "open first" | "closed" | "refresh";
  seconds: number;
  steps: number;
  markets: Record<MarketClass, number>;
  /** Requests sent, by host (retries included). */
  requests: Record<string, number>;
  /** CPU time of this process (the worker and the engine's threads) over the segment. */
  cpuSeconds: number;
  /** The machine's 1-minute load average at the segment's end. */
  load: number;
}

export interface VenueBackfill {
  venue: Venue;
  /** Each history host's limit, in requests a second as the archive spends it. */
  hosts: Array<{ name: string; perSecond: number }>;
  known: Record<MarketClass, number>;
  /** Median life (open to close, or to now) of the markets fetched, days: the replay's, not the venue's. */
  lifeDays: Record<MarketClass, number>;
  segments: Segment[];
  /** A market's first fetch, by class; and an open market's refresh. */
  initial: Record<MarketClass, RequestTally>;
  refresh: RequestTally;
  /** The refreshed markets with nothing stored in any history table (no trade in their life yet). */
  refreshEmpty: RequestTally;
  /** Rows stored per market fetched, per history table, by class. */
  points: Record<MarketClass, Record<string, number>>;
  /** Markets fetched that have nothing stored in any history table (the venue had no point for them), by class. */
  empty: Record<MarketClass, number>;
  /** The venue's snapshot: pages per market it wrote, on the same host as its history or not. */
  snapshot: { pages: number; markets: number; sharesHost: boolean };
}

export interface BackfillBenchResult {
  catalogSize: number;
  now: string;
  secondsPerVenue: number;
  marketsPerStep: number;
  setupSeconds: number;
  venues: VenueBackfill[];
  candles: TableBytes;
  /** The replay's price points, for comparison with the synthetic history's. */
  replayPrices: TableBytes;
}

const OPEN_KALSHI = "('initialized', 'inactive', 'active', 'unopened', 'open', 'paused')";
/** Each venue's markets as the worker chooses them: key, class, life, and the URL ids that name them. */
const MARKETS: Record<Venue, string> = {
  polymarket: `SELECT id AS market, NOT ifNull(closed, false) AS is_open, conditionId AS condition, clobTokenIds AS tokens,
      (toUnixTimestamp(if(closed, coalesce(closedTime, endDate, updatedAt), {now:DateTime})) - toUnixTimestamp(coalesce(startDate, createdAt))) / 86400 AS life
    FROM polymarket.markets_latest FINAL WHERE length(clobTokenIds) > 0 AND coalesce(startDate, createdAt) IS NOT NULL`,
  kalshi: `SELECT ticker AS market, status IN ${OPEN_KALSHI} AS is_open, '' AS condition, [] AS tokens,
      (least(toUnixTimestamp(coalesce(close_time, {now:DateTime})), toUnixTimestamp({now:DateTime})) - toUnixTimestamp(coalesce(open_time, created_time))) / 86400 AS life
    FROM kalshi.markets_latest FINAL WHERE coalesce(open_time, created_time) IS NOT NULL`,
};
const HISTORY_KEY: Record<Venue, string> = { polymarket: "id", kalshi: "ticker" };

interface MarketInfo {
  isOpen: boolean;
  life: number;
}

/** Counts requests by host and attributes each to the markets its URL names. */
class RequestLedger {
  byHost: Record<string, number> = {};
  byMarket = new Map<string, Record<string, number>>();
  overhead: Record<string, number> = {};

  constructor(
    private readonly hostOf: (url: URL) => string,
    private readonly marketsOf: (url: URL) => string[],
  ) {}

  /** Prints every request's path, to see what a segment asks for (`BENCH_VERBOSE=refresh`, or another segment's name). */
  verbose = false;

  record(input: string): void {
    const url = new URL(input);
    if (this.verbose) console.error(`    ${url.pathname}${url.search}`);
    const host = this.hostOf(url);
    this.byHost[host] = (this.byHost[host] ?? 0) + 1;
    const markets = this.marketsOf(url);
    if (markets.length === 0) this.overhead[host] = (this.overhead[host] ?? 0) + 1;
    for (const market of markets) {
      const tally = this.byMarket.get(market) ?? {};
      tally[host] = (tally[host] ?? 0) + 1 / markets.length;
      this.byMarket.set(market, tally);
    }
  }

  reset(): void {
    this.byHost = {};
    this.byMarket = new Map();
    this.overhead = {};
  }
}

function hostResolver(config: IngestConfig): (url: URL) => string {
  const bases = [
    { host: "polymarket-clob", base: config.polymarket.clobUrl },
    { host: "polymarket-data", base: config.polymarket.dataUrl },
    { host: "polymarket", base: config.polymarket.apiUrl },
    { host: "kalshi", base: config.kalshi.apiUrl },
  ].sort((a, b) => b.base.length - a.base.length);
  return (url) => bases.find(({ base }) => url.href.startsWith(base))?.host ?? url.host;
}

function marketResolver(byUrlId: Map<string, string>): (url: URL) => string[] {
  return (url) => {
    const q = url.searchParams;
    const named =
      q.get("market") ??
      q.get("condition") ??
      q.get("ticker") ??
      /\/markets\/([^/]+)\/candlesticks$/.exec(url.pathname)?.[1] ??
      null;
    const ids = named !== null ? [decodeURIComponent(named)] : (q.get("market_tickers")?.split(",") ?? []);
    return ids.map((id) => byUrlId.get(id) ?? id);
  };
}

/** One timed segment of history steps; the ledger collects what it sent. */
async function runSegment(
  name: Segment["name"],
  venue: Venue,
  seconds: number,
  deps: SyncDeps,
  ledger: RequestLedger,
  info: Map<string, MarketInfo>,
  marketsPerStep: number,
  log: (line: string) => void,
): Promise<{ segment: Segment; ledger: { byMarket: RequestLedger["byMarket"]; overhead: Record<string, number> } }> {
  ledger.reset();
  ledger.verbose = process.env.BENCH_VERBOSE === name;
  const started = performance.now();
  const cpu = process.cpuUsage();
  let steps = 0;
  while (performance.now() - started < seconds * 1000) {
    const step = await runHistoryStep(deps, venue, { markets: marketsPerStep });
    if (!step.run.success) throw new Error(`${venue} history step failed: ${step.run.error}`);
    steps += 1;
    if (!step.outcome?.more) break;
  }
  const used = process.cpuUsage(cpu);
  const markets = { open: 0, closed: 0 };
  for (const market of ledger.byMarket.keys()) markets[info.get(market)?.isOpen ? "open" : "closed"] += 1;
  const segment: Segment = {
    name,
    seconds: (performance.now() - started) / 1000,
    steps,
    markets,
    requests: { ...ledger.byHost },
    cpuSeconds: (used.user + used.system) / 1e6,
    load: loadAverage(),
  };
  log(
    `  ${venue} ${name}: ${steps} steps, ${markets.open} open + ${markets.closed} closed markets in ${segment.seconds.toFixed(0)} s, requests ${JSON.stringify(segment.requests)}, load ${segment.load}`,
  );
  return { segment, ledger: { byMarket: ledger.byMarket, overhead: { ...ledger.overhead } } };
}

/** Adds a segment's per-market requests (and its share of the steps' overhead) to `into`. */
function accumulate(
  into: Record<MarketClass, { markets: Set<string>; requests: Record<string, number> }>,
  ledger: { byMarket: Map<string, Record<string, number>>; overhead: Record<string, number> },
  classOf: (market: string) => MarketClass,
): void {
  const total = ledger.byMarket.size;
  for (const [market, requests] of ledger.byMarket) {
    const target = into[classOf(market)];
    target.markets.add(market);
    for (const [host, count] of Object.entries(requests)) target.requests[host] = (target.requests[host] ?? 0) + count;
    for (const [host, count] of Object.entries(ledger.overhead))
      target.requests[host] = (target.requests[host] ?? 0) + count / total;
  }
}

const tallyOf = (x: { markets: Set<string>; requests: Record<string, number> }): RequestTally => ({
  markets: x.markets.size,
  requests: x.requests,
});

/** The markets of `markets` with at least one row in one of the venue's history tables. */
async function marketsWithPoints(warehouse: Warehouse, venue: Venue, markets: string[]): Promise<Set<string>> {
  const key = HISTORY_KEY[venue];
  const rows = await warehouse.query<{ market: string }>(
    sourceNamed(venue)
      .history.tables.map(
        ({ table }) => `SELECT DISTINCT ${key} AS market FROM ${table} WHERE ${key} IN {markets:Array(String)}`,
      )
      .join(" UNION DISTINCT "),
    { params: { markets } },
  );
  return new Set(rows.map((row) => row.market));
}

async function pointsPerMarket(warehouse: Warehouse, venue: Venue, markets: string[]): Promise<Record<string, number>> {
  const points: Record<string, number> = {};
  for (const { table } of sourceNamed(venue).history.tables) {
    const [row] = await warehouse.query<{ n: string }>(
      `SELECT count() AS n FROM ${table} WHERE ${HISTORY_KEY[venue]} IN {markets:Array(String)}`,
      { params: { markets } },
    );
    points[table] = markets.length > 0 ? Number(row?.n ?? 0) / markets.length : Number.NaN;
  }
  return points;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor(sorted.length / 2)] as number);
};

export async function runBackfillBench(
  options: { catalogSize: number; secondsPerVenue: number; now: number; marketsPerStep?: number },
  log: (line: string) => void,
): Promise<BackfillBenchResult> {
  const marketsPerStep = options.marketsPerStep ?? 20;
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-history-backfill-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 4 });
  const replay = await startReplayChild({ catalogSize: options.catalogSize, now: options.now });
  try {
    await migrateWarehouse(warehouse);
    const config = replayIngestConfig(replay);
    let clockMs = options.now;
    let ledger: RequestLedger | undefined;
    const deps: SyncDeps = {
      warehouse,
      logger: silentLogger,
      config,
      clock: () => new Date(clockMs),
      rateLimiters: new Map(),
      fetch: (input, init) => {
        ledger?.record(String(input));
        return globalThis.fetch(input, init);
      },
    };

    const setupStarted = performance.now();
    const snapshots = new Map<Venue, { pages: number; markets: number }>();
    for (const venue of ["polymarket", "kalshi"] as const) {
      const run = await runSync(deps, { source: venue });
      if (!run.success) throw new Error(`${venue} snapshot failed: ${run.error}`);
      snapshots.set(venue, { pages: run.pages, markets: run.markets_written });
      for (let step = await runBackfillStep(deps, venue, { pagesPerStep: 20 }); !step.done; ) {
        if (!step.run?.success) throw new Error(`${venue} backfill failed: ${step.run?.error}`);
        step = await runBackfillStep(deps, venue, { pagesPerStep: 20 });
      }
    }
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    log(
      `  setup (snapshots and backfills of ${options.catalogSize} markets per venue) in ${setupSeconds.toFixed(0)} s`,
    );

    const venues: VenueBackfill[] = [];
    for (const venue of ["polymarket", "kalshi"] as const) {
      clockMs = options.now;
      await replay.setNow(clockMs);
      const nowParam = { now: Math.floor(options.now / 1000) };
      const rows = await warehouse.query<{
        market: string;
        is_open: boolean | number;
        condition: string;
        tokens: string[];
        life: number;
      }>(MARKETS[venue], { params: nowParam });
      const info = new Map<string, MarketInfo>();
      const byUrlId = new Map<string, string>();
      for (const row of rows) {
        info.set(row.market, { isOpen: Boolean(row.is_open), life: Number(row.life) });
        if (row.condition) byUrlId.set(row.condition, row.market);
        for (const token of row.tokens) byUrlId.set(token, row.market);
      }
      const classOf = (market: string): MarketClass => (info.get(market)?.isOpen ? "open" : "closed");
      ledger = new RequestLedger(hostResolver(config), marketResolver(byUrlId));
      const initial = {
        open: { markets: new Set<string>(), requests: {} },
        closed: { markets: new Set<string>(), requests: {} },
      };
      const refreshed = {
        open: { markets: new Set<string>(), requests: {} },
        closed: { markets: new Set<string>(), requests: {} },
      };
      const segments: Segment[] = [];
      const segment = async (name: Segment["name"], share: number) => {
        const ran = await runSegment(
          name,
          venue,
          options.secondsPerVenue * share,
          deps,
          ledger as RequestLedger,
          info,
          marketsPerStep,
          log,
        );
        segments.push(ran.segment);
        return ran.ledger;
      };

      accumulate(initial, await segment("open first", 0.5), classOf);
      // Out of the way for the closed segment, and not due at the refresh either.
      await warehouse.command(
        `INSERT INTO internal.history_state (source, market, covered_until, done, points, updated_at)
         SELECT {source:String}, market, toDateTime({until:UInt32}), false, 0, fromUnixTimestamp64Milli({updated:Int64})
         FROM (${MARKETS[venue]}) WHERE is_open AND market NOT IN (
           SELECT market FROM internal.history_state WHERE source = {source:String})`,
        { params: { ...nowParam, source: venue, until: nowParam.now + 86_400, updated: options.now } },
      );
      accumulate(initial, await segment("closed", 0.3), classOf);
      clockMs = options.now + 2 * 60 * 60 * 1000;
      await replay.setNow(clockMs);
      const refresh = await segment("refresh", 0.2);
      // Closed markets reached in the refresh segment are first fetches too.
      const closedOnly = new Map([...refresh.byMarket].filter(([market]) => classOf(market) === "closed"));
      const openOnly = new Map([...refresh.byMarket].filter(([market]) => classOf(market) === "open"));
      accumulate(initial, { byMarket: closedOnly, overhead: {} }, classOf);
      accumulate(refreshed, { byMarket: openOnly, overhead: refresh.overhead }, classOf);
      const stored = await marketsWithPoints(warehouse, venue, [...openOnly.keys()]);
      const empty = { markets: new Set<string>(), requests: {} as Record<string, number> };
      for (const [market, requests] of openOnly) {
        if (stored.has(market)) continue;
        empty.markets.add(market);
        for (const [host, count] of Object.entries(requests))
          empty.requests[host] = (empty.requests[host] ?? 0) + count;
      }

      const fetched = (c: MarketClass) => [...initial[c].markets];
      const snapshot = snapshots.get(venue) ?? { pages: 0, markets: 0 };
      const historyHosts = sourceNamed(venue).history.hosts;
      venues.push({
        venue,
        hosts: historyHosts.map((host) => ({ name: host.name, perSecond: unitsPerSecond(host.rateLimit(config)) })),
        known: {
          open: [...info.values()].filter((m) => m.isOpen).length,
          closed: [...info.values()].filter((m) => !m.isOpen).length,
        },
        lifeDays: {
          open: median(fetched("open").map((m) => info.get(m)?.life ?? Number.NaN)),
          closed: median(fetched("closed").map((m) => info.get(m)?.life ?? Number.NaN)),
        },
        segments,
        initial: { open: tallyOf(initial.open), closed: tallyOf(initial.closed) },
        refresh: tallyOf(refreshed.open),
        refreshEmpty: tallyOf(empty),
        points: {
          open: await pointsPerMarket(warehouse, venue, fetched("open")),
          closed: await pointsPerMarket(warehouse, venue, fetched("closed")),
        },
        empty: {
          open: initial.open.markets.size - (await marketsWithPoints(warehouse, venue, fetched("open"))).size,
          closed: initial.closed.markets.size - (await marketsWithPoints(warehouse, venue, fetched("closed"))).size,
        },
        snapshot: { ...snapshot, sharesHost: historyHosts.some((host) => host.name === venue) },
      });
    }
    ledger = undefined;
    replay.close();
    const candles = await measureTable(warehouse, "kalshi.candles");
    const replayPrices = await measureTable(warehouse, "polymarket.prices");
    return {
      catalogSize: options.catalogSize,
      now: new Date(options.now).toISOString(),
      secondsPerVenue: options.secondsPerVenue,
      marketsPerStep,
      setupSeconds,
      venues,
      candles,
      replayPrices,
    };
  } finally {
    replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
