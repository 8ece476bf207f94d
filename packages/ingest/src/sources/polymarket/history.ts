/**
 * Polymarket's history: each outcome token's price points from the CLOB's
 * `/prices-history` into `polymarket.prices`, and trades from the Data API's `/v2/trades`
 * into `polymarket.trades` (API_FORMATS §3, §4).
 *
 * The limits are kept by construction: a price request never spans more than 15 days
 * (16 or more is refused with 400), always with explicit `startTs`/`endTs` (the presets
 * and `interval=max` come back empty for resolved markets). Each token's path is hourly
 * (`fidelity=60`) up to its last days and every minute (`fidelity=1`) from there on; an
 * open market keeps its minutes as it goes. A point time is one row, whatever fidelity
 * brought it, so the two never cover the same time. Series that fit one window (an open
 * market's refresh, above all) go 20 tokens a request to `POST /batch-prices-history`,
 * counted on `/prices-history`'s limit.
 *
 * Trades come from the exchange-wide tape (`tape.ts`) from where it started. A market's
 * own trades are paged by cursor, newest first, once after the tape started (and until
 * then at each refresh), down to what is stored; what the tape already stored is left out.
 * Rows are keyed as `history-values.ts` says.
 */
import type { Warehouse } from "@epicenter/warehouse";
import { z } from "zod";
import {
  chooseTargets,
  eachConcurrently,
  finishStep,
  forEachMarket,
  isMarketFailure,
  marketFailure,
  minuteRange,
  RowSink,
  rangeToFetch,
  type Window,
} from "../../history";
import { windowUnder } from "../../http/rate-limiter";
import { streamedFrom } from "../../live";
import type { HistoryOutcome, HistoryRun, SourceHistory } from "../../source";
import { mapPricePoints, mapTrades, type PolymarketMarketRef, ZPricesHistory, ZTradesPage } from "./history-values";
import { TAPE_SETTLE_SECONDS, unstoredTrades, walkPolymarketTape, withoutStoredBy } from "./tape";

const CLOB = "polymarket-clob";
const DATA = "polymarket-data";
const MAX_PRICE_WINDOW_SECONDS = 15 * 86_400;
const TRADES_LIMIT = 500;
const CONCURRENCY = 8;
/** Tape pages a step walks at most: 100 pages are 50,000 fills, at 10 requests a second. */
const TAPE_PAGES_PER_STEP = 100;

/** `POST /batch-prices-history`: each asked token's points, by token id. */
const ZBatchPricesHistory = z.object({ history: z.record(z.string(), z.array(z.unknown()).nullish()) });
/** Tokens per `POST /batch-prices-history` (documented: at most 20). */
const BATCH_PRICE_TOKENS = 20;

/** One token's series still to fetch, and the window one request asks for. */
export interface PriceSeries {
  market: PolymarketMarketRef;
  token: string;
  fidelity: number;
  /** What the series still needs (points outside it are stored already). */
  range: Window;
  window: Window;
}
interface MarketRow {
  market: string;
  opened: number;
  closed_at: number | null;
  condition_id: string;
  tokens: string[];
  outcomes: string[];
}

const MARKETS = `
  SELECT id AS market, conditionId AS condition_id, clobTokenIds AS tokens, outcomes,
         toUnixTimestamp(coalesce(startDate, createdAt)) AS opened,
         if(closed, toUnixTimestamp(coalesce(closedTime, endDate, updatedAt)), NULL) AS closed_at,
         toUnixTimestamp(endDate) AS closes_at, volume24hr AS volume_day
  FROM polymarket.markets_latest FINAL
  WHERE length(clobTokenIds) > 0 AND coalesce(startDate, createdAt) IS NOT NULL`;

async function step(run: HistoryRun, limit: number): Promise<HistoryOutcome> {
  const { warehouse } = run;
  // The exchange-wide tape first: every listed market's recent trades in a few pages.
  const tape = await walkPolymarketTape(run, DATA, TAPE_PAGES_PER_STEP);
  const targets = await chooseTargets<MarketRow>(warehouse, "polymarket", MARKETS, {
    limit,
    refreshMs: run.refreshMs,
    now: run.now,
  });
  const ids = targets.map((target) => target.market);
  const stored = new Map<string, { oldest: number; newest: number }>();
  for (const row of await warehouse.query<{ key: string; oldest: number; newest: number }>(
    `SELECT concat(id, ' ', token_id, ' ', toString(fidelity_minutes)) AS key,
            toUnixTimestamp(min(ts)) AS oldest, toUnixTimestamp(max(ts)) AS newest
     FROM polymarket.prices WHERE id IN {ids:Array(String)} GROUP BY id, token_id, fidelity_minutes`,
    { params: { ids } },
  )) {
    stored.set(row.key, { oldest: Number(row.oldest), newest: Number(row.newest) });
  }
  // The exchange-wide tape has every listed market's trades from where it started; a
  // market's own walk runs until it has had one since then (`tape.ts`).
  const ownWalk = targets.filter((target) => target.coveredUntil === null || target.coveredUntil < tape.started);
  const lastTrade = new Map<string, number>();
  for (const row of await warehouse.query<{ id: string; newest: number }>(
    `SELECT id, toUnixTimestamp(max(ts)) AS newest FROM polymarket.trades WHERE id IN {ids:Array(String)} GROUP BY id`,
    { params: { ids } },
  )) {
    lastTrade.set(row.id, Number(row.newest));
  }

  const prices = new RowSink(warehouse, "polymarket.prices", run.batchRows);
  const trades = new RowSink(warehouse, "polymarket.trades", run.batchRows);
  const streamed = await streamedFrom(warehouse, "polymarket");
  const clob = run.hosts[CLOB] as HistoryRun["hosts"][string];
  const data = run.hosts[DATA] as HistoryRun["hosts"][string];
  let pages = 0;
  let skipped = 0;
  const written = new Map<string, number>();
  const failed = new Map<string, string>();

  const count = (id: string, n: number) => written.set(id, (written.get(id) ?? 0) + n);
  const refOf = (target: (typeof targets)[number]): PolymarketMarketRef => ({
    id: target.market,
    conditionId: target.condition_id,
    tokens: target.tokens,
    outcomes: target.outcomes,
  });

  // Each token's series still to fetch. One that fits a single window, on a grid of whole
  // days so tokens refreshed together share it, goes with up to 19 others in one
  // `POST /batch-prices-history`. A longer one (a market's first fetch) walks the grid of
  // 15-day windows from the epoch in time order, with up to 19 others of its fidelity that
  // start near it: one request a window for all of them (a year of hourly points costs a
  // twentieth of a request per token instead of 25), and each stores a prefix of its series.
  const long: PriceSeries[] = [];
  const batchable = new Map<string, PriceSeries[]>();
  for (const target of targets) {
    const market = refOf(target);
    for (const token of market.tokens) {
      // Minutes from the last days on (and from wherever they began), hours before that: a
      // point time is one row (the table's key), so the two series never overlap.
      const minutes = stored.get(`${market.id} ${token} 1`);
      const hours = stored.get(`${market.id} ${token} 60`);
      // Once begun, minutes go on from the newest one, however long ago: no gap between the two.
      const minute = minutes ? rangeToFetch(target, minutes.newest, run.now) : minuteRange(target, undefined, run.now);
      const minutesFrom = minutes?.oldest ?? minute?.from;
      const hour = rangeToFetch(target, hours?.newest, run.now);
      const series = [
        {
          fidelity: 60,
          range: hour && minutesFrom !== undefined ? { ...hour, to: Math.min(hour.to, minutesFrom - 1) } : hour,
        },
        { fidelity: 1, range: minute },
      ];
      for (const { fidelity, range } of series) {
        if (!range || range.from > range.to) continue;
        // Between the newest hourly point and the first minute there is room for another
        // hourly point only if an hour fits: an open market's refresh asks for minutes only.
        if (fidelity === 60 && hours && range.to - range.from < 59 * 60) continue;
        const aligned = { from: range.from - (range.from % 86_400), to: range.to };
        if (aligned.to - aligned.from < MAX_PRICE_WINDOW_SECONDS) {
          const key = `${aligned.from} ${aligned.to} ${fidelity}`;
          batchable.set(key, [...(batchable.get(key) ?? []), { market, token, fidelity, range, window: aligned }]);
        } else {
          long.push({ market, token, fidelity, range, window: range });
        }
      }
    }
  }
  const base = clob.baseUrl.replace(/\/$/, "");
  const store = async (series: PriceSeries, history: unknown[]) => {
    const mapped = mapPricePoints(series.market, series.token, series.fidelity, { history });
    skipped += mapped.skipped;
    const low = Math.max(series.range.from, series.window.from);
    const high = Math.min(series.range.to, series.window.to);
    const fresh = mapped.rows.filter((row) => row.ts >= low && row.ts <= high);
    count(series.market.id, fresh.length);
    await prices.add(fresh);
  };
  const fetchOne = async (series: PriceSeries) => {
    if (failed.has(series.market.id)) return;
    const url = new URL(`${base}/prices-history`);
    url.searchParams.set("market", series.token);
    url.searchParams.set("startTs", String(series.window.from));
    url.searchParams.set("endTs", String(series.window.to));
    url.searchParams.set("fidelity", String(series.fidelity));
    try {
      const body = await clob.fetchPage(url.toString(), ZPricesHistory, run.signal);
      pages += 1;
      await store(series, body.history);
    } catch (error) {
      if (!isMarketFailure(error)) throw error;
      failed.set(series.market.id, marketFailure(error));
    }
  };
  const fetchBatch = async (batch: PriceSeries[]) => {
    const [first] = batch as [PriceSeries];
    if (batch.length === 1) return fetchOne(first);
    let answer: z.output<typeof ZBatchPricesHistory>;
    try {
      answer = await clob.fetchPage(
        {
          url: `${base}/batch-prices-history`,
          // Each series keeps to its own window when stored (`store`).
          body: {
            markets: batch.map((series) => series.token),
            start_ts: Math.min(...batch.map((series) => series.window.from)),
            end_ts: Math.max(...batch.map((series) => series.window.to)),
            fidelity: first.fidelity,
          },
        },
        ZBatchPricesHistory,
        run.signal,
      );
    } catch (error) {
      // A batch the venue refuses is asked again token by token: one bad token fails its own market.
      if (!isMarketFailure(error)) throw error;
      for (const series of batch) await fetchOne(series);
      return;
    }
    pages += 1;
    for (const series of batch) await store(series, answer.history[series.token] ?? []);
  };
  const requests: Array<() => Promise<void>> = [];
  for (const group of batchable.values()) {
    for (let i = 0; i < group.length; i += BATCH_PRICE_TOKENS) {
      const batch = group.slice(i, i + BATCH_PRICE_TOKENS);
      requests.push(() => fetchBatch(batch));
    }
  }
  for (const cohort of cohortsOf(long)) {
    requests.push(async () => {
      for (const batch of gridWindows(cohort)) {
        const live = batch.filter((series) => !failed.has(series.market.id));
        if (live.length > 0) await fetchBatch(live);
      }
    });
  }
  await eachConcurrently(requests, CONCURRENCY, (request) => request());

  await forEachMarket(ownWalk, CONCURRENCY, failed, async (target) => {
    const market = refOf(target);
    if (failed.has(market.id) || !market.conditionId) return;
    // Newest first, down to the newest trade stored before the last walk (less the Data
    // API's indexing time, for fills it listed late); what the tape stored since is found
    // stored and left out.
    const stop =
      target.coveredUntil === null ? undefined : await newestTradeBy(warehouse, market.id, target.coveredUntil);
    let collected: unknown[] = [];
    let cursor: string | null = null;
    let cut = false;
    for (;;) {
      const url = new URL(`${data.baseUrl.replace(/\/$/, "")}/v2/trades`);
      url.searchParams.set("condition", market.conditionId);
      url.searchParams.set("limit", String(TRADES_LIMIT));
      if (cursor) url.searchParams.set("cursor", cursor);
      const page = await data.fetchPage(url.toString(), ZTradesPage, run.signal);
      pages += 1;
      collected.push(...page.trades);
      const reachedStored =
        stop !== undefined &&
        page.trades.some((trade) => Number((trade as { timestamp?: unknown }).timestamp) < stop - TAPE_SETTLE_SECONDS);
      const next = page.next_cursor ?? null;
      cut = reachedStored && next !== null && next !== cursor && page.has_more !== false;
      if (reachedStored || !next || next === cursor || page.has_more === false) break;
      cursor = next;
    }
    if (cut) {
      // The walk stopped before the end: the last page may end inside a second, whose fills
      // would be numbered apart from how the stored ones were (`history-values.ts`). That
      // second is older than the stop, so stored already: leave it out.
      const second = (trade: unknown) => Number((trade as { timestamp?: unknown }).timestamp);
      const oldest = Math.min(...collected.map(second));
      collected = collected.filter((trade) => second(trade) !== oldest);
    }
    const mapped = mapTrades(market, collected);
    skipped += mapped.skipped;
    const unstored = await unstoredTrades(warehouse, mapped.rows);
    // What the live stream stored already stays the stream's.
    const fresh =
      unstored.length > 0 && (unstored.at(-1)?.ts ?? 0) >= streamed
        ? await withoutStoredBy(warehouse, unstored, "stream")
        : unstored;
    count(market.id, fresh.length);
    for (const row of fresh) lastTrade.set(market.id, Math.max(lastTrade.get(market.id) ?? 0, row.ts));
    await trades.add(fresh);
  });
  const outcome = await finishStep(warehouse, "polymarket", {
    targets,
    limit,
    now: run.now,
    sinks: [prices, trades],
    written,
    failed,
    lastTrade,
    coverage: { table: "polymarket.coverage", key: "id" },
    pages,
    skipped,
  });
  return {
    ...outcome,
    pages: outcome.pages + tape.pages,
    skipped: outcome.skipped + tape.skipped,
    points: outcome.points + tape.rows,
    more: outcome.more || !tape.caughtUp,
  };
}

/**
 * The newest trade of `id` the REST walks stored at or before `until` (Unix seconds), if
 * any: the stream's say nothing of what the walks have reached.
 */
async function newestTradeBy(warehouse: Warehouse, id: string, until: number): Promise<number | undefined> {
  const [row] = await warehouse.query<{ newest: number }>(
    `SELECT toUnixTimestamp(max(ts)) AS newest FROM polymarket.trades
     WHERE id = {id:String} AND ts <= toDateTime({until:UInt32}, 'UTC') AND source = 'rest' HAVING count() > 0`,
    { params: { id, until } },
  );
  return row ? Number(row.newest) : undefined;
}

export const polymarketHistory: SourceHistory = {
  hosts: [
    // The CLOB's `/prices-history`: 1,000 requests per 10 s (API_FORMATS §4).
    { name: CLOB, rateLimit: () => windowUnder(1_000, 10_000), baseUrl: (config) => config.polymarket.clobUrl },
    // The Data API's `/trades`: 200 requests per 10 s, of the API's 1,000.
    { name: DATA, rateLimit: () => windowUnder(200, 10_000), baseUrl: (config) => config.polymarket.dataUrl },
  ],
  step,
  tables: [
    { table: "polymarket.prices", time: "ts" },
    { table: "polymarket.trades", time: "ts" },
  ],
  knownMarketsSql: `SELECT count() FROM (${MARKETS})`,
  marketsSql: MARKETS,
  // The tape is walked every two minutes, so a trade is stored within a few minutes of it.
  feedIntervalMs: 2 * 60_000,
};

/**
 * Long series in groups of up to `BATCH_PRICE_TOKENS` of one fidelity, those starting
 * earliest together, so a group's windows overlap most of their walk.
 */
function cohortsOf(series: readonly PriceSeries[]): PriceSeries[][] {
  const cohorts: PriceSeries[][] = [];
  for (const fidelity of new Set(series.map((one) => one.fidelity))) {
    const sorted = series
      .filter((one) => one.fidelity === fidelity)
      .sort((a, b) => a.range.from - b.range.from || a.token.localeCompare(b.token));
    for (let i = 0; i < sorted.length; i += BATCH_PRICE_TOKENS) cohorts.push(sorted.slice(i, i + BATCH_PRICE_TOKENS));
  }
  return cohorts;
}

/**
 * A cohort's requests in time order: one per window of the 15-day grid from the epoch that
 * any of its series reaches, each series cut to its part of the window (the request spans
 * the parts, never more than a window).
 */
export function gridWindows(cohort: readonly PriceSeries[]): PriceSeries[][] {
  const width = MAX_PRICE_WINDOW_SECONDS;
  const first = Math.floor(Math.min(...cohort.map((series) => series.range.from)) / width);
  const last = Math.floor(Math.max(...cohort.map((series) => series.range.to)) / width);
  const batches: PriceSeries[][] = [];
  for (let cell = first; cell <= last; cell += 1) {
    const from = cell * width;
    const to = from + width - 1;
    const batch = cohort
      .filter((series) => series.range.from <= to && series.range.to >= from)
      .map((series) => ({
        ...series,
        window: { from: Math.max(from, series.range.from), to: Math.min(to, series.range.to) },
      }));
    if (batch.length > 0) batches.push(batch);
  }
  return batches;
}
