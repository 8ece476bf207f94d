/**
 * Numbers as the product shows them. Polymarket money is USDC and Kalshi volume counts
 * contracts, so every value is formatted by what it is, never by a guess from its size.
 * 64-bit integers arrive from the API as strings; `toNumber` reads both.
 */

export type ValueKind =
  | "count"
  | "usd"
  | "price"
  | "cents"
  | "contracts"
  | "probability"
  | "percent"
  | "datetime"
  | "text";

export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const small = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });

/** 1234567 → "1,234,567". */
export function formatCount(value: unknown): string {
  const number = toNumber(value);
  return number === null ? "—" : integer.format(number);
}

/**
 * 1234567 → "1.2M"; small numbers as they are, to three decimals at most (an axis of
 * prices between 0 and 1 reads 0.25, 0.5, not 0, 0, 0).
 */
export function formatCompact(value: unknown): string {
  const number = toNumber(value);
  if (number === null) return "—";
  return Math.abs(number) < 10_000 ? small.format(number) : compact.format(number);
}

/**
 * A result's cell, wherever a result is drawn (the editor's grid, a tile's table, Seismo's
 * answers): by its column's kind when the caller knows it (a missing value is then "—", as
 * on every figure), else as the engine gave it, NULL for NULL and objects (arrays, maps,
 * tuples) as JSON.
 */
export function formatCell(value: unknown, kind?: ValueKind): string {
  if (kind) return formatValue(value, kind);
  return value === null || value === undefined ? "NULL" : formatValue(value, undefined);
}

export function formatValue(
  value: unknown,
  kind: ValueKind | undefined,
  options: { isCompact?: boolean } = {},
): string {
  if (value === null || value === undefined) return "—";
  const number = toNumber(value);
  const amount = (n: number) => (options.isCompact ? formatCompact(n) : integer.format(n));
  switch (kind) {
    case "count":
      return number === null ? String(value) : amount(number);
    case "usd":
      return number === null ? String(value) : `$${amount(number)}`;
    case "contracts":
      return number === null ? String(value) : amount(number);
    case "price":
      return number === null ? String(value) : `$${number.toFixed(2)}`;
    case "cents":
      // Dollars as cents, to a tenth: gaps between prices are often under a cent.
      return number === null ? String(value) : `${tenths(number * 100)}¢`;
    case "probability":
      return number === null ? String(value) : `${tenths(number * 100)}%`;
    case "percent":
      return number === null ? String(value) : `${tenths(number)}%`;
    case "datetime":
      return formatTimestamp(String(value));
    case "text":
    case undefined:
      if (typeof value === "object") return JSON.stringify(value);
      return String(value);
    default: {
      const unknown: never = kind;
      return String(unknown);
    }
  }
}

/** To a tenth, and a value that rounds to nothing is 0.0, never -0.0. */
function tenths(value: number): string {
  const text = value.toFixed(1);
  return text === "-0.0" ? "0.0" : text;
}

/** Engine timestamps ("2026-11-21 14:00:00.000", UTC) and dates ("2026-11-21") for people. */
export function parseEngineTime(value: string): Date | null {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(`${text}T00:00:00Z`);
  const iso = text.includes("T") ? text : text.replace(" ", "T");
  const date = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * "Nov 21, 14:05" this year; "Jan 1, 2045, 00:00" in any other, so a close time decades
 * out or a point of last year never passes for one of this year's.
 */
export function formatTimestamp(value: string, now: number = Date.now()): string {
  const date = parseEngineTime(value);
  if (!date) return value;
  const year = date.getUTCFullYear() === new Date(now).getUTCFullYear() ? {} : ({ year: "numeric" } as const);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    return date.toLocaleDateString("en-US", { month: "short", day: "numeric", ...year, timeZone: "UTC" });
  }
  return date.toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    ...year,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "UTC",
  });
}

/** 45 → "45 s", 540 → "9 min", 7200 → "2 h". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** "Nov 21, 2026" from an ISO time, in UTC so everyone reads the same date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "—";
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}
