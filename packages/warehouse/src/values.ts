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
