/**
 * The replay server's order books: Polymarket's CLOB `POST /books` and Kalshi's
 * `GET /markets/orderbooks?tickers=…`, in the shapes API_FORMATS §4 records, computed on
 * request from the market's current price and a seed of its id and the minute, so the
 * same request in the same minute answers the same bytes and books move between
 * snapshots.
 *
 * What a reader must survive is here on purpose, by a hash of the market:
 * - levels listed worst first (the CLOB's bids ascending and asks descending; Kalshi's
 *   bids ascending), one book in nine shuffled;
 * - one book in eleven empty, one in seven one-sided, and up to 15 levels a side (more
 *   than the 10 kept);
 * - Kalshi: one market in five in the legacy shape (`orderbook: {yes, no}` in integer
 *   cents), the rest `orderbook_fp` with `[price, count]` as strings;
 * - a closed market: Polymarket leaves its token out of the answer (it has no book),
 *   Kalshi answers an empty book.
 */
import { hashSeed, type KalshiCatalog, type PolymarketCatalog } from "./catalog";

type Reply = { status: number; body: unknown };

/** A small deterministic generator (mulberry32) seeded by text. */
function randomFrom(seed: string): () => number {
  let state = 0x9e3779b9;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x85ebca6b);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Levels {
  /** Cents, best first. */
  bids: Array<[number, number]>;
  asks: Array<[number, number]>;
}

/** A book around `yes` (0–1) for `key` at minute `minute`, best levels first. */
export function replayLevels(key: string, yes: number, minute: number): Levels {
  const shape = hashSeed(key);
  if (shape % 11 === 3) return { bids: [], asks: [] };
  const random = randomFrom(`${key}:${minute}`);
  const mid = Math.min(97, Math.max(3, Math.round(yes * 100)));
  const depth = (shape % 15) + 1;
  const side = (from: number, step: number) => {
    const levels: Array<[number, number]> = [];
    for (let price = from; levels.length < depth && price >= 1 && price <= 99; price += step) {
      if (random() < 0.2) continue;
      levels.push([price, Math.round((5 + random() * 2_000) * 100) / 100]);
    }
    return levels;
  };
  const bids = side(mid - 1, -1);
  const asks = shape % 7 === 5 ? [] : side(mid + 1, 1);
  return { bids, asks };
}

function shuffled<T>(levels: T[], key: string): T[] {
  if (hashSeed(key) % 9 !== 4) return levels;
  const random = randomFrom(key);
  return [...levels].sort(() => random() - 0.5);
}

const dollars = (cents: number) => (cents / 100).toFixed(4);

/** `POST /books` with `[{token_id}]`: a book summary per token that has a book. */
export function polymarketBooks(catalog: PolymarketCatalog, body: unknown, now: number): Reply {
  if (!Array.isArray(body)) return { status: 400, body: { error: "the body must be a list of {token_id}" } };
  const minute = Math.floor(now / 60_000);
  const answer: unknown[] = [];
  for (const item of body) {
    const token = item && typeof item === "object" ? String((item as { token_id?: unknown }).token_id ?? "") : "";
    const ref = catalog.findByToken(token);
    if (!ref || ref.market.closed === true || ref.market.enableOrderBook === false) continue;
    const prices = JSON.parse(String(ref.market.outcomePrices ?? '["0.5","0.5"]')) as string[];
    const first = Number(prices[0] ?? 0.5);
    const yes = ref.outcomeIndex === 0 ? first : 1 - first;
    const levels = replayLevels(token, yes, minute);
    const level = ([cents, size]: [number, number]) => ({ price: String(cents / 100), size: String(size) });
    answer.push({
      market: ref.market.conditionId,
      asset_id: token,
      // The CLOB's time of the book: a few seconds before the answer.
      timestamp: String(now - (hashSeed(`${token}:${minute}`) % 5_000)),
      hash: hashSeed(`${token}:${minute}`).toString(16).padStart(8, "0"),
      // The CLOB lists both sides worst first.
      bids: shuffled([...levels.bids].reverse().map(level), token),
      asks: shuffled([...levels.asks].reverse().map(level), token),
      min_order_size: "5",
      tick_size: "0.01",
      neg_risk: ref.market.negRisk === true,
      last_trade_price: String(first),
    });
  }
  return { status: 200, body: answer };
}

/** `GET /markets/orderbooks?tickers=a,b`: one entry per known ticker, in request order. */
export function kalshiOrderbooks(catalog: KalshiCatalog, url: URL, now: number): Reply {
  const tickers = (url.searchParams.get("tickers") ?? "").split(",").filter(Boolean);
  if (tickers.length === 0 || tickers.length > 100) {
    return { status: 400, body: { error: { code: "bad_request", message: "tickers takes 1 to 100 tickers" } } };
  }
  const minute = Math.floor(now / 60_000);
  const orderbooks: unknown[] = [];
  for (const ticker of tickers) {
    const ref = catalog.findMarket(ticker);
    if (!ref) continue;
    const open = ref.market.status === "active";
    const yes = Number(ref.market.last_price_dollars ?? ref.market.yes_bid_dollars ?? 0.5);
    const levels = open ? replayLevels(ticker, yes, minute) : { bids: [], asks: [] };
    // Kalshi lists bids only: the yes asks are no bids at 100 − price, and both ascend.
    const yesBids = shuffled([...levels.bids].reverse(), ticker);
    const noBids = shuffled(
      levels.asks.map(([cents, size]): [number, number] => [100 - cents, size]).reverse(),
      ticker,
    );
    if (hashSeed(ticker) % 5 === 2) {
      const count = ([cents, size]: [number, number]) => [cents, Math.max(1, Math.round(size))];
      orderbooks.push({ ticker, orderbook: { yes: yesBids.map(count), no: noBids.length ? noBids.map(count) : null } });
    } else {
      const level = ([cents, size]: [number, number]) => [dollars(cents), size.toFixed(2)];
      orderbooks.push({ ticker, orderbook_fp: { yes_dollars: yesBids.map(level), no_dollars: noBids.map(level) } });
    }
  }
  return { status: 200, body: { orderbooks } };
}
