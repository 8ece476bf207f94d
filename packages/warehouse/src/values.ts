/**
 * Values as the warehouse reads them in JSONEachRow. A bare number for a DateTime64
 * column is read as seconds by some settings and ticks by others, so timestamps always
 * travel as `YYYY-MM-DD hh:mm:ss.sss` in UTC, which every server setting reads the same.
 */
export function toDateTime64(value: Date | number): string {
  const date = typeof value === "number" ? new Date(value) : value;
  return date.toISOString().replace("T", " ").replace("Z", "");
}

/** The inverse: a `DateTime64(3, 'UTC')` as the engine prints it, to a Date. */
export function fromDateTime64(value: string): Date {
  return new Date(`${value.replace(" ", "T")}Z`);
}

/**
 * A UTC time as the engine writes it (`2026-03-01 12:00:00`, `2026-03-01 12:00:00.000`) as
 * an API answer carries it (ISO 8601, milliseconds), or null for none: NULL, empty, or the
 * epoch (what `min` and `max` of no rows give, and what the venues send for "unset"). The
 * one conversion of engine times for answers.
 *
 * Not `date_time_output_format = 'iso'` per query: the embedded engine's connection applies
 * a query's settings with `SET`, so they stay on its session for the queries after it
 * (found here: a later read of `crossvenue.market_pairs` got ISO text and its parse failed).
 */
export function isoTimeOf(value: unknown): string | null {
  if (typeof value !== "string" || value === "" || value.startsWith("1970-01-01")) return null;
  const iso = value.includes("T") ? value : value.replace(" ", "T");
  const date = new Date(/Z$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
