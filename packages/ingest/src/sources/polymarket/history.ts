/**
 * Polymarket's history: each outcome token's price points from the CLOB's
 * `/prices-history` into `polymarket.prices`, and each market's trades from the Data API's
 * `/v2/trades` into `polymarket.trades` (API_FORMATS §3).
 *
 * The limits are kept by construction: a price request never spans more than 15 days
 * (16 or more is refused with 400), always with explicit `startTs`/`endTs` (the presets
 * and `interval=max` come back empty for resolved markets). Each token's path is hourly
 * (`fidelity=60`) up to its last days and every minute (`fidelity=1`) from there on; an
 * open market keeps its minutes as it goes. A point time is one row, whatever fidelity
 * brought it, so the two never cover the same time. Trades are paged by
 * cursor, newest first, until they reach what is stored. A trade is keyed by its
 * transaction hash and `trade_index`, its place among that transaction's fills ordered by
 * (token, side, price, size, wallet): the feed has no fill id, and fills of one
 * transaction share a second, so a market's walk always holds all of them.
 */
import { z } from "zod";
import { chooseTargets, finishStep, forEachMarket, minuteRange, RowSink, rangeToFetch, windowsOf } from "../../history";
import { windowUnder } from "../../http/rate-limiter";
import type { HistoryRun, SourceHistory } from "../../source";

const CLOB = "polymarket-clob";
const DATA = "polymarket-data";
const MAX_PRICE_WINDOW_SECONDS = 15 * 86_400;
const TRADES_LIMIT = 500;
const CONCURRENCY = 8;

export interface PolymarketPriceRow {
  id: string;
  token_id: string;
  outcome: string;
  ts: number;
  price: number;
  fidelity_minutes: number;
}

export interface PolymarketTradeRow {
  id: string;
  condition_id: string;
  transaction_hash: string;
  trade_index: number;
  token_id: string;
  outcome: string;
  outcome_index: number;
  ts: number;
  price: number;
  size: number;
  side: string;
  proxy_wallet: string;
}

const ZPricesHistory = z.object({ history: z.array(z.unknown()) });
const ZPoint = z.object({ t: z.number().int().positive(), p: z.number().min(0).max(1) });

/** The Data API's trades page: `{ trades, next_cursor, has_more }` (a bare list from v1). */
const ZTradesPage = z.union([
  z.object({
    trades: z.array(z.unknown()),
    next_cursor: z.string().nullish(),
    has_more: z.boolean().optional(),
  }),
  z.array(z.unknown()).transform((trades) => ({ trades, next_cursor: null, has_more: false })),
]);

const ZTrade = z.object({
  transactionHash: z.string().min(1),
  asset: z.string().min(1),
  conditionId: z.string().optional(),
  side: z.string().default(""),
  size: z.coerce.number(),
  price: z.coerce.number().min(0).max(1),
  timestamp: z.coerce.number().int().positive(),
  outcome: z.string().default(""),
  outcomeIndex: z.coerce.number().int().min(0).default(0),
  proxyWallet: z.string().default(""),
});

export interface PolymarketMarketRef {
  id: string;
  conditionId: string;
  tokens: readonly string[];
  outcomes: readonly string[];
}

/** A `/prices-history` answer as rows; points that are not a time and a 0–1 price are counted out. */
export function mapPricePoints(
  market: PolymarketMarketRef,
  token: string,
  fidelityMinutes: number,
  body: unknown,
): { rows: PolymarketPriceRow[]; skipped: number } {
  const { history } = ZPricesHistory.parse(body);
  const index = market.tokens.indexOf(token);
  const outcome = market.outcomes[index] ?? "";
  const rows: PolymarketPriceRow[] = [];
  let skipped = 0;
  for (const item of history) {
    const point = ZPoint.safeParse(item);
    if (!point.success) {
      skipped += 1;
      continue;
    }
    rows.push({
      id: market.id,
      token_id: token,
      outcome,
      ts: point.data.t,
      price: point.data.p,
      fidelity_minutes: fidelityMinutes,
    });
  }
  return { rows, skipped };
}

/** Trades of one market as rows, each fill numbered within its transaction (see the header). */
export function mapTrades(
  market: PolymarketMarketRef,
  trades: readonly unknown[],
): {
  rows: PolymarketTradeRow[];
  skipped: number;
} {
  const parsed: Array<z.infer<typeof ZTrade>> = [];
  let skipped = 0;
  for (const item of trades) {
    const trade = ZTrade.safeParse(item);
    if (trade.success) parsed.push(trade.data);
    else skipped += 1;
  }
  parsed.sort(
    (a, b) =>
      a.transactionHash.localeCompare(b.transactionHash) ||
      a.asset.localeCompare(b.asset) ||
      a.side.localeCompare(b.side) ||
      a.price - b.price ||
      a.size - b.size ||
      a.proxyWallet.localeCompare(b.proxyWallet),
  );
  const rows: PolymarketTradeRow[] = [];
  let index = 0;
  parsed.forEach((trade, i) => {
    index = i > 0 && parsed[i - 1]?.transactionHash === trade.transactionHash ? index + 1 : 0;
    rows.push({
      id: market.id,
      condition_id: trade.conditionId ?? market.conditionId,
      transaction_hash: trade.transactionHash,
      trade_index: index,
      token_id: trade.asset,
      outcome: trade.outcome || (market.outcomes[market.tokens.indexOf(trade.asset)] ?? ""),
      outcome_index: trade.outcomeIndex,
      ts: trade.timestamp,
      price: trade.price,
      size: trade.size,
      side: trade.side,
      proxy_wallet: trade.proxyWallet,
    });
  });
  return { rows, skipped };
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

async function step(run: HistoryRun, limit: number) {
  const { warehouse } = run;
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
  const newestTrade = new Map<string, { ts: number; keys: Set<string> }>();
  for (const row of await warehouse.query<{ id: string; ts: number; keys: string[] }>(
    `SELECT id, toUnixTimestamp(ts) AS ts, groupArray(concat(transaction_hash, ':', toString(trade_index))) AS keys
     FROM polymarket.trades
     WHERE (id, ts) IN (SELECT id, max(ts) FROM polymarket.trades WHERE id IN {ids:Array(String)} GROUP BY id)
     GROUP BY id, ts`,
    { params: { ids } },
  )) {
    newestTrade.set(row.id, { ts: Number(row.ts), keys: new Set(row.keys) });
  }
  const lastTrade = new Map([...newestTrade].map(([id, { ts }]) => [id, ts]));

  const prices = new RowSink(warehouse, "polymarket.prices", run.batchRows);
  const trades = new RowSink(warehouse, "polymarket.trades", run.batchRows);
  const clob = run.hosts[CLOB] as HistoryRun["hosts"][string];
  const data = run.hosts[DATA] as HistoryRun["hosts"][string];
  let pages = 0;
  let skipped = 0;
  const written = new Map<string, number>();
  const failed = new Map<string, string>();

  await forEachMarket(targets, CONCURRENCY, failed, async (target) => {
    const market: PolymarketMarketRef = {
      id: target.market,
      conditionId: target.condition_id,
      tokens: target.tokens,
      outcomes: target.outcomes,
    };
    let points = 0;
    // What a failed market stored before failing stays, and is counted.
    try {
      for (const token of market.tokens) {
        // Minutes from the last days on (and from wherever they began), hours before that: a
        // point time is one row (the table's key), so the two series never overlap.
        const minutes = stored.get(`${market.id} ${token} 1`);
        const hours = stored.get(`${market.id} ${token} 60`);
        // Once begun, minutes go on from the newest one, however long ago: no gap between the two.
        const minute = minutes
          ? rangeToFetch(target, minutes.newest, run.now)
          : minuteRange(target, undefined, run.now);
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
          for (const window of windowsOf(range.from, range.to, MAX_PRICE_WINDOW_SECONDS)) {
            const url = new URL(`${clob.baseUrl.replace(/\/$/, "")}/prices-history`);
            url.searchParams.set("market", token);
            url.searchParams.set("startTs", String(window.from));
            url.searchParams.set("endTs", String(window.to));
            url.searchParams.set("fidelity", String(fidelity));
            const body = await clob.fetchPage(url.toString(), ZPricesHistory, run.signal);
            pages += 1;
            const mapped = mapPricePoints(market, token, fidelity, body);
            skipped += mapped.skipped;
            const fresh = mapped.rows.filter((row) => row.ts >= window.from && row.ts <= window.to);
            points += fresh.length;
            await prices.add(fresh);
          }
        }
      }
      if (market.conditionId) {
        const stored = newestTrade.get(market.id);
        const collected: unknown[] = [];
        let cursor: string | null = null;
        for (;;) {
          const url = new URL(`${data.baseUrl.replace(/\/$/, "")}/v2/trades`);
          url.searchParams.set("condition", market.conditionId);
          url.searchParams.set("limit", String(TRADES_LIMIT));
          if (cursor) url.searchParams.set("cursor", cursor);
          const page = await data.fetchPage(url.toString(), ZTradesPage, run.signal);
          pages += 1;
          collected.push(...page.trades);
          const reachedStored =
            stored !== undefined &&
            page.trades.some((trade) => Number((trade as { timestamp?: unknown }).timestamp) < stored.ts);
          const next = page.next_cursor ?? null;
          if (reachedStored || !next || next === cursor || page.has_more === false) break;
          cursor = next;
        }
        const mapped = mapTrades(market, collected);
        skipped += mapped.skipped;
        const fresh = mapped.rows.filter(
          (row) =>
            stored === undefined ||
            row.ts > stored.ts ||
            (row.ts === stored.ts && !stored.keys.has(`${row.transaction_hash}:${row.trade_index}`)),
        );
        points += fresh.length;
        for (const row of fresh) lastTrade.set(market.id, Math.max(lastTrade.get(market.id) ?? 0, row.ts));
        await trades.add(fresh);
      }
    } finally {
      written.set(market.id, points);
    }
  });
  return finishStep(warehouse, "polymarket", {
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
};
