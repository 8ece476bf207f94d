/**
 * The spec's sample analytic questions as SQL, written once for both venues. The example
 * queries and the Pulse dashboards are built from these, so a fix to how "markets traded"
 * or a category is computed lands everywhere at once.
 *
 * What differs between the venues is each venue reader's `tables` (`services/venues/`).
 * Cumulative `volume` is what the snapshots carry (no trade list), so activity in a window
 * is the rise of `volume` between the window's snapshots.
 */
import type { VenueTables } from "../venues/venue";

const POLITICS =
  "election|president|trump|biden|harris|senate|congress|governor|mayor|parliament|prime minister|vote|party|nominee|democrat|republican";
const CRYPTO = "bitcoin|btc|ethereum|eth|crypto|solana|xrp|doge|token|coin|stablecoin|memecoin";
const SPORTS =
  "nba|nfl|mlb|nhl|ufc|fifa|world cup|super bowl|premier league|champions league|tennis|golf|grand prix|match|game \\\\d|win the|series|playoffs";
const FINANCE =
  "fed|interest rate|rates|inflation|cpi|gdp|recession|s&p|nasdaq|dow|stock|earnings|ipo|oil|gold|treasury|tariff";

export const categoryExpression = (column: string) => `multiIf(
    match(lower(${column}), '${POLITICS}'), 'Politics',
    match(lower(${column}), '${CRYPTO}'), 'Crypto',
    match(lower(${column}), '${SPORTS}'), 'Sports',
    match(lower(${column}), '${FINANCE}'), 'Finance',
    'Other')`;

export const regionExpression = (column: string) => `multiIf(
    match(lower(${column}), 'united states|\\\\bu\\\\.?s\\\\.?a?\\\\b|america|trump|biden|harris|senate|congress|nfl|nba|fed\\\\b'), 'USA',
    match(lower(${column}), '\\\\buk\\\\b|britain|british|england|london|starmer|scotland|wales'), 'UK',
    match(lower(${column}), 'china|chinese|beijing|xi jinping|taiwan|hong kong|shanghai'), 'China',
    match(lower(${column}), 'europe|\\\\beu\\\\b|germany|france|italy|spain|poland|ecb|macron|merz|eurozone'), 'Europe',
    'Global')`;

/** Column name of 24 h volume in the venue's unit: `volume_24h` or `contracts_24h`. */
export const volume24hColumn = (venue: VenueTables) => `${venue.unit}_24h`;

/** Open markets per category (keywords in the text): count and 24 h volume. */
export function openByCategory(venue: VenueTables): string {
  return groupedOpenMarkets(venue, categoryExpression(venue.text), "category", volume24hColumn(venue));
}

/** Open markets per region (USA, UK, China, Europe, Global): count and 24 h volume. */
export function marketsPerRegion(venue: VenueTables): string {
  return groupedOpenMarkets(venue, regionExpression(venue.text), "region", "markets");
}

function groupedOpenMarkets(venue: VenueTables, expression: string, name: string, orderBy: string): string {
  return `SELECT
  ${expression} AS ${name},
  count() AS markets,
  round(sum(${venue.volume24h})) AS ${volume24hColumn(venue)}
FROM ${venue.latest}
WHERE ${venue.open}
GROUP BY ${name}
ORDER BY ${orderBy} DESC`;
}

/**
 * What each market traded between consecutive snapshots of the last 24 hours: the rise of
 * its cumulative `volume`, stamped at the later snapshot. The one definition of "traded
 * over the last 24 hours" that the Pulse figure, its hourly chart and the count of
 * markets traded share, so the hours add up to the figure. Closed markets count for what
 * they traded before closing. An hour more is read so the first step has a base.
 */
export function tradedSteps(venue: VenueTables): string {
  return `steps AS (
  SELECT ${venue.key}, sync_timestamp,
    greatest(volume - lagInFrame(volume, 1, volume) OVER (
      PARTITION BY ${venue.key} ORDER BY sync_timestamp ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), 0) AS traded
  FROM ${venue.snapshots}
  WHERE sync_timestamp >= now() - INTERVAL 25 HOUR
),
last_day AS (SELECT * FROM steps WHERE sync_timestamp >= now() - INTERVAL 24 HOUR)`;
}

/** Markets traded and volume traded per hour over the last day (`tradedSteps`). */
export function tradingPerHour(venue: VenueTables): string {
  return `WITH ${tradedSteps(venue)}
SELECT
  toStartOfHour(sync_timestamp) AS hour,
  uniqExactIf(${venue.key}, traded > 0) AS markets_traded,
  round(sum(traded)) AS ${venue.unit}
FROM last_day
GROUP BY hour
ORDER BY hour`;
}

/**
 * The last 7 days as whole calendar days (UTC): today so far and the six days before, one
 * row each. Filtering on the day rather than on `sync_timestamp` keeps every day whole (no
 * partial first day) and lets the engine answer from the per-day projection
 * `market_day` (warehouse migration 0005) instead of every snapshot.
 */
const LAST_7_DAYS = "toDate(sync_timestamp) >= today() - 6";

/** Per day over the last 7 days: markets traded, volume traded, average yes probability. */
export function dailyActivity(venue: VenueTables): string {
  return `WITH daily AS (
  SELECT
    toDate(sync_timestamp) AS day,
    ${venue.key},
    max(volume) - min(volume) AS traded,
    avg(${venue.yesPrice}) AS yes_probability
  FROM ${venue.snapshots}
  WHERE ${LAST_7_DAYS}
  GROUP BY day, ${venue.key}
)
SELECT
  day,
  countIf(traded > 0) AS markets_traded,
  round(sum(traded)) AS ${venue.unit},
  round(avg(yes_probability), 4) AS avg_yes_probability
FROM daily
GROUP BY day
ORDER BY day`;
}

/** The mean yes price across markets per day, last 7 days (0–1; `avg` skips NULLs). */
export function averageYesProbability(venue: VenueTables): string {
  return `SELECT
  toDate(sync_timestamp) AS day,
  round(avg(${venue.yesPrice}), 4) AS avg_yes_probability
FROM ${venue.snapshots}
WHERE ${LAST_7_DAYS}
GROUP BY day
ORDER BY day`;
}

/**
 * Open markets and 24 h volume per platform, in dollars for both (Kalshi: contracts ×
 * last price), in the order given.
 */
export function platformComparison(venues: readonly VenueTables[]): string {
  const dollars = (venue: VenueTables) =>
    venue.unit === "contracts" ? `${venue.volume24h} * ifNull(${venue.yesPrice}, 0)` : venue.volume24h;
  return venues
    .map(
      (venue) => `SELECT
  '${venue.name}' AS platform,
  count() AS open_markets,
  round(sum(${dollars(venue)})) AS volume_24h_usd
FROM ${venue.latest}
WHERE ${venue.open}`,
    )
    .join("\nUNION ALL\n");
}
