/**
 * The tiles both Pulse dashboards share, built for one venue from the shared SQL in
 * `market-sql.ts`: the number tiles (open markets, 24h volume, markets traded) and the six
 * charts of the spec's sample analytic questions. What differs is the venue's unit (USDC
 * or contracts), which text the keywords are matched in, and a tile id or two.
 */
import type { DashboardTile, QueryView, ValueFormat } from "@epicenter/contracts";
import {
  averageYesProbability,
  dailyActivity,
  marketsPerRegion,
  openByCategory,
  platformComparison,
  tradedSteps,
  tradingPerHour,
  volume24hColumn,
} from "../queries/market-sql";
import type { VenueTables as Venue } from "../venues";

/** A tile as data: its SQL, title and view are its query node. */
export function tile(spec: {
  id: string;
  title: string;
  description: string | null;
  sql: string;
  view: QueryView;
  size: DashboardTile["size"];
  formats: Record<string, ValueFormat>;
  /** What the tile says without rows, where the general words would mislead. */
  empty?: string;
}): DashboardTile {
  return {
    kind: "tile",
    id: spec.id,
    description: spec.description,
    node: { kind: "sql", sql: spec.sql, title: spec.title, view: spec.view },
    size: spec.size,
    formats: spec.formats,
    empty: spec.empty ?? null,
  };
}

/** A number tile: the first row's `column`. */
function numberTile(id: string, title: string, description: string, sql: string, column: string, format: ValueFormat) {
  return tile({
    id,
    title,
    description,
    sql,
    view: { kind: "number", column },
    size: "sm",
    formats: { [column]: format },
  });
}

/** The number tiles both venues show: open markets, 24h volume, markets traded over the last day. */
export function sharedNumberTiles(venue: Venue): DashboardTile[] {
  const isContracts = venue.unit === "contracts";
  const volume = volume24hColumn(venue);
  return [
    numberTile(
      "open-markets",
      "Open markets",
      venue.wording.open,
      `SELECT count() AS open_markets\nFROM ${venue.latest}\nWHERE ${venue.open}`,
      "open_markets",
      "count",
    ),
    numberTile(
      `${venue.unit}-24h`,
      "24h volume",
      `${venue.wording.traded} traded over the last 24 hours: the rise of each market's cumulative volume between snapshots, closed markets included. The hourly chart adds up to it.`,
      `WITH ${tradedSteps(venue)}\nSELECT round(sum(traded)) AS ${volume}\nFROM last_day`,
      volume,
      isContracts ? "contracts" : "usd",
    ),
    numberTile(
      "markets-traded-24h",
      "Markets traded, last 24h",
      "Markets whose cumulative volume rose between snapshots of the last 24 hours.",
      `WITH ${tradedSteps(venue)}\nSELECT uniqExactIf(${venue.key}, traded > 0) AS markets_traded\nFROM last_day`,
      "markets_traded",
      "count",
    ),
  ];
}

/** The venue's chart tiles, then the comparison of `venue` with `others`. */
export function sharedPulseTiles(venue: Venue, others: readonly Venue[]): DashboardTile[] {
  const words = { ...venue.wording, traded: venue.wording.tradedTitle };
  const unit = venue.unit === "contracts" ? ("contracts" as const) : ("usd" as const);
  const volume24h = volume24hColumn(venue);
  return [
    tile({
      id: "trading-per-hour",
      title: "Trading per hour, last 24 hours",
      description: `${words.traded} and markets traded per hour: the rise of each market's cumulative volume between snapshots, as in the 24h volume figure.`,
      sql: tradingPerHour(venue),
      view: { kind: "chart", type: "area", x: "hour", y: [venue.unit, "markets_traded"] },
      size: "lg",
      formats: { hour: "datetime", [venue.unit]: unit, markets_traded: "count" },
    }),
    tile({
      id: "open-markets-by-category",
      title: "Open markets by category",
      description: `Politics, Crypto, Sports, Finance and Other, by keywords in ${words.text}; 24h volume as the venue reports it for each open market (${words.venueVolume}).`,
      sql: openByCategory(venue),
      view: { kind: "chart", type: "bar", x: "category", y: [volume24h, "markets"] },
      size: "md",
      formats: { markets: "count", [volume24h]: unit },
    }),
    tile({
      id: "markets-per-region",
      title: "Markets per region",
      description: `Open markets in USA, UK, China, Europe and Global, by keywords in ${words.text}; 24h volume as the venue reports it (${words.venueVolume}).`,
      sql: marketsPerRegion(venue),
      view: { kind: "chart", type: "bar", x: "region", y: ["markets", volume24h] },
      size: "md",
      formats: { markets: "count", [volume24h]: unit },
    }),
    tile({
      id: "daily-activity-7d",
      title: "Daily activity, last 7 days",
      description: `Markets traded and ${words.traded.toLowerCase()} per day.`,
      sql: dailyActivity(venue),
      view: { kind: "chart", type: "line", x: "day", y: [venue.unit, "markets_traded"] },
      size: "lg",
      formats: { day: "datetime", markets_traded: "count", [venue.unit]: unit, avg_yes_probability: "probability" },
    }),
    tile({
      id: "avg-yes-probability-7d",
      title: "Average yes probability, last 7 days",
      description: `${words.price} across markets per day.`,
      sql: averageYesProbability(venue),
      view: { kind: "chart", type: "line", x: "day", y: ["avg_yes_probability"] },
      size: "md",
      formats: { day: "datetime", avg_yes_probability: "probability" },
    }),
    tile({
      id: "platforms",
      title: "Open markets and volume per platform",
      description: "Both venues side by side; Kalshi's 24h volume is contracts × last price, in dollars.",
      sql: platformComparison([venue, ...others]),
      view: { kind: "chart", type: "bar", x: "platform", y: ["open_markets", "volume_24h_usd"] },
      size: "md",
      formats: { open_markets: "count", volume_24h_usd: "usd" },
    }),
  ];
}
