/**
 * The hot-path reader for Gamma objects: the same result as `ZGammaMarket.safeParse` /
 * `ZGammaEvent.safeParse` (`schema.ts`, which stays the documented contract) without
 * zod's per-field machinery, which cost ≈110 µs per market and was the largest share of
 * a 150,000-market snapshot.
 *
 * It is not a second copy of the rules. The field list is read from the zod schemas'
 * shapes, and each field is matched, by identity, to the plain reader that its zod field
 * is built from (`upstream-values.ts`: `zNumberish` wraps `readNumberish`, and so on), so
 * adding a field to a schema adds it here. The few composite fields (ids, `tags`,
 * `series`, `events`, `markets`) are spelled out below and covered by the equivalence
 * test (`fast-read.test.ts`: every object of every fixture, plus mutated objects, gives
 * the same output or the same verdict as zod).
 *
 * On any invalid field the reader answers `undefined` and the caller runs the zod path,
 * so a rejected object is logged with exactly zod's issues.
 */
import type { z } from "zod";
import {
  Invalid,
  readFlag,
  readNumberish,
  readStringList,
  readText,
  readTimestamp,
  zFlag,
  zNumberish,
  zStringList,
  zText,
  zTimestamp,
} from "../../upstream-values";
import { type GammaEvent, type GammaMarket, ZGammaEvent, ZGammaMarket } from "./schema";

type Reader = (value: unknown) => unknown;
type Plan = ReadonlyArray<readonly [string, Reader]>;
type Json = Record<string, unknown>;

const PLAIN_READERS = new Map<z.ZodType, Reader>([
  [zText, readText],
  [zNumberish, readNumberish],
  [zFlag, readFlag],
  [zTimestamp, readTimestamp],
  [zStringList, readStringList],
]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `zId`: a non-empty string or a finite number, as text. */
function readId(value: unknown): string | Invalid {
  if (typeof value === "string") return value.length > 0 ? value : new Invalid("empty id");
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return new Invalid("invalid id");
}

/** `z.array(z.object({...}).loose()).nullish()`: unknown keys kept, known keys read. */
function looseList(plan: Plan): Reader {
  return (value) => {
    if (value === null || value === undefined) return value;
    if (!Array.isArray(value)) return new Invalid("expected a list");
    const out: Json[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item = value[i];
      if (!isObject(item)) return new Invalid("expected an object");
      const read = readWith(plan, item, { ...item });
      if (read === undefined) return new Invalid("invalid item");
      out[i] = read;
    }
    return out;
  };
}

/** `z.array(z.unknown()).nullish()`. */
function unknownList(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  return Array.isArray(value) ? value.slice() : new Invalid("expected a list");
}

function planOf(shape: Record<string, unknown>, special: Record<string, Reader>): Plan {
  return Object.keys(shape).map((key) => {
    const reader = special[key] ?? PLAIN_READERS.get(shape[key] as z.ZodType);
    if (!reader) throw new Error(`fast-read: no reader for field ${key}`);
    return [key, reader] as const;
  });
}

function readWith(plan: Plan, input: Json, out: Json): Json | undefined {
  for (let i = 0; i < plan.length; i += 1) {
    const [key, read] = plan[i] as readonly [string, Reader];
    const value = read(input[key]);
    if (value instanceof Invalid) return undefined;
    // zod leaves an absent optional key absent (the plain readers never answer undefined).
    if (value !== undefined || key in input) out[key] = value;
  }
  return out;
}

const TAG_PLAN = planOf({ id: zText, label: zText, slug: zText }, {});
const SERIES_PLAN = planOf({ id: zText, slug: zText }, {});
const PARENT_PLAN = planOf({ id: null }, { id: readId });

const MARKET_PLAN = planOf(ZGammaMarket.shape, { id: readId, events: looseList(PARENT_PLAN) });
const EVENT_PLAN = planOf(ZGammaEvent.shape, {
  id: readId,
  tags: looseList(TAG_PLAN),
  series: looseList(SERIES_PLAN),
  markets: unknownList,
});

/** `ZGammaMarket.parse(raw)` when it would succeed; `undefined` when zod would reject it. */
export function fastReadGammaMarket(raw: unknown): GammaMarket | undefined {
  if (!isObject(raw)) return undefined;
  return readWith(MARKET_PLAN, raw, {}) as GammaMarket | undefined;
}

/** `ZGammaEvent.parse(raw)` when it would succeed; `undefined` when zod would reject it. */
export function fastReadGammaEvent(raw: unknown): GammaEvent | undefined {
  if (!isObject(raw)) return undefined;
  return readWith(EVENT_PLAN, raw, {}) as GammaEvent | undefined;
}
