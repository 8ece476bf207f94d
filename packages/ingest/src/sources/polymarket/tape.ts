/**
 * Polymarket's exchange-wide trade tape: the Data API's `GET /v2/trades` without a market,
 * every fill of the exchange newest first, a keyset cursor and nothing else (no time
 * bounds), covering the current and the previous month (API_FORMATS §4). Asked market by
 * market, a refresh costs a request per market whether it traded or not.
 *
 * The tape is walked forward in spans (`../../feeds.ts`): a span runs from the second
 * after the last one reached up to a second far enough behind the clock for the Data
 * API, which indexes fills from the chain, to have them all. Each walk pages down from
 * the top of the tape: fills newer than the span are left for the next one, and the walk
 * ends at the first fill older than the span.
 *
 * The fills of one transaction share a second and are numbered together
 * (`history-values.ts`), and a page may end inside a second. So each page's oldest second
 * is held back and written with the next page, and the cursor written down is the one of
 * the page where the held second began: a walk killed anywhere fetches that page again,
 * finds what it wrote stored, and numbers the held second whole.
 *
 * A fill the live stream stored already (`live.ts`) is left out (`withoutStoredBy`): the
 * stream's copy stays, so each trade is stored once whichever path brought it first.
 *
 * Fills are keyed by market id, found from the condition id in `markets_latest`. A
 * market the archive has not listed yet has its fills on the tape skipped; its own walk
 * (`history.ts`) fetches them, up to an hour after it was first listed.
 */
import type { Warehouse } from "@epicenter/warehouse";
import type { z } from "zod";
import { openTape, type TapeOutcome, tapeStart } from "../../feeds";
import { streamedFrom } from "../../live";
import type { HistoryRun } from "../../source";
import { mapTrades, type PolymarketTradeRow, ZTrade, ZTradesPage } from "./history-values";

export const POLYMARKET_TAPE = { source: "polymarket", feed: "trades" } as const;
const PAGE_LIMIT = 500;
/** How far behind the clock a span ends: the Data API's indexing of the chain's fills. */
export const TAPE_SETTLE_SECONDS = 60;

type Fill = z.output<typeof ZTrade>;

interface Listed {
  id: string;
  tokens: string[];
  outcomes: string[];
}

/** Walks the tape forward by at most `maxPages` pages. */
export async function walkPolymarketTape(run: HistoryRun, host: string, maxPages: number): Promise<TapeOutcome> {
  const { warehouse } = run;
  const data = run.hosts[host] as HistoryRun["hosts"][string];
  const base = data.baseUrl.replace(/\/$/, "");
  const lastSecond = Math.floor(run.now / 1000) - TAPE_SETTLE_SECONDS;
  const tape = await openTape(warehouse, POLYMARKET_TAPE, lastSecond, () => run.now);
  const { write, outcome } = tape;
  let state = tape.state;
  const listed = new Map<string, Listed | null>();
  const streamed = await streamedFrom(warehouse, "polymarket");
  let unlisted = 0;
  // The page to fetch next, and the held second: its fills, and the cursor of the page it began on.
  let pageCursor = state.cursor;
  let held: Fill[] = [];
  let heldFrom = state.cursor;

  while (outcome.pages < maxPages) {
    if (state.windowTo <= state.reached) {
      // The last walk ended: the next span, written down before its first page.
      if (state.reached >= lastSecond) {
        outcome.caughtUp = true;
        break;
      }
      state = { ...state, windowFrom: state.reached + 1, windowTo: lastSecond, cursor: "" };
      await write(state);
      pageCursor = "";
      held = [];
    }
    const url = new URL(`${base}/v2/trades`);
    url.searchParams.set("limit", String(PAGE_LIMIT));
    if (pageCursor) url.searchParams.set("cursor", pageCursor);
    const page = await data.fetchPage(url.toString(), ZTradesPage, run.signal);
    outcome.pages += 1;
    const fills: Fill[] = [];
    for (const item of page.trades) {
      const fill = ZTrade.safeParse(item);
      if (fill.success) fills.push(fill.data);
      else outcome.skipped += 1;
    }
    const next = page.next_cursor ?? "";
    if (next !== "" && next === pageCursor) {
      throw new Error(`polymarket tape: the cursor came back unchanged at ${url}; the walk stops here until next time`);
    }
    const oldest = fills.reduce((low, fill) => Math.min(low, fill.timestamp), Number.POSITIVE_INFINITY);
    const ended = next === "" || page.has_more === false || oldest < state.windowFrom;
    if (ended && oldest >= state.windowFrom && state.windowFrom < tapeReach(run.now)) {
      run.logger.warn(
        { from: state.windowFrom, oldest },
        "polymarket tape: the tape ends above the span's start; trades between are missing",
      );
    }
    const inSpan = [
      ...held,
      ...fills.filter((fill) => fill.timestamp >= state.windowFrom && fill.timestamp <= state.windowTo),
    ];
    // The page's oldest second may go on in the next page: held back, unless the walk ends here.
    const holdSecond = ended ? Number.NEGATIVE_INFINITY : oldest;
    const ready = inSpan.filter((fill) => fill.timestamp > holdSecond);
    const nextHeld = inSpan.filter((fill) => fill.timestamp <= holdSecond);
    heldFrom =
      nextHeld.length === 0 ? next : held.length > 0 && held[0]?.timestamp === holdSecond ? heldFrom : pageCursor;
    held = nextHeld;

    const rows = await mapListed(warehouse, ready, listed);
    unlisted += rows.unlisted;
    const unstored = await unstoredTrades(warehouse, rows.rows);
    // What the live stream stored already stays the stream's.
    const fresh =
      unstored.length > 0 && (unstored.at(-1)?.ts ?? 0) >= streamed
        ? await withoutStoredBy(warehouse, unstored, "stream")
        : unstored;
    if (fresh.length > 0) await warehouse.insert("polymarket.trades", fresh);
    outcome.rows += fresh.length;
    const counted = { pages: state.pages + 1, rows: state.rows + fresh.length };
    state = ended
      ? { ...state, ...counted, cursor: "", reached: state.windowTo }
      : { ...state, ...counted, cursor: heldFrom };
    if (ended) outcome.reached = state.reached;
    await write(state);
    pageCursor = next;
  }
  if (unlisted > 0) {
    run.logger.info({ fills: unlisted }, "polymarket tape: fills of markets not listed yet, left to their own walk");
  }
  return outcome;
}

/** The oldest second the tape holds: the first of the previous month, UTC. */
function tapeReach(now: number): number {
  const today = new Date(now);
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1) / 1000;
}

/** Where the tape starts (Unix seconds), or null before its first walk. */
export const polymarketTapeStart = (warehouse: Warehouse) => tapeStart(warehouse, POLYMARKET_TAPE);

/** `fills` as rows of the markets they belong to, numbered per market; fills of unlisted markets counted out. */
async function mapListed(
  warehouse: Warehouse,
  fills: readonly Fill[],
  listed: Map<string, Listed | null>,
): Promise<{ rows: PolymarketTradeRow[]; unlisted: number }> {
  const byCondition = new Map<string, Fill[]>();
  for (const fill of fills) {
    const condition = fill.conditionId ?? "";
    byCondition.set(condition, [...(byCondition.get(condition) ?? []), fill]);
  }
  const unknown = [...byCondition.keys()].filter((condition) => !listed.has(condition));
  if (unknown.length > 0) {
    for (const row of await warehouse.query<{ condition: string; id: string; tokens: string[]; outcomes: string[] }>(
      `SELECT conditionId AS condition, id, clobTokenIds AS tokens, outcomes
       FROM polymarket.markets_latest FINAL WHERE conditionId IN {conditions:Array(String)}`,
      { params: { conditions: unknown } },
    )) {
      listed.set(row.condition, { id: row.id, tokens: row.tokens, outcomes: row.outcomes });
    }
    for (const condition of unknown) if (!listed.has(condition)) listed.set(condition, null);
  }
  const rows: PolymarketTradeRow[] = [];
  let unlisted = 0;
  for (const [condition, group] of byCondition) {
    const market = listed.get(condition);
    if (!market) {
      unlisted += group.length;
      continue;
    }
    rows.push(...mapTrades({ ...market, conditionId: condition }, group).rows);
  }
  return { rows, unlisted };
}

/** `rows` less those already stored (a page fetched again, a market's walk over the tape's span), oldest first. */
export async function unstoredTrades(
  warehouse: Warehouse,
  rows: readonly PolymarketTradeRow[],
): Promise<PolymarketTradeRow[]> {
  if (rows.length === 0) return [];
  const key = (row: { id: string; transaction_hash: string; trade_index: number }) =>
    `${row.id} ${row.transaction_hash} ${row.trade_index}`;
  let oldest = Number.POSITIVE_INFINITY;
  let newest = 0;
  for (const row of rows) {
    oldest = Math.min(oldest, row.ts);
    newest = Math.max(newest, row.ts);
  }
  const found = await warehouse.query<{ id: string; transaction_hash: string; trade_index: number }>(
    `SELECT id, transaction_hash, trade_index FROM polymarket.trades
     WHERE id IN {ids:Array(String)} AND ts BETWEEN toDateTime({oldest:UInt32}, 'UTC') AND toDateTime({newest:UInt32}, 'UTC')`,
    { params: { ids: [...new Set(rows.map((row) => row.id))], oldest, newest } },
  );
  const stored = new Set(found.map(key));
  return rows.filter((row) => !stored.has(key(row))).sort((a, b) => a.ts - b.ts);
}

/**
 * How far apart the two copies of one trade may be timed: the stream's is the match (the
 * feed's milliseconds), the Data API's the block that settled it, seconds to a minute later.
 */
export const STREAM_MATCH_SECONDS = 120;

/**
 * `rows` less those that are a trade `by` (the other path) stored already: the Data API's
 * copy of a trade the stream brought, or the reverse. The stream's `last_trade_price` has no
 * fill index and often no transaction, so two copies are one trade when they share the
 * token, price and size, the transaction where both know it, and are timed within
 * `STREAM_MATCH_SECONDS`; each stored trade matches one row at most, the nearest in time.
 */
export async function withoutStoredBy<Row extends PolymarketTradeRow>(
  warehouse: Warehouse,
  rows: readonly Row[],
  by: "rest" | "stream",
): Promise<Row[]> {
  if (rows.length === 0) return [];
  let oldest = Number.POSITIVE_INFINITY;
  let newest = 0;
  for (const row of rows) {
    oldest = Math.min(oldest, row.ts);
    newest = Math.max(newest, row.ts);
  }
  const stored = await warehouse.query<{
    token_id: string;
    transaction_hash: string;
    price: number;
    size: number;
    ts: number;
  }>(
    `SELECT token_id, transaction_hash, price, size, toUnixTimestamp(ts) AS ts FROM polymarket.trades
     WHERE id IN {ids:Array(String)} AND source = {by:String}
       AND ts BETWEEN toDateTime({oldest:UInt32}, 'UTC') AND toDateTime({newest:UInt32}, 'UTC')`,
    {
      params: {
        ids: [...new Set(rows.map((row) => row.id))],
        by,
        oldest: Math.max(0, oldest - STREAM_MATCH_SECONDS),
        newest: newest + STREAM_MATCH_SECONDS,
      },
    },
  );
  const byTrade = new Map<string, Array<{ hash: string; ts: number; used: boolean }>>();
  const tradeKey = (token: string, price: number, size: number) =>
    `${token} ${Math.round(Number(price) * 1e6)} ${Math.round(Number(size) * 1e6)}`;
  for (const row of stored) {
    const key = tradeKey(row.token_id, row.price, row.size);
    const list = byTrade.get(key) ?? [];
    if (list.length === 0) byTrade.set(key, list);
    list.push({ hash: row.transaction_hash, ts: Number(row.ts), used: false });
  }
  return rows.filter((row) => {
    let best: { hash: string; ts: number; used: boolean } | undefined;
    for (const candidate of byTrade.get(tradeKey(row.token_id, row.price, row.size)) ?? []) {
      if (candidate.used || Math.abs(candidate.ts - row.ts) > STREAM_MATCH_SECONDS) continue;
      if (candidate.hash !== "" && row.transaction_hash !== "" && candidate.hash !== row.transaction_hash) continue;
      if (!best || Math.abs(candidate.ts - row.ts) < Math.abs(best.ts - row.ts)) best = candidate;
    }
    if (best) best.used = true;
    return !best;
  });
}
