/**
 * What the read side needs of a venue, as one value per venue (`polymarket.ts`,
 * `kalshi.ts`): how a row of its latest-snapshot table reads as a market, the SQL behind
 * each panel of a market page and its search, and its tables as the sample questions read
 * them. The write side has one `Source` per venue (`@epicenter/ingest`); this is its read
 * twin, so the market page, the API, the dashboards, Seismo and MCP branch on no venue's
 * name, and a venue's quirks (Kalshi's candles, Polymarket's outcome arrays) stay in its file.
 *
 * Every statement takes the market's id and its span as typed parameters (`{id:String}`,
 * `{from:DateTime('UTC')}`), bound by the engine, and carries their values, so the same
 * node runs here and opens in the editor with its values filled in.
 */
import type { HistoryInterval, Market, MarketStatus, QueryNode, Venue, VenueFacts } from "@epicenter/contracts";

export type Row = Record<string, unknown>;

/** A span of time a history panel covers. */
export interface Span {
  from: Date;
  to: Date;
}

/** A statement with the values of its parameters, run here as it opens in the editor. */
export type BoundQuery = QueryNode & { params: Record<string, string> };

/** A latest row of any venue, read into the one shape the market page shows. */
export interface VenueReading {
  question: string;
  subtitle: string | null;
  eventId: string;
  status: MarketStatus;
  outcomes: Market["outcomes"];
  result: string | null;
  openedAt: string | null;
  closesAt: string | null;
  resolvedAt: string | null;
  volume: number | null;
  liquidity: number | null;
  openInterest: number | null;
  /** The market on the venue's site, given its event's slug. */
  url(event: { slug: string | null }): string;
}

/** The SQL behind each panel of a market page. */
export interface MarketPanels {
  /** The latest snapshot, every column. */
  latest(id: string): BoundQuery;
  /** The event's `title` and `slug` (what the venue's link needs). */
  event(eventId: string): BoundQuery;
  /** How much history the archive holds: distinct `points`, their `first` and `last` time, distinct `trades`. */
  coverage(id: string): BoundQuery;
  /** When the archived history starts (`first`); no row when there is none. */
  firstPoint(id: string): BoundQuery;
  /** Open, high, low, close per outcome and interval, from the venue's history. */
  prices(id: string, interval: HistoryInterval, span: Span): BoundQuery;
  /** The same from the snapshots, where no history is archived yet. */
  snapshotPrices(id: string, interval: HistoryInterval, span: Span): BoundQuery;
  /** Traded per interval. */
  volume(id: string, interval: HistoryInterval, span?: Span): BoundQuery;
  /** The newest trades. */
  trades(id: string): BoundQuery;
  /**
   * Markets whose key is `{q:String}` or whose text holds every one of `{words:Array(String)}`,
   * open first then by volume, at most `{limit:UInt32}`; columns `id`, `closes` and what `read` reads.
   */
  search: string;
  /**
   * The markets named in `{ids:Array(String)}` with their outcomes' current prices:
   * columns `id`, `title`, `subtitle`, `labels` and `prices` (probabilities 0–1).
   */
  outcomePrices: string;
}

/**
 * A venue's tables as the sample questions read them (`services/queries/market-sql.ts`):
 * Polymarket money is USDC and a market's text its question; Kalshi counts contracts, prices
 * in dollars (0–1) and its text is its title and outcome label.
 */
export interface VenueTables {
  name: string;
  snapshots: string;
  latest: string;
  key: string;
  text: string;
  open: string;
  volume24h: string;
  yesPrice: string;
  /** What volume columns are called: money (`volume…`) or contracts (`contracts…`). */
  unit: "volume" | "contracts";
  /** How the dashboards word what differs. */
  wording: {
    /** What its volume counts, as a sentence starts: "USDC", "Contracts". */
    traded: string;
    /** The chart title of its volume. */
    tradedTitle: string;
    /** Where the keywords are matched. */
    text: string;
    /** The chart title of its mean Yes price. */
    price: string;
    /** Its own 24-hour volume column. */
    venueVolume: string;
    /** What "open" means for it. */
    open: string;
  };
}

export interface VenueReader {
  venue: Venue;
  facts: VenueFacts;
  read(row: Row): VenueReading;
  panels: MarketPanels;
  tables: VenueTables;
  /**
   * Its counts for the platform statistics: distinct `markets` and `events`, `open_markets`,
   * and `zero_volume_markets` (never traded). Distinct counts read the latest tables without
   * FINAL: `uniqExact(key)` is the same number and skips the merge.
   */
  counts: string;
}

export const BUCKET: Record<HistoryInterval, string> = {
  "1m": "INTERVAL 1 MINUTE",
  "1h": "INTERVAL 1 HOUR",
  "1d": "INTERVAL 1 DAY",
};

/** A time as a `DateTime('UTC')` parameter's value. */
export const engineTime = (date: Date) => date.toISOString().slice(0, 19).replace("T", " ");

/** The span's parameters, `{from:…}` and `{to:…}`, for a statement that names them. */
export const spanParams = (span: Span | undefined): Record<string, string> =>
  span ? { from: engineTime(span.from), to: engineTime(span.to) } : {};

export function bound(
  title: string,
  sql: string,
  params: Record<string, string>,
  view?: QueryNode["view"],
): BoundQuery {
  return { kind: "sql", title, sql, params, ...(view ? { view } : {}) };
}

export function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

export const textOf = (value: unknown): string | null =>
  value === null || value === undefined || value === "" ? null : String(value);

/** The earliest of several ISO times; null when none is known. */
export function earliest(...times: Array<string | null>): string | null {
  const known = times.filter((time): time is string => time !== null && !Number.isNaN(Date.parse(time)));
  return known.length === 0 ? null : known.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
}
