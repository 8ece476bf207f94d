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

/**
 * The readers as plain functions, from which the zod fields below are built (the
 * documented contract; Polymarket's engine mapping applies the same rules as SQL, held to
 * these by `engine-map.integration.test.ts`). Each returns the value, or an `Invalid`
 * carrying the message the schema reports.
 */
export class Invalid {
  constructor(readonly message: string) {}
}

export function readNumberish(value: unknown): number | null | Invalid {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return new Invalid(`expected a number, got ${typeof value}`);
  const text = value.trim();
  if (text === "") return null;
  const parsed = Number(text);
  if (!Number.isFinite(parsed)) return new Invalid(`not a number: ${JSON.stringify(value.slice(0, 40))}`);
  return parsed;
}

export function readTimestamp(value: unknown): number | null | Invalid {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    const known = PARSED_TIME.get(value);
    if (known !== undefined) return known;
  }
  if (typeof value !== "string" && typeof value !== "number") {
    return new Invalid(`expected a timestamp, got ${typeof value}`);
  }
  const parsed = parseUpstreamTime(value);
  if (parsed === undefined) return new Invalid(`not a timestamp: ${JSON.stringify(String(value).slice(0, 40))}`);
  if (typeof value === "string") {
    if (PARSED_TIME.size >= TIME_TEXT_LIMIT) PARSED_TIME.clear();
    PARSED_TIME.set(value, parsed);
  }
  return parsed;
}

/** Upstream time text → its reading, for the text that recurs across pages and runs. */
const PARSED_TIME = new Map<string, number | null>();

export function readStringList(value: unknown): string[] | Invalid {
  if (value === null || value === undefined || value === "") return [];
  if (typeof value !== "string" && !Array.isArray(value)) return new Invalid(`expected a list, got ${typeof value}`);
  let list: unknown = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return new Invalid(`not a JSON-encoded list: ${JSON.stringify(value.slice(0, 40))}`);
    }
  }
  if (!Array.isArray(list)) return new Invalid("JSON-encoded value is not a list");
  return list.map((item) => (typeof item === "string" ? item : JSON.stringify(item)));
}

export function readText(value: unknown): string | Invalid {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return new Invalid(`expected text, got ${typeof value}`);
}

export function readFlag(value: unknown): boolean | null | Invalid {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  return new Invalid(`expected a boolean, got ${typeof value}`);
}

/** A zod field built from a plain reader: same value, same message on failure. */
function fromReader<T>(read: (value: unknown) => T | Invalid) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      const result = read(value);
      if (result instanceof Invalid) {
        ctx.addIssue({ code: "custom", message: result.message });
        return z.NEVER;
      }
      return result;
    });
}

/** A number, a numeric string, or absent/empty → number | null. Non-numeric text fails. */
export const zNumberish = fromReader(readNumberish);

/** A timestamp in any of the shapes the APIs send → epoch milliseconds | null. */
export const zTimestamp = fromReader(readTimestamp);

/** A list sent either as a real array or JSON-encoded in a string → string[]. */
export const zStringList = fromReader(readStringList);

export const zText = fromReader(readText);

export const zFlag = fromReader(readFlag);

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
  // The same few timestamps recur on every page and every run (creation and end dates),
  // and formatting one costs more than the rest of its field; remember recent answers.
  const known = TIME_TEXT.get(ms);
  if (known !== undefined) return known;
  const text = new Date(ms).toISOString().replace("T", " ").replace("Z", "");
  if (TIME_TEXT.size >= TIME_TEXT_LIMIT) TIME_TEXT.clear();
  TIME_TEXT.set(ms, text);
  return text;
}

const TIME_TEXT = new Map<number, string>();
const TIME_TEXT_LIMIT = 200_000;

export function sum(values: ReadonlyArray<number | null>): number {
  let total = 0;
  for (const value of values) total += value ?? 0;
  return total;
}
