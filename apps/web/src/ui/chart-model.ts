/**
 * Decisions about a chart that are plain arithmetic, kept out of the component so they
 * are tested without a browser: which series go on a second axis, and whether the last
 * point of a time series is a bucket still filling up.
 */

/** Series this many times larger or smaller than the first go on the right axis. */
const SCALE_GAP = 30;

/**
 * The series drawn against the right axis: those in another unit than the first
 * (`formats` differ), or whose largest value is more than SCALE_GAP times apart from the
 * first's, so a 5-digit volume does not flatten a 2-digit count into the floor.
 */
export function rightAxisSeries(
  y: readonly string[],
  data: ReadonlyArray<Record<string, unknown>>,
  formats: Readonly<Record<string, string | undefined>> = {},
): Set<string> {
  const right = new Set<string>();
  const [first, ...others] = y;
  if (first === undefined) return right;
  const scale = (column: string) => {
    let largest = 0;
    for (const point of data) {
      const value = point[column];
      if (typeof value === "number" && Number.isFinite(value)) largest = Math.max(largest, Math.abs(value));
    }
    return largest;
  };
  const base = scale(first);
  for (const column of others) {
    const own = scale(column);
    const isOtherUnit = formats[column] !== formats[first];
    const ratio = base === 0 || own === 0 ? 1 : Math.max(own / base, base / own);
    if (isOtherUnit || ratio >= SCALE_GAP) right.add(column);
  }
  return right;
}

/**
 * Whether the last point of a time series is a bucket that has not ended: its start plus
 * the series' step (read from the last two points: an hour, a day) is after `now`. Such a
 * bucket holds part of its hour or day and would draw as a cliff to zero.
 */
export function isLastBucketPartial(xs: readonly unknown[], now: number): boolean {
  if (xs.length < 2) return false;
  const last = timeOf(xs.at(-1));
  const before = timeOf(xs.at(-2));
  if (last === undefined || before === undefined || last <= before) return false;
  return last + (last - before) > now;
}

/** Milliseconds of a date or datetime as the API sends it (`2026-11-23`, `2026-11-23 10:00:00`), UTC. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const parsed = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value.replace(" ", "T")}Z`);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** Most series a chart draws; the palette has this many colours. */
export const MAX_SERIES = 8;

/**
 * Rows in long form (`x`, `series`, `value`: one row per point of each series) turned into
 * one row per x with a column per series, which is what a chart draws. Series keep the
 * order they first appear in, up to MAX_SERIES; a series without a point at some x has
 * none there (a gap in its line, not a zero).
 */
export function pivotSeries(
  rows: ReadonlyArray<Record<string, unknown>>,
  x: string,
  series: string,
  value: string,
): { rows: Record<string, unknown>[]; y: string[] } {
  const names: string[] = [];
  const byX = new Map<unknown, Record<string, unknown>>();
  for (const row of rows) {
    const name = String(row[series] ?? "");
    if (!names.includes(name)) {
      if (names.length === MAX_SERIES) continue;
      names.push(name);
    }
    const key = row[x];
    const point = byX.get(key) ?? { [x]: key };
    point[name] = row[value];
    byX.set(key, point);
  }
  return { rows: [...byX.values()], y: names };
}
