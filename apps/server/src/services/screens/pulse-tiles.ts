/**
 * The six tiles both Pulse dashboards share (the spec's sample analytic questions), built
 * for one venue from the shared SQL in `market-sql.ts`. What differs is the venue's unit
 * (USDC or contracts) and which text the keywords are matched in.
 */
import type { DashboardTile } from "@epicenter/contracts";
import {
  averageYesProbability,
  dailyActivity,
  marketsPerRegion,
  openByCategory,
  platformComparison,
  tradingPerHour,
  type Venue,
  volume24hColumn,
} from "../queries/market-sql";

const WORDING: Record<Venue["name"], { traded: string; text: string; price: string }> = {
  Polymarket: { traded: "Volume traded (USDC)", text: "the question", price: "Mean price of Yes (0–1)" },
  Kalshi: {
    traded: "Contracts traded",
    text: "the title and yes_sub_title",
    price: "Mean last Yes price (dollars, 0–1)",
  },
};

/** The venue's tiles, then the comparison of `venue` with `others`. */
export function sharedPulseTiles(venue: Venue, others: readonly Venue[]): DashboardTile[] {
  const words = WORDING[venue.name];
  const unit = venue.unit === "contracts" ? ("contracts" as const) : ("usd" as const);
  const volume24h = volume24hColumn(venue);
  return [
    {
      kind: "tile",
      id: "trading-per-hour",
      title: "Trading per hour, last 24 hours",
      description: `${words.traded} and markets traded per hour, from the rise of cumulative volume.`,
      query: tradingPerHour(venue),
      chart: { kind: "chart", type: "area", x: "hour", y: [venue.unit, "markets_traded"] },
      size: "lg",
      formats: { hour: "datetime", [venue.unit]: unit, markets_traded: "count" },
    },
    {
      kind: "tile",
      id: "open-markets-by-category",
      title: "Open markets by category",
      description: `Politics, Crypto, Sports, Finance and Other, by keywords in ${words.text}.`,
      query: openByCategory(venue),
      chart: { kind: "chart", type: "bar", x: "category", y: [volume24h, "markets"] },
      size: "md",
      formats: { markets: "count", [volume24h]: unit },
    },
    {
      kind: "tile",
      id: "markets-per-region",
      title: "Markets per region",
      description: `Open markets in USA, UK, China, Europe and Global, by keywords in ${words.text}.`,
      query: marketsPerRegion(venue),
      chart: { kind: "chart", type: "bar", x: "region", y: ["markets", volume24h] },
      size: "md",
      formats: { markets: "count", [volume24h]: unit },
    },
    {
      kind: "tile",
      id: "daily-activity-7d",
      title: "Daily activity, last 7 days",
      description: `Markets traded and ${words.traded.toLowerCase()} per day.`,
      query: dailyActivity(venue),
      chart: { kind: "chart", type: "line", x: "day", y: [venue.unit, "markets_traded"] },
      size: "lg",
      formats: { day: "datetime", markets_traded: "count", [venue.unit]: unit, avg_yes_probability: "probability" },
    },
    {
      kind: "tile",
      id: "avg-yes-probability-7d",
      title: "Average yes probability, last 7 days",
      description: `${words.price} across markets per day.`,
      query: averageYesProbability(venue),
      chart: { kind: "chart", type: "line", x: "day", y: ["avg_yes_probability"] },
      size: "md",
      formats: { day: "datetime", avg_yes_probability: "probability" },
    },
    {
      kind: "tile",
      id: "platforms",
      title: "Open markets and volume per platform",
      description: "Both venues side by side; Kalshi's 24h volume is contracts × last price, in dollars.",
      query: platformComparison([venue, ...others]),
      chart: { kind: "chart", type: "bar", x: "platform", y: ["open_markets", "volume_24h_usd"] },
      size: "md",
      formats: { open_markets: "count", volume_24h_usd: "usd" },
    },
  ];
}
