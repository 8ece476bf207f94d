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
 * Settings under which the engine itself writes every date and time as ISO 8601 in UTC
 * (`2026-03-01T12:00:00.000Z`): for the fixed queries whose rows become API answers, so no
 * caller rewrites the engine's own `2026-03-01 12:00:00.000`.
 */
export const ISO_TIMES = { date_time_output_format: "iso" } as const;

/**
 * A time the engine wrote under `ISO_TIMES`, or null for none: NULL, empty, or the epoch
 * (what `min` and `max` of no rows give, and what the venues send for "unset").
 */
export function isoTimeOf(value: unknown): string | null {
  if (typeof value !== "string" || value === "" || value.startsWith("1970-01-01T00:00:00")) return null;
  // DateTime has whole seconds, DateTime64(3) milliseconds: answers carry one form.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
