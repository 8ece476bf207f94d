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
 * the last week, which exercises the pending-closed window.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type Json = Record<string, unknown>;

export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL("../../../../fixtures/", import.meta.url));

const DAY_MS = 24 * 60 * 60 * 1000;
const CLONE_ID_STRIDE = 10_000_000;

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

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
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

export interface CatalogOptions {
  /** Markets per venue to grow to; the recorded catalog alone when absent. */
  catalogSize?: number;
  seed?: number;
  fixturesDir?: string;
  now?: () => number;
}

interface PolymarketTemplate {
  event: Json;
  markets: Json[];
}

export class PolymarketCatalog {
  readonly closedHistory: Json[];
  private readonly templates: PolymarketTemplate[];
  readonly eventCount: number;
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
    this.templates = active.map((event) => ({ event, markets: (event.markets as Json[] | undefined) ?? [] }));
    const perRound = this.templates.reduce((total, t) => total + t.markets.length, 0);
    const target = options.catalogSize ?? perRound;
    let markets = 0;
    let events = 0;
    while (markets < target) {
      markets += this.templates[events % this.templates.length]?.markets.length ?? 0;
      events += 1;
    }
    this.eventCount = this.closedHistory.length + events;
  }

  /** Event `index` of the catalog: the recorded closed history first (oldest-first order), then the live catalog. */
  event(index: number): Json {
    if (index < this.closedHistory.length) return this.closedHistory[index] as Json;
    const i = index - this.closedHistory.length;
    const template = this.templates[i % this.templates.length] as PolymarketTemplate;
    const clone = Math.floor(i / this.templates.length);
    const now = this.options.now?.() ?? Date.now();
    const closedRecently = clone > 0 && i % 50 === 7;
    const id = (value: unknown) => String(Number(value) + clone * CLONE_ID_STRIDE);
    const markets = template.markets.map((market, m) => this.market(market, id(market.id), i * 64 + m, closedRecently));
    const event: Json = { ...template.event, id: id(template.event.id), markets };
    if (clone > 0) event.slug = `${String(template.event.slug)}-${clone}`;
    if (closedRecently) {
      event.closed = true;
      event.endDate = new Date(now - (1 + (i % 5)) * DAY_MS).toISOString();
      event.closedTime = event.endDate;
    }
    return event;
  }

  private market(template: Json, id: string, seed: number, closed: boolean): Json {
    const market: Json = { ...template, id };
    if (closed || template.closed === true || typeof template.outcomePrices !== "string") {
      if (closed) market.closed = true;
      return market;
    }
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

interface KalshiTemplate {
  event: Json;
  markets: Json[];
}

export type KalshiEventStatus = "open" | "closed" | "settled";

export class KalshiCatalog {
  private readonly templates: KalshiTemplate[];
  readonly eventCount: number;
  readonly combos: Json[];
  readonly comboEvents: Json[];
  tick = 0;

  constructor(
    private readonly options: CatalogOptions,
    fixturesDir: string,
  ) {
    const nested = readFixture(fixturesDir, "kalshi/events/events_nested_iran_38ev_763mkts_2026-03-01.json") as Json[];
    this.templates = nested.map((event) => ({ event, markets: (event.markets as Json[] | undefined) ?? [] }));
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
    const target = options.catalogSize ?? perRound;
    let markets = 0;
    let events = 0;
    while (markets < target) {
      markets += this.templates[events % this.templates.length]?.markets.length ?? 0;
      events += 1;
    }
    this.eventCount = events;
  }

  event(i: number): { event: Json; status: KalshiEventStatus } {
    const template = this.templates[i % this.templates.length] as KalshiTemplate;
    const clone = Math.floor(i / this.templates.length);
    const now = this.options.now?.() ?? Date.now();
    const ticker =
      clone === 0 ? String(template.event.event_ticker) : `${String(template.event.event_ticker)}R${clone}`;
    const lifecycle = clone > 0 && i % 50 === 7 ? "closed" : clone > 0 && i % 50 === 8 ? "settled" : undefined;
    const closeTime = lifecycle ? new Date(now - (1 + (i % 5)) * DAY_MS).toISOString() : undefined;
    const markets = template.markets.map((market, m) => {
      const moved = this.market(market, i * 64 + m);
      moved.event_ticker = ticker;
      moved.ticker = `${ticker}${String(market.ticker).slice(String(template.event.event_ticker).length)}`;
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
