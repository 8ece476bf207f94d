/**
 * The Gamma API payloads as zod schemas, as lenient as the API is (API_FORMATS.md §1): the
 * documented contract of the upstream shapes, which the tests hold the fixtures and the
 * engine's mapping (`engine-map.ts`) to. They map nothing: rows are made by the engine.
 *
 * Only identity fields are required: an object without an `id` cannot be stored and is
 * rejected. Everything else may be absent (Gamma drops zero-valued fields), may be a
 * number sent as a string, or a JSON-encoded list. Unknown fields are ignored here and
 * kept verbatim in the `raw` column. The plain fields are the ones the column table
 * (`fields.ts`) reads, each with the lenient reader of its kind (`upstream-values.ts`), so
 * a column is declared once; the composite fields (ids, `tags`, `series`, a market's
 * parent `events`, an event's `markets`) are spelled out below. The page envelope
 * (`ZGammaEventsKeysetPage`) is strict, since a page without its list is a truncated or
 * garbled transfer.
 */
import { z } from "zod";
import { zFlag, zNumberish, zStringList, zText, zTimestamp } from "../../upstream-values";
import { EVENT_READERS, MARKET_READERS, type Reader, upstreamFields } from "./fields";

const zId = z.union([z.string().min(1), z.number()]).transform(String);

const READER_SCHEMAS: Record<Reader["kind"], z.ZodType> = {
  text: zText,
  number: zNumberish,
  count: zNumberish,
  flag: zFlag,
  list: zStringList,
  time: zTimestamp,
};

function plainFields(readers: Record<string, Reader>): Record<string, z.ZodType> {
  return Object.fromEntries([...upstreamFields(readers)].map(([name, kind]) => [name, READER_SCHEMAS[kind]]));
}

export const ZGammaTag = z.object({ id: zText, label: zText, slug: zText });

export const ZGammaMarket = z.object({
  id: zId,
  ...plainFields(MARKET_READERS),
  outcomePrices: zStringList,
  /** Only on `/markets` responses: the parent event(s). */
  events: z.array(z.object({ id: zId }).loose()).nullish(),
});
export type GammaMarket = z.infer<typeof ZGammaMarket>;

export const ZGammaEvent = z.object({
  id: zId,
  ...plainFields(EVENT_READERS),
  tags: z.array(ZGammaTag.loose()).nullish(),
  series: z.array(z.object({ id: zText, slug: zText }).loose()).nullish(),
  /** Validated one by one, so one bad market does not sink its event. */
  markets: z.array(z.unknown()).nullish(),
});
export type GammaEvent = z.infer<typeof ZGammaEvent>;

/** `GET /events/keyset`: the list plus the cursor of the next page (absent on the last). */
export const ZGammaEventsKeysetPage = z.object({
  events: z.array(z.unknown()),
  next_cursor: z.string().nullish(),
});
export type GammaEventsKeysetPage = z.infer<typeof ZGammaEventsKeysetPage>;
