/**
 * Kalshi's history: each market's candles (hourly over its life, one-minute over its last
 * days) into `kalshi.candles`, and its trades into `kalshi.trades` (API_FORMATS §3).
 *
 * The limits are kept by construction, never by catching a refusal: a candle request spans
 * at most 4,800 periods of its interval (5,000 is the cap, judged on the requested range,
 * not the data), only intervals 1, 60 and 1440 exist, and a batch request
 * (`/markets/candlesticks`) carries at most 100 tickers and 10,000 candles in all, again
 * judged on the range, and no more tickers than Kalshi's token bucket bills at once (each
 * ticker is billed as a request). Markets settled before `/historical/cutoff` are read
 * from `/historical/markets/{ticker}/candlesticks`. A step first walks the exchange-wide
 * trade tape (`tape.ts`); a market's own trades are asked for only before the tape's
 * start: from `/historical/trades` before the trade cutoff and `/markets/trades` after it,
 * both tiers when a range straddles it, deduplicated on `trade_id` (the tiers overlap by
 * weeks). A trade page is followed by
 * its cursor until the cursor is empty: an empty page with a cursor is not the end.
 *
 * One candle, three shapes (live `*_dollars`/`*_fp` text, the historical tier's unsuffixed
 * text, legacy integer cents and counts): all become dollars and contracts. A period
 * without a trade keeps NULL trade prices and its `price_previous`; forward-fill with
 * `last_value(price_close) OVER (PARTITION BY ticker, period_minutes ORDER BY end_period_ts)`
 * or `coalesce(price_close, price_previous)`. Only periods that have ended are stored.
 */
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
  windowsOf,
} from "../../history";
import { streamedFrom } from "../../live";
import type { HistoryOutcome, HistoryRun, SourceHistory } from "../../source";
import { zTimestamp } from "../../upstream-values";
import { kalshiRateLimit } from "./client";
import { type KalshiTradeRow, mapCandles, mapTrades, tradeSecond, ZTradesPage } from "./history-values";
import { unstoredTrades, walkKalshiTape } from "./tape";

const HOST = "kalshi";
const MAX_PERIODS = 4_800;
const BATCH_TICKERS = 100;
const BATCH_CANDLES = 10_000;
const TRADES_LIMIT = 1_000;
const CONCURRENCY = 4;
const PERIODS = [60, 1] as const;
/** Tape pages per step: 100,000 trades, about an hour of a busy exchange. */
const TAPE_PAGES_PER_STEP = 100;

const ZCandlesPage = z.object({ candlesticks: z.array(z.unknown()).nullish() });
const ZBatchCandlesPage = z.object({
  markets: z.array(z.object({ market_ticker: z.string(), candlesticks: z.array(z.unknown()).nullish() })),
});
const ZCutoff = z.object({ market_settled_ts: zTimestamp, trades_created_ts: zTimestamp.optional() });

interface MarketRow {
  market: string;
  opened: number;
  closed_at: number | null;
}

const OPEN_STATUSES = "('initialized', 'inactive', 'active', 'unopened', 'open', 'paused')";
const MARKETS = `
  SELECT ticker AS market,
         toUnixTimestamp(coalesce(open_time, created_time)) AS opened,
         if(status IN ${OPEN_STATUSES}, NULL, toUnixTimestamp(coalesce(close_time, settlement_ts, updated_time))) AS closed_at,
         -- The expected end, not close_time: that is often a backstop months later.
         toUnixTimestamp(coalesce(expected_expiration_time, close_time)) AS closes_at,
         volume_24h AS volume_day
  FROM kalshi.markets_latest FINAL
  WHERE coalesce(open_time, created_time) IS NOT NULL`;

/** One candle request: one window of one interval, for one or (batched) many markets. */
interface CandleRequest {
  historical: boolean;
  tickers: string[];
  window: Window;
  period: number;
}

/**
 * The batch endpoint's tickers per request: tickers × periods under its cap, and no more
 * tickers than the limiter can bill at once (each is billed as a request).
 */
export function batchSize(window: Window, period: number, maxCost: number = BATCH_TICKERS): number {
  const periods = Math.ceil((window.to - window.from + 1) / (period * 60));
  return Math.max(1, Math.min(BATCH_TICKERS, Math.floor(maxCost), Math.floor(BATCH_CANDLES / periods)));
}

function candleUrl(baseUrl: string, request: CandleRequest): string {
  const base = baseUrl.replace(/\/$/, "");
  const url = request.historical
    ? new URL(`${base}/historical/markets/${encodeURIComponent(request.tickers[0] as string)}/candlesticks`)
    : new URL(`${base}/markets/candlesticks`);
  if (!request.historical) url.searchParams.set("market_tickers", request.tickers.join(","));
  url.searchParams.set("start_ts", String(request.window.from));
  url.searchParams.set("end_ts", String(request.window.to));
  url.searchParams.set("period_interval", String(request.period));
  return url.toString();
}

async function step(run: HistoryRun, limit: number): Promise<HistoryOutcome> {
  const { warehouse } = run;
  // The exchange-wide tape first: every market's recent trades in a few pages.
  const tape = await walkKalshiTape(run, HOST, TAPE_PAGES_PER_STEP);
  const withTape = (outcome: HistoryOutcome): HistoryOutcome => ({
    ...outcome,
    pages: outcome.pages + tape.pages,
    skipped: outcome.skipped + tape.skipped,
    points: outcome.points + tape.rows,
    more: outcome.more || !tape.caughtUp,
  });
  const kalshi = run.hosts[HOST] as HistoryRun["hosts"][string];
  const base = kalshi.baseUrl.replace(/\/$/, "");
  const nowSeconds = Math.floor(run.now / 1000);
  const targets = await chooseTargets<MarketRow>(warehouse, "kalshi", MARKETS, {
    limit,
    refreshMs: run.refreshMs,
    now: run.now,
  });
  if (targets.length === 0) return withTape({ pages: 0, skipped: 0, markets: 0, failed: 0, points: 0, more: false });
  const tickers = targets.map((target) => target.market);
  const cutoff = await kalshi.fetchPage(`${base}/historical/cutoff`, ZCutoff, run.signal);
  let pages = 1;
  let skipped = 0;
  const marketCutoff = (cutoff.market_settled_ts ?? 0) / 1000;
  const tradeCutoff = (cutoff.trades_created_ts ?? cutoff.market_settled_ts ?? 0) / 1000;

  const newestCandle = new Map<string, number>();
  for (const row of await warehouse.query<{ key: string; newest: number }>(
    `SELECT concat(ticker, ' ', toString(period_minutes)) AS key, toUnixTimestamp(max(end_period_ts)) AS newest
     FROM kalshi.candles WHERE ticker IN {tickers:Array(String)} GROUP BY ticker, period_minutes`,
    { params: { tickers } },
  )) {
    newestCandle.set(row.key, Number(row.newest));
  }
  // A market's own walk resumes after its newest trade from before the tape started: the
  // tape may already hold its later ones, and they say nothing of what came before. Nor do
  // the live stream's: a walk resumed after them would leave the stream's gaps unhealed.
  const newestTrade = new Map<string, { second: number; ids: Set<string> }>();
  for (const row of await warehouse.query<{ ticker: string; second: number; ids: string[] }>(
    `SELECT ticker, toUnixTimestamp(toStartOfSecond(created_time)) AS second, groupArray(trade_id) AS ids
     FROM kalshi.trades
     WHERE (ticker, toStartOfSecond(created_time)) IN (
       SELECT ticker, toStartOfSecond(max(created_time)) FROM kalshi.trades
       WHERE ticker IN {tickers:Array(String)} AND created_time < toDateTime64({started:UInt32}, 6, 'UTC')
         AND source = 'rest'
       GROUP BY ticker)
     GROUP BY ticker, second`,
    { params: { tickers, started: tape.started } },
  )) {
    newestTrade.set(row.ticker, { second: Number(row.second), ids: new Set(row.ids) });
  }
  // From the live stream's first session on, a fetched trade may be stored already, by the stream.
  const streamed = await streamedFrom(warehouse, "kalshi");
  const lastTrade = new Map<string, number>();
  for (const row of await warehouse.query<{ ticker: string; second: number }>(
    `SELECT ticker, toUnixTimestamp(max(created_time)) AS second FROM kalshi.trades
     WHERE ticker IN {tickers:Array(String)} GROUP BY ticker`,
    { params: { tickers } },
  )) {
    lastTrade.set(row.ticker, Number(row.second));
  }

  // Each (market, interval) series: the windows it still needs, oldest first. A series of
  // one live window can share a batch request with others asking the same window; a longer
  // one is fetched window after window, so what is stored is always a prefix of it.
  const sequential: CandleRequest[][] = [];
  const batchable = new Map<string, CandleRequest>();
  const fromOf = new Map<string, number>();
  for (const target of targets) {
    const historical = target.closedAt !== null && target.closedAt < marketCutoff;
    for (const period of PERIODS) {
      const newest = newestCandle.get(`${target.market} ${period}`);
      const range = period === 60 ? rangeToFetch(target, newest, run.now) : minuteRange(target, newest, run.now);
      if (!range) continue;
      fromOf.set(`${target.market} ${period}`, range.from);
      const periodSeconds = period * 60;
      // Live windows start on a day boundary so that markets refreshed together share one.
      const maxSeconds = MAX_PERIODS * periodSeconds - (historical ? 0 : 86_400);
      const start = historical ? range.from : range.from - (range.from % 86_400);
      const windows = windowsOf(start, range.to, maxSeconds);
      if (windows.length === 1 && !historical) {
        const window = windows[0] as Window;
        const key = `${window.from} ${window.to} ${period}`;
        const batch = batchable.get(key) ?? { historical: false, tickers: [], window, period };
        batch.tickers.push(target.market);
        batchable.set(key, batch);
      } else {
        sequential.push(windows.map((window) => ({ historical, tickers: [target.market], window, period })));
      }
    }
  }
  for (const batch of batchable.values()) {
    const size = batchSize(batch.window, batch.period, kalshi.maxCost);
    for (let i = 0; i < batch.tickers.length; i += size) {
      sequential.push([{ ...batch, tickers: batch.tickers.slice(i, i + size) }]);
    }
  }

  const candles = new RowSink(warehouse, "kalshi.candles", run.batchRows);
  const trades = new RowSink(warehouse, "kalshi.trades", run.batchRows);
  const points = new Map<string, number>();
  const count = (ticker: string, n: number) => points.set(ticker, (points.get(ticker) ?? 0) + n);

  const failed = new Map<string, string>();
  const fetchCandles = async (request: CandleRequest) => {
    const url = candleUrl(base, request);
    const answers = request.historical
      ? [
          {
            market_ticker: request.tickers[0] as string,
            candlesticks: (await kalshi.fetchPage(url, ZCandlesPage, run.signal)).candlesticks,
          },
        ]
      : (await kalshi.fetchPage(url, ZBatchCandlesPage, run.signal, request.tickers.length)).markets;
    pages += 1;
    return answers;
  };
  // A series' windows in order; a batch the venue refuses is asked again ticker by ticker,
  // so one delisted ticker fails its own market only.
  await eachConcurrently(sequential, CONCURRENCY, async (requests) => {
    for (const request of requests) {
      let answers: Awaited<ReturnType<typeof fetchCandles>>;
      try {
        answers = await fetchCandles(request);
      } catch (error) {
        if (!isMarketFailure(error)) throw error;
        if (request.tickers.length === 1) {
          failed.set(request.tickers[0] as string, marketFailure(error));
          return;
        }
        answers = [];
        for (const ticker of request.tickers) {
          try {
            answers.push(...(await fetchCandles({ ...request, tickers: [ticker] })));
          } catch (error) {
            if (!isMarketFailure(error)) throw error;
            failed.set(ticker, marketFailure(error));
          }
        }
      }
      for (const answer of answers) {
        if (!request.tickers.includes(answer.market_ticker)) continue;
        const mapped = mapCandles(answer.market_ticker, request.period, answer.candlesticks ?? []);
        skipped += mapped.skipped;
        const from = fromOf.get(`${answer.market_ticker} ${request.period}`) ?? 0;
        // Each period end belongs to one window; a period still running is left for later.
        const low = Math.max(from, request.window.from);
        const high = Math.min(request.window.to, nowSeconds);
        const fresh = mapped.rows.filter((row) => row.end_period_ts >= low && row.end_period_ts <= high);
        count(answer.market_ticker, fresh.length);
        await candles.add(fresh);
      }
    }
  });

  await forEachMarket(targets, CONCURRENCY, failed, async (target) => {
    if (failed.has(target.market)) return;
    const stored = newestTrade.get(target.market);
    const whole = rangeToFetch(target, stored?.second === undefined ? undefined : stored.second - 1, run.now);
    // From where the tape starts, the tape has them.
    const range = whole && { ...whole, to: Math.min(whole.to, tape.started - 1) };
    if (!range || range.from > range.to) return;
    const tiers = [
      ...(range.from < tradeCutoff ? ["/historical/trades"] : []),
      ...(range.to >= tradeCutoff ? ["/markets/trades"] : []),
    ];
    const byId = new Map<string, KalshiTradeRow>();
    for (const tier of tiers) {
      let cursor: string | null = null;
      for (;;) {
        const url = new URL(`${base}${tier}`);
        url.searchParams.set("ticker", target.market);
        url.searchParams.set("min_ts", String(range.from));
        url.searchParams.set("max_ts", String(range.to));
        url.searchParams.set("limit", String(TRADES_LIMIT));
        if (cursor) url.searchParams.set("cursor", cursor);
        const page = await kalshi.fetchPage(url.toString(), ZTradesPage, run.signal);
        pages += 1;
        const mapped = mapTrades(page.trades ?? []);
        skipped += mapped.skipped;
        for (const row of mapped.rows) if (row.ticker === target.market) byId.set(row.trade_id, row);
        const next = page.cursor ?? "";
        if (next === "" || next === cursor) break;
        cursor = next;
      }
    }
    const fetched = [...byId.values()].filter((row) => !stored?.ids.has(row.trade_id));
    const fresh =
      range.to >= streamed
        ? await unstoredTrades(warehouse, fetched)
        : fetched.sort((a, b) => a.created_time.localeCompare(b.created_time));
    const newest = fresh.at(-1);
    if (newest) lastTrade.set(target.market, Math.max(lastTrade.get(target.market) ?? 0, tradeSecond(newest)));
    count(target.market, fresh.length);
    await trades.add(fresh);
  });
  const outcome = await finishStep(warehouse, "kalshi", {
    targets,
    limit,
    now: run.now,
    sinks: [candles, trades],
    written: points,
    failed,
    lastTrade,
    coverage: { table: "kalshi.coverage", key: "ticker" },
    pages,
    skipped,
  });
  return withTape(outcome);
}

export const kalshiHistory: SourceHistory = {
  // The snapshot's own host and limiter: together they stay under the one limit.
  hosts: [{ name: HOST, rateLimit: kalshiRateLimit, baseUrl: (config) => config.kalshi.apiUrl }],
  step,
  tables: [
    { table: "kalshi.candles", time: "end_period_ts" },
    { table: "kalshi.trades", time: "created_time" },
  ],
  knownMarketsSql: `SELECT count() FROM (${MARKETS})`,
  marketsSql: MARKETS,
  // The tape is walked every two minutes, so a trade is stored within a few minutes of it.
  feedIntervalMs: 2 * 60_000,
};
