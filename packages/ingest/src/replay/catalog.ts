/**
 * The replay server's catalog: the recorded upstream objects in `fixtures/`, grown to any
 * size by cloning them under new ids, with prices and volumes that move every time the
 * clock is advanced.
 *
 * Nothing is materialised up front: event `i` is computed from its template
 * (`i mod templates`) and clone number (`i div templates`) when a page asks for it, so a
 * 150,000-market catalog costs no memory beyond the templates. Clones keep every field of
 * the recorded object (so payload sizes and shapes are real) and change only the ids,
 * the moving numbers, and, for a few, the lifecycle: every 50th clone has closed within
 * the last week (at a time fixed for the day, so history around it is stable), which
 * exercises the pending-closed window.
 *
 * For the scale run, two options add what a venue at full size has (`lifeOf`): markets
 * closed over the last three months beyond the live catalog (`closedMarkets`, a million),
 * and clones that open and close while the replay runs (`turnover`), listed from the
 * start, each living fifteen minutes to a week and closing one after another.
 *
 * Every id a venue keys history by is unique per clone and parses back to its event
 * without a scan: a Polymarket clone's token ids and condition id are the template's with
 * the clone number added to their last 8 digits (decimal for tokens, hex for conditions),
 * and a Kalshi clone's tickers carry `R<clone>` after the event ticker.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type Json = Record<string, unknown>;

export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL("../../../../fixtures/", import.meta.url));

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const CLONE_ID_STRIDE = 10_000_000;
/** How many trailing digits of a token or condition id carry the clone number. */
const ID_TAIL = 8;

export function readFixture(fixturesDir: string, path: string): unknown {
  const text = readFileSync(`${fixturesDir.replace(/\/$/, "")}/${path}`, "utf8");
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/** A stable pseudo-random number in [0, 1) for an integer seed. */
export function noise(seed: number): number {
  let x = (seed ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return ((x ^ (x >>> 16)) >>> 0) / 4_294_967_296;
}

/** A stable 32-bit seed for a string key (FNV-1a), to feed `noise`/`noiseAt`. */
export function hashSeed(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A stable pseudo-random number in [0, 1) for a seed and any integer `n` up to 2^53 (seconds, microseconds, indexes). */
export function noiseAt(seed: number, n: number): number {
  const low = n >>> 0;
  const high = Math.floor(n / 4_294_967_296) >>> 0;
  return noise((seed ^ Math.imul(low, 0x2c1b3c6d) ^ Math.imul(high + 0x51ed27, 0x297a2d39)) >>> 0);
}

/** `digits` lowercase hex digits drawn from `seed`: stable hashes, wallets and uuids. */
export function hexOf(seed: number, digits: number): string {
  let hex = "";
  for (let part = 0; hex.length < digits; part += 1) {
    hex += Math.floor(noiseAt(seed, part) * 4_294_967_296)
      .toString(16)
      .padStart(8, "0");
  }
  return hex.slice(0, digits);
}

/** A Polymarket clob token id of clone `clone`: the template's, its last 8 decimal digits moved on by `clone`. */
export function cloneTokenId(token: string, clone: number): string {
  if (clone === 0) return token;
  const tail = (Number(token.slice(-ID_TAIL)) + clone) % 10 ** ID_TAIL;
  return `${token.slice(0, -ID_TAIL)}${String(tail).padStart(ID_TAIL, "0")}`;
}

/** A Polymarket condition id of clone `clone`: still `0x` + 64 hex, its last 8 hex digits moved on by `clone`. */
export function cloneConditionId(conditionId: string, clone: number): string {
  if (clone === 0) return conditionId;
  const tail = (Number.parseInt(conditionId.slice(-ID_TAIL), 16) + clone) % 16 ** ID_TAIL;
  return `${conditionId.slice(0, -ID_TAIL)}${tail.toString(16).padStart(ID_TAIL, "0")}`;
}

/** The start of the day (UTC) of `now` less `days` days and 12 hours: a close time that holds still all day. */
function closedDaysAgo(now: number, days: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - days * DAY_MS - 12 * HOUR_MS;
}

/** Gamma's Postgres-style `closedTime`: "2026-01-23 20:56:36+00". */
function postgresTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")}+00`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** Where an event's life stands at a time (epoch ms). */
export interface Life {
  /** When it closed; null while open. */
  closedAt: number | null;
  /** A turnover clone's planned life. */
  turnover?: { opensAt: number; closesAt: number };
}

interface Lives {
  /** Events of the live catalog (after the recorded closed history, on Polymarket). */
  liveEvents: number;
  /** Markets per event, on average: turns markets a day into events a day. */
  marketsPerEvent: number;
  turnover?: Turnover;
}

/**
 * The life of catalog event `i` (counted after the recorded closed history), clone `clone`
 * of its template, at `now`: the closed catalog beyond the live one closed 1–90 days ago;
 * every 50th clone (`i % 50 === 7`) a few days ago; with a turnover, every 10th
 * (`i % 10 === 9`) closes during the run, spaced evenly, after a life of 15 min to a week
 * (log-uniform), and is closed from then on. Costs no page building: the routes skip
 * closed events with it.
 */
export function lifeOf(lives: Lives, i: number, clone: number, now: number): Life {
  if (i >= lives.liveEvents) return { closedAt: closedDaysAgo(now, 1 + (i % 90)) };
  if (clone > 0 && i % 50 === 7) return { closedAt: closedDaysAgo(now, i % 5) };
  const turnover = lives.turnover;
  if (!turnover || clone === 0 || i % 10 !== 9) return { closedAt: null };
  const spacing = (DAY_MS * lives.marketsPerEvent) / turnover.marketsPerDay;
  const closesAt = Math.round(turnover.from + TURNOVER_LEAD_MS + Math.floor(i / 10) * spacing);
  const opensAt = Math.round(closesAt - 15 * 60_000 * 672 ** noise(i * 13 + 5));
  return { closedAt: now >= closesAt ? closesAt : null, turnover: { opensAt, closesAt } };
}

/** Events to serve for `markets` markets of these templates, cycling through them. */
function eventsFor(templates: ReadonlyArray<{ markets: unknown[] }>, markets: number, from = 0): number {
  let total = 0;
  let events = 0;
  while (total < markets) {
    total += templates[(from + events) % templates.length]?.markets.length ?? 0;
    events += 1;
  }
  return events;
}

/** A price that wanders around `base` as `tick` advances, distinct per `seed`. */
export function movedPrice(base: number, seed: number, tick: number): number {
  if (tick === 0) return base;
  const drift = 0.03 * Math.sin(seed * 0.37 + tick * 0.9) + 0.01 * (noise(seed * 31 + tick) - 0.5);
  return Math.round(clamp(base + drift, 0.001, 0.999) * 1000) / 1000;
}

/** Cumulative volume grows on most ticks (a trade happened), stands still on some. */
export function movedVolume(base: number, seed: number, tick: number): number {
  let volume = base;
  for (let t = 1; t <= tick; t += 1) if (noise(seed * 7 + t) < 0.7) volume += 10 + noise(seed + t) * 500;
  return Math.round(volume * 100) / 100;
}

/** Clones whose lives end while the replay runs: every 10th live clone, closing one after another. */
export interface Turnover {
  /** Epoch ms the run starts; the first of them closes `TURNOVER_LEAD_MS` after it. */
  from: number;
  /** About how many markets close a day (the venues close 3,000–40,000). */
  marketsPerDay: number;
}

/** The first turnover market closes this long into the run: an archive that never saw a market cannot capture it. */
export const TURNOVER_LEAD_MS = 20 * 60_000;

export interface CatalogOptions {
  /** Markets per venue to grow to; the recorded catalog alone when absent. */
  catalogSize?: number;
  /** Markets per venue closed over the last three months, served after the live catalog (and not on the tapes). */
  closedMarkets?: number;
  turnover?: Turnover;
  seed?: number;
  fixturesDir?: string;
  now?: () => number;
}

interface PolymarketTemplate {
  event: Json;
  markets: Json[];
}

/** Where a template id sits: clone `c` of it is event `first + c × stride` (stride 0: never cloned). */
interface IdOrigin {
  first: number;
  stride: number;
  market: number;
  outcome: number;
  tail: number;
}

export interface PolymarketMarketRef {
  eventIndex: number;
  event: Json;
  market: Json;
  /** The recorded market it was cloned from, with the unmoved price and volume. */
  template: Json;
  /** The outcome the token is (0 for a condition id). */
  outcomeIndex: number;
}

export class PolymarketCatalog {
  readonly closedHistory: Json[];
  private readonly templates: PolymarketTemplate[];
  private readonly tokenOrigins = new Map<string, IdOrigin>();
  private readonly conditionOrigins = new Map<string, IdOrigin>();
  /** Events of the recorded closed history and the live catalog; the closed catalog comes after them. */
  readonly liveEventCount: number;
  readonly eventCount: number;
  private readonly lives: Lives;
  tick = 0;

  constructor(
    private readonly options: CatalogOptions,
    fixturesDir: string,
  ) {
    const active = readFixture(
      fixturesDir,
      "polymarket/events/gamma_events_active_100_nested_2025-06-24.json",
    ) as Json[];
    this.closedHistory = readFixture(
      fixturesDir,
      "polymarket/events/gamma_events_default_order_old_2021.json",
    ) as Json[];
    const recorded = active.map((event) => ({ event, markets: (event.markets as Json[] | undefined) ?? [] }));
    const page = readFixture(
      fixturesDir,
      "polymarket/markets/gamma_markets_closed_false_limit200_wrapped_2026-02-13.json",
    ) as { markets: Json[] };
    // Events both recordings hold (open from 2025 into 2026) are kept once, as first recorded.
    const known = new Set(recorded.map((t) => String(t.event.id)));
    this.templates = [...recorded, ...eventsOfMarkets(page.markets).filter((t) => !known.has(String(t.event.id)))];
    const perRound = this.templates.reduce((total, t) => total + t.markets.length, 0);
    const live = eventsFor(this.templates, options.catalogSize ?? perRound);
    const closed = options.closedMarkets ? eventsFor(this.templates, options.closedMarkets, live) : 0;
    this.lives = { liveEvents: live, marketsPerEvent: perRound / this.templates.length, turnover: options.turnover };
    this.liveEventCount = this.closedHistory.length + live;
    this.eventCount = this.liveEventCount + closed;
    for (const [h, event] of this.closedHistory.entries()) this.indexIds(event, h, 0);
    for (const [i, t] of this.templates.entries()) {
      this.indexIds(t.event, this.closedHistory.length + i, this.templates.length);
    }
  }

  private indexIds(event: Json, first: number, stride: number) {
    ((event.markets as Json[] | undefined) ?? []).forEach((market, m) => {
      const condition = String(market.conditionId ?? "");
      const tail = (id: string, radix: number) => Number.parseInt(id.slice(-ID_TAIL), radix);
      if (condition) {
        this.conditionOrigins.set(condition.slice(0, -ID_TAIL), {
          first,
          stride,
          market: m,
          outcome: 0,
          tail: tail(condition, 16),
        });
      }
      tokenIdsOf(market).forEach((token, outcome) => {
        this.tokenOrigins.set(token.slice(0, -ID_TAIL), { first, stride, market: m, outcome, tail: tail(token, 10) });
      });
    });
  }

  /** The market (and outcome) a clob token id belongs to, or null; parses the clone number back, scans nothing. */
  findByToken(token: string): PolymarketMarketRef | null {
    const origin = this.tokenOrigins.get(token.slice(0, -ID_TAIL));
    if (!origin || !/^\d+$/.test(token)) return null;
    const clone = (Number(token.slice(-ID_TAIL)) - origin.tail + 10 ** ID_TAIL) % 10 ** ID_TAIL;
    const ref = this.resolve(origin, clone);
    return ref && tokenIdsOf(ref.market)[origin.outcome] === token ? { ...ref, outcomeIndex: origin.outcome } : null;
  }

  /** The market a condition id belongs to, or null. */
  findByCondition(conditionId: string): PolymarketMarketRef | null {
    const origin = this.conditionOrigins.get(conditionId.slice(0, -ID_TAIL));
    if (!origin || !/^0x[0-9a-f]{64}$/.test(conditionId)) return null;
    const clone = (Number.parseInt(conditionId.slice(-ID_TAIL), 16) - origin.tail + 16 ** ID_TAIL) % 16 ** ID_TAIL;
    const ref = this.resolve(origin, clone);
    return ref && ref.market.conditionId === conditionId ? ref : null;
  }

  private resolve(origin: IdOrigin, clone: number): PolymarketMarketRef | null {
    if (clone > 0 && origin.stride === 0) return null;
    const eventIndex = origin.first + clone * origin.stride;
    if (eventIndex >= this.eventCount) return null;
    const event = this.event(eventIndex);
    const market = (event.markets as Json[])[origin.market];
    const template = this.templateMarket(eventIndex, origin.market);
    return market && template ? { eventIndex, event, market, template, outcomeIndex: 0 } : null;
  }

  /** The recorded market that market `position` of event `eventIndex` is a clone of. */
  templateMarket(eventIndex: number, position: number): Json | undefined {
    const event =
      eventIndex < this.closedHistory.length
        ? this.closedHistory[eventIndex]
        : this.templates[(eventIndex - this.closedHistory.length) % this.templates.length]?.event;
    return (event?.markets as Json[] | undefined)?.[position];
  }

  /** Whether event `index` is closed, without building it. */
  isClosed(index: number): boolean {
    if (index < this.closedHistory.length) return this.closedHistory[index]?.closed === true;
    const i = index - this.closedHistory.length;
    return lifeOf(this.lives, i, Math.floor(i / this.templates.length), this.now()).closedAt !== null;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /**
   * Event `index` of the catalog: the recorded closed history first (oldest-first order),
   * then the live catalog, then the closed one.
   */
  event(index: number): Json {
    if (index < this.closedHistory.length) return this.closedHistory[index] as Json;
    const i = index - this.closedHistory.length;
    const template = this.templates[i % this.templates.length] as PolymarketTemplate;
    const clone = Math.floor(i / this.templates.length);
    const life = lifeOf(this.lives, i, clone, this.now());
    const closedAt = life.closedAt ?? undefined;
    const id = (value: unknown) => String(Number(value) + clone * CLONE_ID_STRIDE);
    const markets = template.markets.map((market, m) => {
      const moved = this.market(market, id(market.id), i * 64 + m, closedAt);
      if (life.turnover && market.closed !== true) {
        moved.startDate = new Date(life.turnover.opensAt).toISOString();
        moved.endDate = new Date(life.turnover.closesAt).toISOString();
      }
      if (clone === 0) return moved;
      if (typeof market.conditionId === "string") moved.conditionId = cloneConditionId(market.conditionId, clone);
      if (typeof market.clobTokenIds === "string") {
        // Rewritten in place so the recorded spelling (`["…", "…"]`, with its space) stays.
        moved.clobTokenIds = market.clobTokenIds.replace(/\d{16,}/g, (token) => cloneTokenId(token, clone));
      }
      return moved;
    });
    const event: Json = { ...template.event, id: id(template.event.id), markets };
    if (clone > 0) event.slug = `${String(template.event.slug)}-${clone}`;
    if (life.turnover) event.endDate = new Date(life.turnover.closesAt).toISOString();
    if (closedAt !== undefined) {
      event.closed = true;
      event.endDate = new Date(closedAt).toISOString();
      event.closedTime = event.endDate;
    }
    return event;
  }

  private market(template: Json, id: string, seed: number, closedAt: number | undefined): Json {
    const market: Json = { ...template, id };
    if (closedAt !== undefined) {
      market.closed = true;
      market.closedTime = postgresTime(closedAt);
      // Closed means resolved: the favourite at the recording wins.
      if (typeof template.outcomePrices === "string") {
        const yes = Number((JSON.parse(template.outcomePrices) as string[])[0] ?? 0.5);
        market.outcomePrices = JSON.stringify(yes >= 0.5 ? ["1", "0"] : ["0", "1"]);
      }
      return market;
    }
    if (template.closed === true || typeof template.outcomePrices !== "string") return market;
    const prices = (JSON.parse(template.outcomePrices) as string[]).map(Number);
    const yes = movedPrice(prices[0] ?? 0.5, seed, this.tick);
    market.outcomePrices = JSON.stringify([String(yes), String(Math.round((1 - yes) * 1000) / 1000)]);
    market.lastTradePrice = yes;
    market.bestBid = Math.max(0, Math.round((yes - 0.005) * 1000) / 1000);
    market.bestAsk = Math.min(1, Math.round((yes + 0.005) * 1000) / 1000);
    const volume = movedVolume(Number(template.volumeNum ?? template.volume ?? 0), seed, this.tick);
    market.volume = String(volume);
    market.volumeNum = volume;
    return market;
  }
}

/**
 * The events of a recorded `GET /markets` page, each holding its markets as `GET /events`
 * nests them: a market carries its event in `events[0]`, the event not its markets. These
 * are the questions of 2026 that Kalshi asks too (the World Cup, the NBA and NHL
 * champions, the 2028 nominees), so the replay has pairs for the cross-venue matcher.
 */
function eventsOfMarkets(markets: Json[]): PolymarketTemplate[] {
  const events = new Map<string, PolymarketTemplate>();
  for (const { events: parents, ...market } of markets) {
    const parent = (parents as Json[] | undefined)?.[0];
    if (!parent) continue;
    const id = String(parent.id);
    const template = events.get(id) ?? { event: parent, markets: [] };
    template.markets.push(market);
    events.set(id, template);
  }
  return [...events.values()].map(({ event, markets }) => ({ event: { ...event, markets }, markets }));
}

/** A Gamma market's clob token ids (`clobTokenIds` is a JSON-encoded string array). */
export function tokenIdsOf(market: Json): string[] {
  if (typeof market.clobTokenIds !== "string") return [];
  try {
    return (JSON.parse(market.clobTokenIds) as unknown[]).map(String);
  } catch {
    return [];
  }
}

interface KalshiTemplate {
  event: Json;
  markets: Json[];
}

export type KalshiEventStatus = "open" | "closed" | "settled";

export interface KalshiMarketRef {
  eventIndex: number;
  /** The market's position in its event (`markets[position]`). */
  position: number;
  event: Json;
  market: Json;
  /** The recorded market it was cloned from, with the unmoved price and volume. */
  template: Json;
}

export class KalshiCatalog {
  private readonly templates: KalshiTemplate[];
  /** Template event ticker → template index, and template market ticker → (template, position). */
  private readonly eventTickers = new Map<string, number>();
  private readonly marketTickers = new Map<string, { template: number; position: number }>();
  /** Events of the live catalog; the closed catalog comes after them. */
  readonly liveEventCount: number;
  readonly eventCount: number;
  private readonly lives: Lives;
  readonly combos: Json[];
  readonly comboEvents: Json[];
  tick = 0;

  constructor(
    private readonly options: CatalogOptions,
    fixturesDir: string,
  ) {
    const nested = readFixture(fixturesDir, "kalshi/events/events_nested_iran_38ev_763mkts_2026-03-01.json") as Json[];
    this.templates = nested.map((event) => ({ event, markets: (event.markets as Json[] | undefined) ?? [] }));
    for (const [template, t] of this.templates.entries()) {
      this.eventTickers.set(String(t.event.event_ticker), template);
      for (const [position, market] of t.markets.entries()) {
        this.marketTickers.set(String(market.ticker), { template, position });
      }
    }
    const unfiltered = readFixture(
      fixturesDir,
      "kalshi/markets/markets_page1_unfiltered_all_KXMVE_2026-02-13.json",
    ) as {
      markets: Json[];
    };
    this.combos = unfiltered.markets;
    const multivariate = readFixture(
      fixturesDir,
      "kalshi/events/multivariate/golden_events_multivariate_limit5_2026-01-14.json",
    ) as { response: { events: Json[] } };
    this.comboEvents = multivariate.response.events;
    const perRound = this.templates.reduce((total, t) => total + t.markets.length, 0);
    this.liveEventCount = eventsFor(this.templates, options.catalogSize ?? perRound);
    const closed = options.closedMarkets ? eventsFor(this.templates, options.closedMarkets, this.liveEventCount) : 0;
    this.eventCount = this.liveEventCount + closed;
    this.lives = {
      liveEvents: this.liveEventCount,
      marketsPerEvent: perRound / this.templates.length,
      turnover: options.turnover,
    };
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private lifeAt(i: number): Life {
    return lifeOf(this.lives, i, Math.floor(i / this.templates.length), this.now());
  }

  /** The status event `i` has, without building it (given its life when the caller has it). */
  statusOf(i: number, life: Life = this.lifeAt(i)): KalshiEventStatus | "listed" {
    if (i >= this.templates.length && i < this.liveEventCount && i % 50 === 8) return "settled";
    if (life.closedAt === null) return "listed";
    return i % 50 === 7 && i < this.liveEventCount ? "closed" : "settled";
  }

  /** When a turnover clone (`lifeOf`) closes, epoch seconds; null for any other event. */
  plannedClose(i: number): number | null {
    const { turnover } = this.lifeAt(i);
    return turnover ? Math.floor(turnover.closesAt / 1000) : null;
  }

  /** The catalog market with this ticker, or null; parses the clone number (`R<n>`) back, scans only the templates. */
  findMarket(ticker: string): KalshiMarketRef | null {
    const recorded = this.marketTickers.get(ticker);
    if (recorded) return this.resolve(recorded.template, 0, recorded.position, ticker);
    for (const [eventTicker, template] of this.eventTickers) {
      if (!ticker.startsWith(`${eventTicker}R`)) continue;
      const match = /^R([1-9]\d*)(.*)$/.exec(ticker.slice(eventTicker.length));
      const origin = match && this.marketTickers.get(`${eventTicker}${match[2]}`);
      if (match && origin?.template === template) {
        const found = this.resolve(template, Number(match[1]), origin.position, ticker);
        if (found) return found;
      }
    }
    return null;
  }

  private resolve(template: number, clone: number, position: number, ticker: string): KalshiMarketRef | null {
    const eventIndex = clone * this.templates.length + template;
    if (eventIndex >= this.eventCount) return null;
    const { event } = this.event(eventIndex);
    const market = (event.markets as Json[])[position];
    const recorded = this.templateMarket(eventIndex, position);
    return market?.ticker === ticker && recorded ? { eventIndex, position, event, market, template: recorded } : null;
  }

  /** The recorded market that market `position` of event `eventIndex` is a clone of. */
  templateMarket(eventIndex: number, position: number): Json | undefined {
    return this.templates[eventIndex % this.templates.length]?.markets[position];
  }

  event(i: number): { event: Json; status: KalshiEventStatus } {
    const template = this.templates[i % this.templates.length] as KalshiTemplate;
    const clone = Math.floor(i / this.templates.length);
    const now = this.now();
    const ticker =
      clone === 0 ? String(template.event.event_ticker) : `${String(template.event.event_ticker)}R${clone}`;
    const life = lifeOf(this.lives, i, clone, now);
    const status = this.statusOf(i, life);
    const lifecycle = status === "listed" ? undefined : status;
    const closedAt = life.closedAt ?? closedDaysAgo(now, i % 5);
    const closeTime = lifecycle ? new Date(closedAt).toISOString() : undefined;
    const markets = template.markets.map((market, m) => {
      const moved = this.market(market, i * 64 + m);
      moved.event_ticker = ticker;
      moved.ticker = `${ticker}${String(market.ticker).slice(String(template.event.event_ticker).length)}`;
      // A market settled in the recording (an eliminated team's) keeps its own times.
      if (life.turnover && market.status !== "finalized") {
        moved.open_time = new Date(life.turnover.opensAt).toISOString();
        moved.close_time = new Date(life.turnover.closesAt).toISOString();
        if ("expected_expiration_time" in market) moved.expected_expiration_time = moved.close_time;
      }
      if (lifecycle === "closed") Object.assign(moved, { status: "closed", result: "", close_time: closeTime });
      if (lifecycle === "settled") {
        Object.assign(moved, { status: "finalized", result: m === 0 ? "yes" : "no", close_time: closeTime });
      }
      return moved;
    });
    const event: Json = { ...template.event, event_ticker: ticker, markets };
    return { event, status: lifecycle ?? eventStatus(markets) };
  }

  private market(template: Json, seed: number): Json {
    const market: Json = { ...template };
    if (template.status !== "active") return market;
    const base = Number(template.last_price_dollars ?? 0.5);
    const yes = movedPrice(base, seed, this.tick);
    const volume = movedVolume(Number(template.volume_fp ?? template.volume ?? 0), seed, this.tick);
    market.last_price_dollars = yes.toFixed(4);
    market.yes_bid_dollars = Math.max(0, yes - 0.01).toFixed(4);
    market.yes_ask_dollars = Math.min(1, yes + 0.01).toFixed(4);
    market.volume_fp = volume.toFixed(2);
    if ("last_price" in template) market.last_price = Math.round(yes * 100);
    if ("volume" in template) market.volume = Math.round(volume);
    return market;
  }
}

function eventStatus(markets: Json[]): KalshiEventStatus {
  if (markets.some((m) => m.status === "active" || m.status === "inactive")) return "open";
  if (markets.every((m) => m.status === "finalized")) return "settled";
  return "closed";
}
