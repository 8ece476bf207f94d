/**
 * Polymarket's history endpoints on the replay server: the CLOB's `/prices-history` (by
 * token, with its window and fidelity limits and the empty-`max` trap) and the Data API's
 * `/v2/trades` (by condition, newest first, keyset-paged by transaction and fill, with
 * wallets shared across markets). The recorded samples answer for their own token and
 * conditions, and the trades the live feed served (`live-polymarket.ts`) are fills of their
 * own transactions beside the generated ones, so a capture that missed some on the stream
 * finds them here, by their transaction.
 */
import { hashSeed, hexOf, type Json, noiseAt, type PolymarketMarketRef, tokenIdsOf } from "./catalog";
import {
  byDay,
  bySecond,
  type Context,
  decodeCursor,
  encodeCursor,
  firstAtOrAfter,
  integer,
  keptPerCatalog,
  polymarketError,
  type Reply,
  tapeGroups,
} from "./history-context";
import {
  clamp,
  DAY,
  HOUR,
  type PolymarketLife,
  type PricePath,
  pathPrice,
  polymarketLife,
  round,
  type Spread,
  spreadAt,
  spreadRange,
  tradeSpread,
} from "./history-market-life";
import type { ServedTrade } from "./live";

const MAX_WINDOW_S = 15 * DAY;

const isPosition = (value: unknown): value is [number, number] =>
  Array.isArray(value) && value.length === 2 && value.every((n) => Number.isSafeInteger(n) && n >= 0);

const INTERVALS: Record<string, { span: number; minFidelity: number }> = {
  "1h": { span: HOUR, minFidelity: 1 },
  "6h": { span: 6 * HOUR, minFidelity: 1 },
  "1d": { span: DAY, minFidelity: 1 },
  "1w": { span: 7 * DAY, minFidelity: 5 },
  "1m": { span: 30 * DAY, minFidelity: 10 },
};

/** `GET /prices-history?market=<token>&startTs=&endTs=&fidelity=` or `&interval=`. */
export function pricesHistory(context: Context, url: URL): Reply {
  const token = url.searchParams.get("market");
  const interval = url.searchParams.get("interval");
  const startTs = integer(url, "startTs");
  const endTs = integer(url, "endTs");
  const fidelity = integer(url, "fidelity");
  if (!token) return polymarketError(400, "'market' is required");
  if (startTs === "invalid" || endTs === "invalid") return polymarketError(400, "invalid 'startTs' or 'endTs'");
  if (fidelity === "invalid" || (fidelity !== null && fidelity < 1)) return polymarketError(400, "invalid 'fidelity'");
  if (interval === null && startTs !== null && endTs !== null && endTs - startTs > MAX_WINDOW_S) {
    return polymarketError(400, "'startTs' and 'endTs' interval is too long");
  }
  const preset = interval === null || interval === "max" ? null : INTERVALS[interval];
  if (preset === undefined) return polymarketError(400, `invalid filters: unknown interval '${interval}'`);
  if (preset && (fidelity ?? 1) < preset.minFidelity) {
    return polymarketError(400, `invalid filters: minimum 'fidelity' for '${interval}' range is ${preset.minFidelity}`);
  }
  if (token === context.recorded.priceToken) {
    const from = interval === null ? (startTs ?? 0) : 0;
    const to = interval === null ? (endTs ?? context.now) : context.now;
    return { status: 200, body: { history: context.recorded.prices.filter((p) => p.t >= from && p.t <= to) } };
  }
  const ref = context.polymarket.findByToken(token);
  const life = ref && polymarketLife(ref, context.now);
  if (!ref || !life) return { status: 200, body: { history: [] } };
  // The documented trap: a resolved market's whole life at a fine fidelity comes back empty.
  if (interval === "max" && life.closed && (fidelity ?? 0) < 720) return { status: 200, body: { history: [] } };
  let from = startTs ?? life.path.start;
  let to = endTs ?? context.now;
  if (interval === "max") [from, to] = [life.path.start, life.path.end];
  else if (preset) [from, to] = [context.now - preset.span, context.now];
  return { status: 200, body: { history: pricePoints(life.path, ref.outcomeIndex, from, to, (fidelity ?? 1) * 60) } };
}

/** Tokens a `POST /batch-prices-history` may ask for (documented: 20). */
export const BATCH_PRICE_TOKENS = 20;

/**
 * `POST /batch-prices-history` with `{markets: [token ids ≤ 20], start_ts, end_ts, fidelity}`:
 * each token's history as `GET /prices-history` would answer it, keyed by token id, under the
 * same window limit; a refusal of any token refuses the request.
 */
export function batchPricesHistory(context: Context, body: unknown): Reply {
  const request = (body ?? {}) as Record<string, unknown>;
  const markets = request.markets;
  if (!Array.isArray(markets) || markets.length === 0 || !markets.every((m) => typeof m === "string")) {
    return polymarketError(400, "'markets' must be a non-empty list of asset ids");
  }
  if (markets.length > BATCH_PRICE_TOKENS) {
    return polymarketError(400, `'markets' holds at most ${BATCH_PRICE_TOKENS} asset ids`);
  }
  const history: Record<string, unknown> = {};
  for (const token of markets as string[]) {
    const url = new URL("http://replay/prices-history");
    url.searchParams.set("market", token);
    for (const [name, param] of [
      ["start_ts", "startTs"],
      ["end_ts", "endTs"],
      ["fidelity", "fidelity"],
      ["interval", "interval"],
    ] as const) {
      const value = request[name];
      if (value !== undefined && value !== null) url.searchParams.set(param, String(value));
    }
    const one = pricesHistory(context, url);
    if (one.status !== 200) return one;
    history[token] = (one.body as { history: unknown }).history;
  }
  return { status: 200, body: { history } };
}

function pricePoints(path: PricePath, outcomeIndex: number, from: number, to: number, step: number) {
  const lo = Math.max(from, path.start);
  const hi = Math.min(to, path.end);
  const priceOf = (t: number) => {
    const yes = round(pathPrice(path, t), 4);
    return outcomeIndex === 0 ? yes : round(1 - yes, 4);
  };
  const history: Array<{ t: number; p: number }> = [];
  for (let grid = Math.floor(lo / step) * step; grid <= hi; grid += step) {
    // Points land a few seconds after the grid time, as recorded (…615, …204, …816).
    const t = grid + 2 + Math.floor(noiseAt(path.seed ^ 0x5eed, grid) * 17);
    if (t >= lo && t <= hi) history.push({ t, p: priceOf(t) });
  }
  // A resolved market ends on a settlement point, 0 or 1.
  if (path.outcome !== null && path.end >= from && path.end <= to && (history.at(-1)?.t ?? -1) < path.end) {
    history.push({ t: path.end, p: priceOf(path.end) });
  }
  return history;
}

const WORDS = {
  first: ["Favorable", "Hollow", "Webbed", "Quiet", "Lucky", "Crimson", "Patient", "Nimble", "Frozen", "Silver"],
  second: ["Webinar", "Filing", "Myth", "Harbor", "Ledger", "Comet", "Orchard", "Signal", "Tundra", "Anchor"],
};

/** One of 2,000 wallets shared by every market, as the same traders trade many. */
function wallet(index: number) {
  const first = WORDS.first[index % 10] as string;
  const second = WORDS.second[Math.floor(index / 10) % 10] as string;
  return {
    proxyWallet: `0x${hexOf(hashSeed(`wallet|${index}`), 40)}`,
    name: `${first}${second}${index}`,
    pseudonym: `${first}-${second}`,
  };
}

interface Fill {
  outcome: number;
  side: "BUY" | "SELL";
  price: number;
  size: number;
  wallet: number;
}

/** Transaction `j` of a condition: one fill, or two (a second maker level, or the complement minted against it). */
function fillsOf(life: PolymarketLife, spread: Spread, tick: number, j: number): { timestamp: number; fills: Fill[] } {
  const r = (n: number) => noiseAt(spread.seed ^ 0x7ade, j * 16 + n);
  const timestamp = spreadAt(spread, j);
  const outcome = r(0) < 0.55 ? 0 : 1;
  const yes = pathPrice(life.path, timestamp);
  const fair = outcome === 0 ? yes : 1 - yes;
  const onTick = (price: number) => round(clamp(Math.round(price / tick) * tick, tick, 1 - tick), 6);
  const price = onTick(fair + (r(1) - 0.5) * 0.01);
  const size = round(5 * Math.exp(r(2) * 9), 2);
  const first: Fill = { outcome, side: r(3) < 0.7 ? "BUY" : "SELL", price, size, wallet: Math.floor(r(4) * 2000) };
  if (r(5) >= 0.25) return { timestamp, fills: [first] };
  const otherWallet = (first.wallet + 1 + Math.floor(r(6) * 1998)) % 2000;
  const secondSize = round(size * (0.2 + 0.6 * r(7)), 2);
  if (r(8) < 0.5) {
    const step = price + tick > 1 - tick ? -tick : tick;
    const second = { ...first, price: onTick(price + step), size: secondSize, wallet: otherWallet };
    return { timestamp, fills: [first, second] };
  }
  const complement = {
    outcome: 1 - outcome,
    side: "BUY" as const,
    price: onTick(1 - price),
    size,
    wallet: otherWallet,
  };
  return { timestamp, fills: [first, complement] };
}

/** A condition's generated trades: transactions 0…count-1 ascending in time, each one or two fills. */
interface ConditionTrades {
  condition: string;
  /** Indexes of the transactions within [from, to] (Unix seconds), ascending. */
  range(from: number, to: number): [number, number];
  timestamp(j: number): number;
  /** Transaction `j`'s fills as the Data API serves them. */
  fills(j: number): Json[];
}

function conditionTrades(context: Context, condition: string): ConditionTrades | null {
  const ref = context.polymarket.findByCondition(condition);
  return ref && tradesOf(context, condition, ref);
}

function tradesOf(context: Context, condition: string, ref: PolymarketMarketRef): ConditionTrades | null {
  const life = polymarketLife(ref, context.now);
  if (!ref || !life) return null;
  const volume = Number(ref.template.volumeNum ?? ref.template.volume ?? 0);
  const count = volume > 0 ? clamp(Math.ceil(volume / 10_000), 2, 100) : 0;
  const spread = tradeSpread(hashSeed(condition), life.path.start, life.plannedEnd, life.path.end, count);
  const tick = Number(ref.market.orderPriceMinTickSize ?? 0.001) || 0.001;
  const outcomes = JSON.parse(String(ref.market.outcomes ?? '["Yes","No"]')) as string[];
  const tokens = tokenIdsOf(ref.market);
  return {
    condition,
    range: (from, to) => spreadRange(spread, Math.max(from, life.path.start), Math.min(to, life.path.end)),
    timestamp: (j) => spreadAt(spread, j),
    fills: (j) => {
      const { timestamp, fills } = fillsOf(life, spread, tick, j);
      const transactionHash = `0x${hexOf(hashSeed(`${condition}|tx|${j}`), 64)}`;
      return fills.map((fill) => {
        const { proxyWallet, name, pseudonym } = wallet(fill.wallet);
        return {
          proxyWallet,
          side: fill.side,
          asset: tokens[fill.outcome] ?? "",
          conditionId: condition,
          size: fill.size,
          price: fill.price,
          timestamp,
          title: ref.market.question,
          slug: ref.market.slug,
          icon: ref.market.icon ?? ref.event.icon ?? "",
          eventSlug: ref.event.slug,
          outcome: outcomes[fill.outcome] ?? "",
          outcomeIndex: fill.outcome,
          name,
          pseudonym,
          bio: "",
          profileImage: "",
          profileImageOptimized: "",
          transactionHash,
        };
      });
    },
  };
}

/** The live feed's trades by condition. */
const servedByConditionOf = tapeGroups(
  (context, trade) => String(context.polymarket.findByToken(trade.market)?.market.conditionId ?? "") || null,
);
const servedByCondition = (context: Context) => servedByConditionOf(context, context.liveTape("polymarket"));

/** A trade the live feed served, as the Data API lists its fill: its own transaction, the Yes token. */
function servedFill(context: Context, trade: ServedTrade): Json {
  const ref = context.polymarket.findByToken(trade.market);
  const outcomes = JSON.parse(String(ref?.market.outcomes ?? '["Yes","No"]')) as string[];
  const { proxyWallet, name, pseudonym } = wallet(hashSeed(trade.id) % 2000);
  return {
    proxyWallet,
    side: trade.side,
    asset: trade.market,
    conditionId: String(ref?.market.conditionId ?? ""),
    size: trade.size,
    price: trade.cents / 100,
    timestamp: Math.floor(trade.at / 1000),
    title: ref?.market.question,
    slug: ref?.market.slug,
    icon: ref?.market.icon ?? ref?.event.icon ?? "",
    eventSlug: ref?.event.slug,
    outcome: outcomes[0] ?? "",
    outcomeIndex: 0,
    name,
    pseudonym,
    bio: "",
    profileImage: "",
    profileImageOptimized: "",
    transactionHash: trade.id,
  };
}

/** A condition's transactions with the live feed's trades among them, in time order. */
function withServed(context: Context, condition: string, base: ConditionTrades | null): ConditionTrades | null {
  const served = servedByCondition(context).get(condition);
  if (!served?.length) return base;
  const items: Array<{ t: number; j?: number; trade?: ServedTrade }> = [];
  if (base) {
    const [oldest, newest] = base.range(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
    for (let j = oldest; j <= newest; j += 1) items.push({ t: base.timestamp(j), j });
  }
  for (const trade of served) items.push({ t: Math.floor(trade.at / 1000), trade });
  items.sort((a, b) => a.t - b.t);
  const atOrAfter = (t: number) => firstAtOrAfter(items.length, (k) => items[k]?.t ?? 0, t);
  return {
    condition,
    range: (from, to) => [atOrAfter(from), atOrAfter(to + 1) - 1],
    timestamp: (k) => items[k]?.t ?? 0,
    fills: (k) => {
      const item = items[k];
      if (item?.trade) return [servedFill(context, item.trade)];
      return base && item?.j !== undefined ? base.fills(item.j) : [];
    },
  };
}

/** The recorded sample's trades of one condition, each its own transaction, ascending in time. */
function recordedTrades(condition: string, newestFirst: Json[]): ConditionTrades {
  const ascending = [...newestFirst].reverse();
  const times = ascending.map((trade) => Number(trade.timestamp));
  return {
    condition,
    range: (from, to) => {
      const first = times.findIndex((t) => t >= from);
      const last = times.findLastIndex((t) => t <= to);
      return first === -1 ? [times.length, -1] : [first, last];
    },
    timestamp: (j) => times[j] ?? 0,
    fills: (j) => [ascending[j] as Json],
  };
}

/**
 * `GET /v2/trades`: with `condition`, one market's trades; without, the exchange-wide tape
 * (API_FORMATS §4).
 */
export function polymarketTrades(context: Context, url: URL): Reply {
  const condition = url.searchParams.get("condition");
  const limit = integer(url, "limit") ?? 100;
  if (limit === "invalid" || limit < 1 || limit > 500) return polymarketError(400, "'limit' must be between 1 and 500");
  if (!condition) return polymarketTape(context, url, limit);
  const cursor = decodeCursor(url.searchParams.get("cursor"), isPosition);
  if (cursor === "invalid") return polymarketError(400, "invalid 'cursor'");
  const page = (trades: Json[], next: [number, number] | null): Reply => ({
    status: 200,
    body: { trades, next_cursor: next ? encodeCursor(next) : null, has_more: next !== null },
  });

  const recorded = context.recorded.polymarketTrades.get(condition);
  if (recorded) {
    const start = cursor?.[0] ?? 0;
    const end = start + limit;
    return page(recorded.slice(start, end), end < recorded.length ? [end, 0] : null);
  }
  const source = withServed(context, condition, conditionTrades(context, condition));
  if (!source) return page([], null);
  const [, newest] = source.range(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  const trades: Json[] = [];
  let [j, f] = cursor ? [Math.min(cursor[0], newest), cursor[1]] : [newest, 0];
  let fills = j >= 0 ? source.fills(j) : null;
  while (fills && trades.length < limit) {
    const fill = fills[f];
    if (!fill) {
      j -= 1;
      f = 0;
      fills = j >= 0 ? source.fills(j) : null;
      continue;
    }
    trades.push(fill);
    f += 1;
  }
  if (fills && f >= fills.length) [j, f] = [j - 1, 0];
  return page(trades, j >= 0 ? [j, f] : null);
}

/** A tape position: the next fill to serve, as (timestamp, condition, transaction, fill). */
type TapePosition = [number, string, number, number];
const isTapePosition = (value: unknown): value is TapePosition =>
  Array.isArray(value) &&
  value.length === 4 &&
  Number.isSafeInteger(value[0]) &&
  typeof value[1] === "string" &&
  Number.isSafeInteger(value[2]) &&
  Number.isSafeInteger(value[3]);

/**
 * The exchange-wide tape: every condition's fills newest first (ties by condition, then
 * transaction, descending), keyset cursor only, holding trades from the first of the
 * previous month (UTC) on. A page may end inside a transaction; the cursor goes on from
 * its next fill.
 */
function polymarketTape(context: Context, url: URL, limit: number): Reply {
  const cursor = decodeCursor(url.searchParams.get("cursor"), isTapePosition);
  if (cursor === "invalid") return polymarketError(400, "invalid 'cursor'");
  const now = new Date(context.now * 1000);
  const from = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) / 1000;
  const served = servedByCondition(context);
  const sources = allConditions(context).map((source) => withServed(context, source.condition, source) ?? source);
  const listed = new Set(sources.map((source) => source.condition));
  for (const condition of served.keys()) {
    const source = !listed.has(condition) && withServed(context, condition, null);
    if (source) sources.push(source);
  }
  const after = (t: number, c: string, j: number) =>
    !cursor || t < cursor[0] || (t === cursor[0] && (c < cursor[1] || (c === cursor[1] && j <= cursor[2])));
  const found: Array<{ t: number; source: ConditionTrades; j: number }> = [];
  let top = cursor ? cursor[0] : context.now;
  let fills = 0;
  // Back in widening windows [lower, top] until more than a page is found or the tape ends.
  for (let width = 6 * HOUR, first = true; top >= from; width *= 4, first = false) {
    const lower = Math.max(from, top - width);
    for (const source of sources) {
      const [oldest, newest] = source.range(lower, top);
      for (let j = newest; j >= oldest; j -= 1) {
        const t = source.timestamp(j);
        if ((first || t < top) && after(t, source.condition, j)) {
          found.push({ t, source, j });
          fills += source.fills(j).length - (isAt(cursor, t, source.condition, j) ? (cursor?.[3] ?? 0) : 0);
        }
      }
    }
    if (fills > limit || lower <= from) break;
    top = lower;
  }
  found.sort((a, b) => b.t - a.t || (a.source.condition < b.source.condition ? 1 : -1) || b.j - a.j);
  const trades: Json[] = [];
  let next: TapePosition | null = null;
  for (const { t, source, j } of found) {
    const all = source.fills(j);
    const skip = isAt(cursor, t, source.condition, j) ? (cursor?.[3] ?? 0) : 0;
    for (let f = skip; f < all.length; f += 1) {
      if (trades.length === limit) {
        next = [t, source.condition, j, f];
        break;
      }
      trades.push(all[f] as Json);
    }
    if (next) break;
  }
  return { status: 200, body: { trades, next_cursor: next ? encodeCursor(next) : null, has_more: next !== null } };
}

const isAt = (position: TapePosition | null, t: number, condition: string, j: number) =>
  position !== null && position[0] === t && position[1] === condition && position[2] === j;

const tapeSources = keptPerCatalog<ConditionTrades[]>();
const tapeMarkets = keptPerCatalog<PolymarketMarketRef[]>();

/** Every condition with trades, the catalog's and the recorded sample's: built once per second, as a walk asks page after page. */
function allConditions(context: Context): ConditionTrades[] {
  return tapeSources(context.polymarket, bySecond(context, context.polymarket), () => {
    const sources: ConditionTrades[] = [];
    for (const ref of listedMarkets(context)) {
      const source = tradesOf(context, String(ref.market.conditionId), ref);
      if (source) sources.push(source);
    }
    for (const [condition, trades] of context.recorded.polymarketTrades) {
      sources.push(recordedTrades(condition, trades));
    }
    return sources;
  });
}

/**
 * Every market of the live catalog with a condition and no recorded trades, built once per
 * day and move of the catalog; the closed catalog's trades are served per market only.
 */
function listedMarkets(context: Context): PolymarketMarketRef[] {
  return tapeMarkets(context.polymarket, byDay(context, context.polymarket), () => {
    const refs: PolymarketMarketRef[] = [];
    for (let eventIndex = 0; eventIndex < context.polymarket.liveEventCount; eventIndex += 1) {
      const event = context.polymarket.event(eventIndex);
      ((event.markets as Json[] | undefined) ?? []).forEach((market, position) => {
        const condition = String(market.conditionId ?? "");
        const template = context.polymarket.templateMarket(eventIndex, position);
        // As `findByCondition` reads them: a condition id of 0x and 64 hex digits.
        if (!/^0x[0-9a-f]{64}$/.test(condition) || !template || context.recorded.polymarketTrades.has(condition)) {
          return;
        }
        refs.push({ eventIndex, event, market, template, outcomeIndex: 0 });
      });
    }
    return refs;
  });
}
