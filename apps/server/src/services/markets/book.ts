/**
 * One market's order book at a moment (issue 28): its Yes book as last captured at or
 * before `at`, what a $100 and a $1,000 order would pay on each side, and the best bid
 * and ask of every capture in the week before. Read from `<venue>.books` by the market's
 * key (one key range per hour of the table's order), with the same look-back as the
 * `book_asof` view, so the page and `SELECT … FROM kalshi.book_asof(…)` agree.
 */
import { type BookFill, FILL_SIZES, type MarketBook, VENUE_FACTS, type Venue } from "@epicenter/contracts";
import { BOOK_LOOKBACK_MINUTES, isoTimeOf, toDateTime64 } from "@epicenter/warehouse";
import { invalid, notFound } from "../errors";
import { bound } from "../venues/venue";
import type { MarketDeps } from "./markets";

const SPREAD_DAYS = 7;

interface Level {
  price: number;
  size: number;
}

/**
 * The executable price of an order of `usd`: `buy` walks the asks up from the best,
 * `sell` the bids down, each level taking what it holds. The price is the average per
 * share of what fills; `complete` is false when the captured levels run out first.
 */
export function fillOf(levels: readonly Level[], usd: number, side: BookFill["side"]): BookFill {
  let money = 0;
  let shares = 0;
  for (const { price, size } of levels) {
    if (money >= usd) break;
    const take = Math.min(size, (usd - money) / price);
    money += take * price;
    shares += take;
  }
  const complete = money >= usd - 1e-9;
  return {
    usd,
    side,
    price: shares > 0 ? Math.round((money / shares) * 1e6) / 1e6 : null,
    filled_usd: Math.round(money * 100) / 100,
    complete,
  };
}

export async function getMarketBook(
  deps: MarketDeps,
  venue: Venue,
  id: string,
  query: { at?: string | undefined },
): Promise<MarketBook> {
  const facts = VENUE_FACTS[venue];
  const at = query.at === undefined ? deps.clock() : new Date(query.at);
  if (Number.isNaN(at.getTime())) throw invalid("at is not a moment; give an ISO 8601 time.");
  const [known] = await deps.warehouse.query<{ n: string }>(
    `SELECT count() AS n FROM ${facts.database}.markets_latest WHERE ${facts.keyColumn} = {id:String}`,
    { params: { id } },
  );
  if (Number(known?.n ?? 0) === 0) throw notFound(`No ${facts.label} market ${id} in the archive.`);

  const params = { id, at: toDateTime64(at.getTime()) };
  const book = bound(
    `${facts.label} market ${id}: order book as of a moment`,
    `SELECT sync_timestamp AS captured_at, book_timestamp, state, bid_price, bid_size, ask_price, ask_size
FROM ${facts.database}.books
WHERE ${facts.keyColumn} = {id:String}
  AND sync_timestamp <= {at:DateTime64(3, 'UTC')}
  AND sync_timestamp > {at:DateTime64(3, 'UTC')} - INTERVAL ${BOOK_LOOKBACK_MINUTES} MINUTE
ORDER BY sync_timestamp DESC
LIMIT 1`,
    params,
  );
  const [[last], spread] = await Promise.all([
    deps.warehouse.query<{
      captured_at: string;
      book_timestamp: string | null;
      state: string;
      bid_price: number[];
      bid_size: number[];
      ask_price: number[];
      ask_size: number[];
    }>(book.sql, { params }),
    deps.warehouse.query<{ t: string; bid: number | null; ask: number | null }>(
      `SELECT sync_timestamp AS t, if(empty(bid_price), NULL, toFloat64(bid_price[1])) AS bid,
              if(empty(ask_price), NULL, toFloat64(ask_price[1])) AS ask
       FROM ${facts.database}.books
       WHERE ${facts.keyColumn} = {id:String} AND state != 'closed'
         AND sync_timestamp <= {at:DateTime64(3, 'UTC')}
         AND sync_timestamp > {at:DateTime64(3, 'UTC')} - INTERVAL ${SPREAD_DAYS} DAY
       ORDER BY t`,
      { params },
    ),
  ]);
  const open = last !== undefined && last.state !== "closed";
  const levels = (prices: number[] = [], sizes: number[] = []): Level[] =>
    prices.map((price, i) => ({ price: Number(price), size: Number(sizes[i] ?? 0) }));
  const bids = open ? levels(last.bid_price, last.bid_size) : [];
  const asks = open ? levels(last.ask_price, last.ask_size) : [];
  return {
    venue,
    id,
    at: at.toISOString(),
    captured_at: open ? isoTimeOf(last.captured_at) : null,
    book_timestamp: open ? isoTimeOf(last.book_timestamp) : null,
    bids,
    asks,
    fills: FILL_SIZES.flatMap((usd) => [fillOf(asks, usd, "buy"), fillOf(bids, usd, "sell")]),
    spread: spread.map((row) => ({
      t: isoTimeOf(row.t) ?? row.t,
      bid: row.bid === null ? null : Number(row.bid),
      ask: row.ask === null ? null : Number(row.ask),
    })),
    query: book,
  };
}
