/**
 * Lenient readers for the value shapes both upstream APIs actually send, shared by the
 * per-source zod schemas.
 *
 * The APIs are loose in ways a fixture-shaped client trips over (API_FORMATS.md): numbers
 * arrive as strings (`"54502.0171"`), zero-valued fields are absent rather than 0, arrays
 * arrive JSON-encoded inside a string (`"[\"Yes\", \"No\"]"`), timestamps come as ISO,
 * Postgres-style (`2026-01-23 20:56:36+00`) or date-only, and Kalshi's nested markets
 * carry Go's zero time `0001-01-01T00:00:00Z` for "unknown". Every reader here maps the
 * unknowable to `null` instead of guessing, so a NULL in the warehouse always means "the
 * API did not say", never "we failed to parse".
 */
import { z } from "zod";

/** A number, a numeric string, or absent/empty → number | null. Non-numeric text fails. */
export const zNumberish = z
  .unknown()
  .optional()
  .transform((value, ctx): number | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (typeof value !== "string") {
      ctx.addIssue({ code: "custom", message: `expected a number, got ${typeof value}` });
      return z.NEVER;
    }
    const text = value.trim();
    if (text === "") return null;
    const parsed = Number(text);
    if (!Number.isFinite(parsed)) {
      ctx.addIssue({ code: "custom", message: `not a number: ${JSON.stringify(value.slice(0, 40))}` });
      return z.NEVER;
    }
    return parsed;
  });

/** A timestamp in any of the shapes the APIs send → epoch milliseconds | null. */
export const zTimestamp = z
  .unknown()
  .optional()
  .transform((value, ctx): number | null => {
    if (value === null || value === undefined) return null;
    if (typeof value !== "string" && typeof value !== "number") {
      ctx.addIssue({ code: "custom", message: `expected a timestamp, got ${typeof value}` });
      return z.NEVER;
    }
    const parsed = parseUpstreamTime(value);
    if (parsed === undefined) {
      ctx.addIssue({ code: "custom", message: `not a timestamp: ${JSON.stringify(String(value).slice(0, 40))}` });
      return z.NEVER;
    }
    return parsed;
  });

/** A list sent either as a real array or JSON-encoded in a string → string[]. */
export const zStringList = z
  .unknown()
  .optional()
  .transform((value, ctx): string[] => {
    if (value === null || value === undefined || value === "") return [];
    if (typeof value !== "string" && !Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: `expected a list, got ${typeof value}` });
      return z.NEVER;
    }
    let list: unknown = value;
    if (typeof value === "string") {
      try {
        list = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", message: `not a JSON-encoded list: ${JSON.stringify(value.slice(0, 40))}` });
        return z.NEVER;
      }
    }
    if (!Array.isArray(list)) {
      ctx.addIssue({ code: "custom", message: "JSON-encoded value is not a list" });
      return z.NEVER;
    }
    return list.map((item) => (typeof item === "string" ? item : JSON.stringify(item)));
  });

export const zText = z
  .unknown()
  .optional()
  .transform((value, ctx): string => {
    if (value === null || value === undefined) return "";
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    ctx.addIssue({ code: "custom", message: `expected text, got ${typeof value}` });
    return z.NEVER;
  });

export const zFlag = z
  .unknown()
  .optional()
  .transform((value, ctx): boolean | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    ctx.addIssue({ code: "custom", message: `expected a boolean, got ${typeof value}` });
    return z.NEVER;
  });

const GO_ZERO_TIME_YEAR = 1;
const POSTGRES_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Epoch ms for an upstream time, `null` for "unknown" (empty, Go zero time), `undefined`
 * for text that is no time at all. Numbers are Unix seconds (Kalshi `*_ts` filters).
 */
export function parseUpstreamTime(value: string | number): number | null | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value * 1000 : null;
  const text = value.trim();
  if (text === "") return null;
  let iso = text;
  const postgres = POSTGRES_TIME.exec(text);
  if (postgres) iso = `${postgres[1]}T${postgres[2]}${postgres[3]}:${postgres[4] ?? "00"}`;
  else if (DATE_ONLY.test(text)) iso = `${text}T00:00:00Z`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  if (new Date(ms).getUTCFullYear() <= GO_ZERO_TIME_YEAR) return null;
  return ms;
}

/** `DateTime64(3, 'UTC')` text for JSONEachRow, or null. */
export function toWarehouseTime(ms: number | null): string | null {
  if (ms === null) return null;
  // DateTime64(3) covers 1900..2299; anything outside is an upstream placeholder.
  if (ms < -2208988800000 || ms > 10413792000000) return null;
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

export function sum(values: ReadonlyArray<number | null>): number {
  let total = 0;
  for (const value of values) total += value ?? 0;
  return total;
}
