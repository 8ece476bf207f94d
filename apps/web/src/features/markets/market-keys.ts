/**
 * Which values elsewhere in the product are market keys, so they can link to the market
 * page: a Polymarket market's `id` and a Kalshi market's `ticker`, in a catalog sample, a
 * dashboard tile's table or a query result. Decided once per table or per result from
 * names only (never per cell), so the virtualized grid pays nothing for it but a lookup.
 *
 * A result's columns carry no table, so the statement tells which one: `id` is a
 * Polymarket market's only when the statement reads a Polymarket table keyed by market
 * and no Polymarket events table (whose `id` is an event's); `ticker` is a Kalshi
 * market's unless the statement reads only Polymarket tables (Polymarket events have a
 * `ticker` of their own). `polymarket_id` and `kalshi_ticker`, the cross-venue tables' names,
 * are always a market's key.
 */
import { VENUE_FACTS, VENUES, type Venue, venueOfDatabase, ZMarketParams } from "@epicenter/contracts";

/** Tables whose key column is the market's key: the snapshots, the latest state and the history. */
const isMarketKeyed = (venue: Venue, table: string) => VENUE_FACTS[venue].marketTables.includes(table);

/** The cross-venue tables' names for the two markets of a pair (`polymarket_id`), a market's key whatever the statement reads. */
const PAIR_KEYS: Readonly<Record<string, Venue>> = Object.fromEntries(
  VENUES.map((venue) => [`${venue}_${VENUE_FACTS[venue].keyColumn}`, venue]),
);

/** The market page of a market. */
export function marketPath(venue: Venue, id: string): string {
  return `/markets/${venue}/${encodeURIComponent(id)}`;
}

/** Whether a value can be a market key the API accepts (the contract's pattern), so a link to it can work. */
export function isMarketKey(value: unknown): value is string {
  return typeof value === "string" && ZMarketParams.shape.id.safeParse(value).success;
}

/** The column of a catalog table that holds a market key, and whose market it is; null for other tables. */
export function marketKeyColumnOf(namespace: string, table: string): { venue: Venue; column: string } | null {
  const venue = venueOfDatabase(namespace);
  return venue && isMarketKeyed(venue, table) ? { venue, column: VENUE_FACTS[venue].keyColumn } : null;
}

/** The statement without its comments and string literals, where a table name would only be text. */
function withoutCommentsAndStrings(sql: string): string {
  // One pass, so a `--` inside a string or a quote inside a comment is read as what it is.
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|'(?:[^'\\]|\\.|'')*'/g, " ");
}

/** `polymarket.markets_latest`, `` `kalshi`.`trades` ``, `"kalshi"."candles"`: every market-namespace table the statement names. */
export function tablesNamed(sql: string): { venue: Venue; table: string }[] {
  const names: { venue: Venue; table: string }[] = [];
  const databases = VENUES.map((venue) => VENUE_FACTS[venue].database).join("|");
  const pattern = new RegExp(`\\b(${databases})[\`"]?\\s*\\.\\s*[\`"]?([A-Za-z_][A-Za-z0-9_]*)`, "gi");
  for (const match of withoutCommentsAndStrings(sql).matchAll(pattern)) {
    const venue = venueOfDatabase(match[1] as string);
    if (venue) names.push({ venue, table: (match[2] as string).toLowerCase() });
  }
  return names;
}

/**
 * For each column of a result, the venue whose market page its values open, or null. Read
 * once per result; a cell then only looks its column up.
 */
export function marketKeyColumns(sql: string, columns: readonly { name: string }[]): (Venue | null)[] {
  const keyed = VENUES.filter((venue) => columns.some((column) => column.name === VENUE_FACTS[venue].keyColumn));
  if (keyed.length === 0) return columns.map((column) => PAIR_KEYS[column.name] ?? null);
  const tables = tablesNamed(sql);
  const linking = keyed.filter((venue) => {
    const own = tables.filter((name) => name.venue === venue);
    // A name only this venue's markets use: its key unless the statement reads another venue only.
    if (VENUE_FACTS[venue].isKeyDistinctive) return own.length > 0 || tables.every((name) => name.venue === venue);
    // A name other tables use too: its key only from its market tables, without its events.
    return own.some((name) => isMarketKeyed(venue, name.table)) && !own.some((name) => name.table.startsWith("events"));
  });
  return columns.map(
    (column) => PAIR_KEYS[column.name] ?? linking.find((venue) => VENUE_FACTS[venue].keyColumn === column.name) ?? null,
  );
}
