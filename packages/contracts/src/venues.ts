/**
 * The venues the archive holds, and what the product says and shows about each, in one
 * place: their names, their databases, how a market is keyed and named, what their volume
 * counts, what their history is made of, and where a market lives on the venue's site.
 * The server's venue readers (`apps/server/src/services/venues/`), the SPA's market pages,
 * search, status and dashboards, and the catalog's enums read these facts instead of
 * branching on a venue's name, so a third venue is a new entry here and a reader there.
 */
import { z } from "zod";

/** The venues, in the order the product lists them. */
export const VENUES = ["polymarket", "kalshi"] as const;
export const ZVenue = z.enum(VENUES);
export type Venue = z.infer<typeof ZVenue>;

/** What a venue's volume counts: money (USDC) or contracts. */
export type VolumeUnit = "usd" | "contracts";

export interface VenueFacts {
  /** As the product writes it: "Polymarket". */
  label: string;
  /** The database its tables live in, for user SQL and the catalog: the venue's own name. */
  database: Venue;
  /** The column that names one market in its market, price and trade tables. */
  keyColumn: string;
  /** What a market's key is called in the interface and the API: "id", "ticker". */
  keyName: string;
  /**
   * Whether a result column named `keyColumn` is this venue's market key even where the
   * statement does not say which table it came from (`ticker`); false for a name other
   * tables use too (`id`), which is a market key only when the statement reads this
   * venue's market tables and none of its event tables.
   */
  isKeyDistinctive: boolean;
  /** Its market tables keyed by `keyColumn` (a market page opens from their key). */
  marketTables: readonly string[];
  volumeUnit: VolumeUnit;
  /** What its volume counts, in a hint: "USDC", "contracts". */
  volumeName: string;
  /** How its volume reads in a sentence: "USDC traded", "contracts traded". */
  volumeTraded: string;
  /** The unit shown after a volume figure, when the figure does not carry one. */
  volumeSuffix: string;
  /** What its price chart plots. */
  priceNote: string;
  /** What one point of its archived history is: "price points", "candles". */
  historyPoints: string;
  /** What the archive holds of its volume history: "trades", "candles". */
  volumeHistory: string;
  /** The venue's site, where its market pages link. */
  site: string;
  /** What an order book's sizes count: "shares", "contracts". */
  bookSizeUnit: string;
  /** How the venue's book becomes the archive's Yes book, in a hint. */
  bookNote: string;
}

export const VENUE_FACTS: Readonly<Record<Venue, VenueFacts>> = {
  polymarket: {
    label: "Polymarket",
    database: "polymarket",
    keyColumn: "id",
    keyName: "id",
    isKeyDistinctive: false,
    marketTables: ["markets", "markets_latest", "prices", "trades"],
    volumeUnit: "usd",
    volumeName: "USDC",
    volumeTraded: "USDC traded",
    volumeSuffix: "",
    priceNote: "each outcome's price, 0–1",
    historyPoints: "price points",
    volumeHistory: "trades",
    site: "https://polymarket.com",
    bookSizeUnit: "shares",
    bookNote: "the CLOB book of the Yes token",
  },
  kalshi: {
    label: "Kalshi",
    database: "kalshi",
    keyColumn: "ticker",
    keyName: "ticker",
    isKeyDistinctive: true,
    marketTables: ["markets", "markets_latest", "candles", "trades"],
    volumeUnit: "contracts",
    volumeName: "contracts",
    volumeTraded: "contracts traded",
    volumeSuffix: " ct",
    priceNote: "Yes price in dollars, 0–1",
    historyPoints: "candles",
    volumeHistory: "candles",
    site: "https://kalshi.com",
    bookSizeUnit: "contracts",
    bookNote: "asks are Kalshi's No bids at 1 − p",
  },
};

/** The databases user SQL reads: each venue's (named after it), then the cross-venue pairs. */
export const MARKET_DATABASES = [...VENUES, "crossvenue"] as const;
export type MarketDatabase = (typeof MARKET_DATABASES)[number];

/** A venue's facts by the name of its database; undefined for any other database. */
export function venueOfDatabase(database: string): Venue | undefined {
  return VENUES.find((venue) => VENUE_FACTS[venue].database === database.toLowerCase());
}
