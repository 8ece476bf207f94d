/**
 * Kalshi's exchange-wide trade tape: `GET /markets/trades` without a ticker, every trade of
 * the exchange newest first, `min_ts`/`max_ts` and a cursor, up to 1,000 a page
 * (API_FORMATS §3, §4). About 2.5 M trades a day is 2,500 pages, where asking market by
 * market costs a request per market per refresh whether it traded or not.
 *
 * The tape is walked forward in spans (`../../feeds.ts`): each span from the second after
 * the last one reached up to the last whole second, paged back through its cursor. An empty
 * page with a cursor is not the end; a cursor that comes back unchanged is a venue that
 * would loop, so the walk starts again below the oldest trade it has seen, by `max_ts`
 * alone. Each page's trades are checked against what is stored before they are written,
 * so a repeated page (a resumed walk, a restarted one) adds nothing twice.
 *
 * The tape starts where it was first walked (`started`); trades before that come market
 * by market (`history.ts`), only up to that second.
 */
import type { Warehouse } from "@epicenter/warehouse";
import { openTape, type TapeOutcome, tapeStart } from "../../feeds";
import type { HistoryRun } from "../../source";
import { type KalshiTradeRow, mapTrades, tradeSecond, ZTradesPage } from "./history-values";

export const KALSHI_TAPE = { source: "kalshi", feed: "trades" } as const;
const PAGE_LIMIT = 1_000;

/** Where the tape starts (Unix seconds), or null before its first walk. */
export const kalshiTapeStart = (warehouse: Warehouse) => tapeStart(warehouse, KALSHI_TAPE);

/** Walks the tape forward by at most `maxPages` pages. */
export async function walkKalshiTape(run: HistoryRun, host: string, maxPages: number): Promise<TapeOutcome> {
  const { warehouse } = run;
  const kalshi = run.hosts[host] as HistoryRun["hosts"][string];
  const base = kalshi.baseUrl.replace(/\/$/, "");
  const lastSecond = Math.floor(run.now / 1000) - 1;
  const tape = await openTape(warehouse, KALSHI_TAPE, lastSecond, () => run.now);
  const { write, outcome } = tape;
  let state = tape.state;
  // Where the walk pages from: the span's end, or below the oldest trade seen after a loop.
  let top = state.windowTo;
  let oldestSeen = Number.POSITIVE_INFINITY;

  while (outcome.pages < maxPages) {
    if (state.windowTo <= state.reached) {
      // The last walk ended: the next span, written down before its first page.
      if (state.reached >= lastSecond) {
        outcome.caughtUp = true;
        break;
      }
      state = { ...state, windowFrom: state.reached + 1, windowTo: lastSecond, cursor: "" };
      await write(state);
      top = state.windowTo;
      oldestSeen = Number.POSITIVE_INFINITY;
    }
    const url = new URL(`${base}/markets/trades`);
    url.searchParams.set("min_ts", String(state.windowFrom));
    url.searchParams.set("max_ts", String(top));
    url.searchParams.set("limit", String(PAGE_LIMIT));
    if (state.cursor) url.searchParams.set("cursor", state.cursor);
    const page = await kalshi.fetchPage(url.toString(), ZTradesPage, run.signal);
    outcome.pages += 1;
    const mapped = mapTrades(page.trades ?? []);
    outcome.skipped += mapped.skipped;
    const fresh = await unstoredTrades(warehouse, mapped.rows);
    if (fresh.length > 0) await warehouse.insert("kalshi.trades", fresh);
    outcome.rows += fresh.length;
    for (const row of mapped.rows) oldestSeen = Math.min(oldestSeen, tradeSecond(row));

    const next = page.cursor ?? "";
    const counted = { pages: state.pages + 1, rows: state.rows + fresh.length };
    if (next === "") {
      state = { ...state, ...counted, cursor: "", reached: state.windowTo };
      outcome.reached = state.reached;
    } else if (next === state.cursor) {
      // The venue would serve this page forever: start again below the oldest trade seen
      // (its second again, for the trades beside it; those stored are left out).
      top = Number.isFinite(oldestSeen) && oldestSeen < top ? oldestSeen : top - 1;
      run.logger.warn(
        { url: url.toString(), top },
        "kalshi tape: the cursor came back unchanged; walking on by max_ts",
      );
      state = { ...state, ...counted, cursor: "" };
      if (top < state.windowFrom) {
        state = { ...state, reached: state.windowTo };
        outcome.reached = state.reached;
      }
    } else {
      state = { ...state, ...counted, cursor: next };
    }
    await write(state);
  }
  return outcome;
}

/**
 * `rows` less those already stored (a page fetched again, a trade the live stream brought),
 * each once, oldest first. A trade is known by its `trade_id`; the stream's copy is timed
 * to the whole second (the feed's `ts`), so the search starts at the oldest row's second.
 */
export async function unstoredTrades<Row extends KalshiTradeRow>(
  warehouse: Warehouse,
  rows: readonly Row[],
): Promise<Row[]> {
  if (rows.length === 0) return [];
  const unique = [...new Map(rows.map((row) => [row.trade_id, row])).values()];
  let oldest = unique[0] as Row;
  let newest = oldest;
  for (const row of unique) {
    if (row.created_time < oldest.created_time) oldest = row;
    if (row.created_time > newest.created_time) newest = row;
  }
  const found = await warehouse.query<{ trade_id: string }>(
    `SELECT trade_id FROM kalshi.trades
     WHERE ticker IN {tickers:Array(String)}
       AND created_time BETWEEN toDateTime64({oldest:String}, 6, 'UTC') AND toDateTime64({newest:String}, 6, 'UTC')
       AND trade_id IN {ids:Array(String)}`,
    {
      params: {
        tickers: [...new Set(unique.map((row) => row.ticker))],
        oldest: oldest.created_time.slice(0, 19),
        newest: newest.created_time,
        ids: unique.map((row) => row.trade_id),
      },
    },
  );
  const stored = new Set(found.map((row) => row.trade_id));
  return unique.filter((row) => !stored.has(row.trade_id)).sort((a, b) => a.created_time.localeCompare(b.created_time));
}
