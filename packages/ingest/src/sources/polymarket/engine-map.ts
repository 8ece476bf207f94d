/**
 * The engine serves every case: snapshots, the backfill and the demo's seed, on chDB and on a server.
 *
 * The Polymarket mapping, Gamma objects → warehouse rows, as the SQL the engine runs: the
 * one mapping there is. Its columns are declared in `fields.ts`; this module turns that
 * table into the expressions, the input tables' columns and the columns the run's views
 * copy. `page-batch.ts` feeds it the page text.
 *
 * Why the engine: a full snapshot is ~150,000 markets and ~640 MB of JSON. In JavaScript,
 * `JSON.parse`, reading the fields and serialising the row cost ~115 µs per market on the
 * 2-core bench machine, on the one thread the server also answers requests on. The engine
 * reads the page text with its native JSON reader and extracts the fields with simdjson,
 * on both cores.
 *
 * The rules are the ones `upstream-values.ts` documents, one SQL expression per reader:
 * every upstream field is first read as text (`Nullable(String)`: a JSON number, boolean,
 * array or object arrives as its JSON text, a JSON string as its content, absent or null
 * as NULL), then converted, and an object whose field cannot be read gets a `reason`
 * instead of a guessed value. `engine-map.integration.test.ts` holds it to the zod schemas
 * (`schema.ts`, the documented contract of the upstream shapes) on every fixture object
 * and on the odd values. Where the engine reads more leniently than the schema:
 * - A text field holding an array or object keeps its JSON text (the schema rejects it),
 *   and an id sent as a JSON boolean is the text "true"/"false".
 * - A number is what the engine's `toFloat64` reads: `"0x10"` is rejected here while
 *   `Number("0x10")` is 16; both reject other non-numeric text.
 * - A time sent as numeric text is read as Unix seconds, as the schema reads a JSON number.
 * - `raw` is the upstream object's own text, byte for byte. An event's `raw` leaves out
 *   its nested markets (`strip-markets.ts`).
 */

import {
  EVENT_EXTRA_FIELDS,
  EVENT_READERS,
  fieldsOf,
  list,
  MARKET_EXTRA_FIELDS,
  MARKET_READERS,
  type Reader,
} from "./fields";

const q = (name: string) => `\`${name}\``;
const field = (tuple: string, name: string) => `tupleElement(${tuple}, '${name}')`;

/** The extraction type: every field as text, so nothing the API sends fails the whole object. */
export function textTuple(fields: readonly string[]): string {
  return `Tuple(${fields.map((name) => `${q(name)} Nullable(String)`).join(", ")})`;
}

export const MARKET_FIELDS = fieldsOf(MARKET_READERS, MARKET_EXTRA_FIELDS);
export const EVENT_FIELDS = fieldsOf(EVENT_READERS, EVENT_EXTRA_FIELDS);

const trimmed = (value: string) => `trimBoth(${value})`;
const present = (value: string) => `(${value} IS NOT NULL AND ${trimmed(value)} != '')`;
const numberOf = (value: string) => `toFloat64OrNull(${trimmed(value)})`;
const finite = (value: string) => `(${value} IS NOT NULL AND isFinite(assumeNotNull(${value})))`;
/** A time as the engine reads it: best effort for text, Unix seconds for a number. */
const parsedTime = (value: string) =>
  `if(${numberOf(value)} IS NOT NULL, if(${numberOf(value)} > 0, fromUnixTimestamp64Milli(toInt64(${numberOf(value)} * 1000), 'UTC'), NULL), parseDateTime64BestEffortOrNull(${trimmed(value)}, 3, 'UTC'))`;
/**
 * Inside `DateTime64(3)`'s range, else NULL: outside it is an upstream placeholder (Go's
 * zero time `0001-01-01T00:00:00Z` means "unknown"), as `toWarehouseTime` rules.
 */
const timeOf = (value: string) =>
  `if(${parsedTime(value)} BETWEEN toDateTime64('1900-01-01 00:00:00', 3, 'UTC') AND toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC'), ${parsedTime(value)}, NULL)`;
const isList = (value: string) => `(isValidJSON(${value}) AND JSONType(${value}) = 'Array')`;
/** A list of objects (tags, series, a market's parent events), each with an id when `withIds`. */
const isObjectList = (value: string, withIds = false) =>
  `(${isList(value)} AND arrayAll(item -> JSONType(item) = 'Object'${withIds ? ` AND (JSONType(item, 'id') IN ('Int64', 'UInt64', 'Double') OR (JSONType(item, 'id') = 'String' AND JSONExtractString(item, 'id') != ''))` : ""}, JSONExtractArrayRaw(assumeNotNull(${value}))))`;
/** A list's items as text: strings unquoted, anything else as its JSON (what `readStringList` does). */
const listItems = (value: string) =>
  `arrayMap(item -> if(startsWith(item, '"'), JSONExtractString(item), item), JSONExtractArrayRaw(assumeNotNull(${value})))`;

/** The typed value of one column, or NULL / an empty value when the API did not say. */
function valueSql(reader: Reader, tuple: string): string {
  switch (reader.kind) {
    case "text":
      return `ifNull(${field(tuple, reader.field)}, '')`;
    case "number": {
      const readings = reader.fields.map((name) => {
        const read = numberOf(field(tuple, name));
        return `if(${finite(read)}, ${read}, NULL)`;
      });
      return readings.length === 1 ? (readings[0] as string) : `coalesce(${readings.join(", ")})`;
    }
    case "count": {
      const read = numberOf(field(tuple, reader.field));
      return `if(${finite(read)} AND ${read} >= 0, toUInt32(${read}), NULL)`;
    }
    case "flag": {
      const value = field(tuple, reader.field);
      return `multiIf(${value} = 'true', true, ${value} = 'false', false, NULL)`;
    }
    case "list": {
      const value = field(tuple, reader.field);
      return `if(${present(value)} AND ${isList(value)}, ${listItems(value)}, [])`;
    }
    case "time": {
      const value = field(tuple, reader.field);
      return `if(${present(value)}, ${timeOf(value)}, NULL)`;
    }
  }
}

/** Why one field cannot be read ('' when it can): the readers' `Invalid` messages. */
function problemSql(reader: Reader, tuple: string): string[] {
  const names = reader.kind === "number" ? reader.fields : [reader.field];
  return names.flatMap((name) => {
    const check = problemCheck(reader.kind, field(tuple, name), name);
    return check === null ? [] : [check];
  });
}

function problemCheck(kind: Reader["kind"], value: string, name: string): string | null {
  switch (kind) {
    case "text":
      return null;
    case "number":
    case "count":
      return `if(${present(value)} AND NOT ${finite(numberOf(value))}, '${name}: not a number', '')`;
    case "flag":
      return `if(${value} IS NOT NULL AND ${value} NOT IN ('true', 'false'), '${name}: expected a boolean', '')`;
    case "list":
      return `if(${present(value)} AND NOT ${isList(value)}, '${name}: not a JSON-encoded list', '')`;
    case "time":
      return `if(${present(value)} AND ${numberOf(value)} IS NULL AND parseDateTime64BestEffortOrNull(${trimmed(value)}, 3, 'UTC') IS NULL, '${name}: not a timestamp', '')`;
  }
}

function reasonSql(problems: string[]): string {
  return `arrayStringConcat(arraySlice(arrayFilter(p -> p != '', [${problems.join(", ")}]), 1, 3), '; ')`;
}

function idSql(tuple: string): string {
  return `ifNull(${field(tuple, "id")}, '')`;
}

/** The input row of one market: its typed columns, `reason` ('' when valid), and `raw`. */
export function marketSelectList(tuple: string, raw: string): string {
  const id = field(tuple, "id");
  const prices = `arrayMap(p -> toFloat64OrNull(trimBoth(p)), ${valueSql(list("outcomePrices"), tuple)})`;
  const columns = Object.entries(MARKET_READERS).map(([name, reader]) => `${valueSql(reader, tuple)} AS ${q(name)}`);
  const events = field(tuple, "events");
  const problems = [
    `if(NOT ${present(id)}, 'id: required', '')`,
    `if(${events} IS NOT NULL AND NOT ${isObjectList(events, true)}, 'events: expected a list of events', '')`,
    ...problemSql(list("outcomePrices"), tuple),
    ...Object.values(MARKET_READERS).flatMap((reader) => problemSql(reader, tuple)),
  ];
  return [
    `${idSql(tuple)} AS id`,
    ...columns,
    `arrayFilter(p -> isFinite(p), arrayMap(p -> ifNull(p, nan), ${prices})) AS outcomePrices`,
    `${yesProbabilitySql(prices)} AS yes_probability`,
    `${reasonSql(problems)} AS reason`,
    `${raw} AS raw`,
  ].join(",\n  ");
}

/**
 * `yes_probability`, which Gamma does not send: the price of the outcome labelled "Yes"
 * (case-insensitive; otherwise the first outcome, the one Polymarket quotes a market by —
 * "Up", the first team). Without `outcomePrices` (placeholder "Other" markets of neg-risk
 * events) the bid/ask midpoint when there is a real book (bid > 0, ask < 1), then a
 * positive `lastTradePrice`, else NULL: an empty book (bid 0, ask 1) is no estimate.
 * Resolved markets carry "1"/"0" prices, so their value is the settled outcome.
 */
function yesProbabilitySql(prices: string): string {
  const yesIndex = "greatest(arrayFirstIndex(label -> lower(trimBoth(label)) = 'yes', outcomes), 1)";
  const quoted = `arrayElement(${prices}, ${yesIndex})`;
  const hasBook = "bestBid IS NOT NULL AND bestAsk IS NOT NULL AND bestBid > 0 AND bestAsk < 1 AND bestAsk >= bestBid";
  return `multiIf(
    length(${prices}) > 0 AND ${finite(quoted)}, ${quoted},
    ${hasBook}, (bestBid + bestAsk) / 2,
    lastTradePrice > 0, lastTradePrice,
    NULL)`;
}

/** Why an event cannot be read ('' when it can), from its fields as text. */
export function eventReasonSql(tuple: string): string {
  const id = field(tuple, "id");
  const tags = field(tuple, "tags");
  const series = field(tuple, "series");
  return reasonSql([
    `if(NOT ${present(id)}, 'id: required', '')`,
    `if(${tags} IS NOT NULL AND NOT ${isObjectList(tags)}, 'tags: expected a list of tags', '')`,
    `if(${series} IS NOT NULL AND NOT ${isObjectList(series)}, 'series: expected a list of series', '')`,
    ...Object.values(EVENT_READERS).flatMap((reader) => problemSql(reader, tuple)),
  ]);
}

/** The input row of one event: typed columns, tags and series ids, `reason`, and `raw`. */
export function eventSelectList(tuple: string, raw: string): string {
  const tags = field(tuple, "tags");
  const series = field(tuple, "series");
  const tagList = `if(${present(tags)} AND ${isList(tags)}, JSONExtract(assumeNotNull(${tags}), 'Array(Tuple(id Nullable(String), label Nullable(String)))'), [])`;
  const seriesList = `if(${present(series)} AND ${isList(series)}, JSONExtract(assumeNotNull(${series}), 'Array(Tuple(id Nullable(String)))'), [])`;
  const columns = Object.entries(EVENT_READERS).map(([name, reader]) => `${valueSql(reader, tuple)} AS ${q(name)}`);
  return [
    `${idSql(tuple)} AS id`,
    ...columns,
    `arrayMap(t -> ifNull(tupleElement(t, 'label'), ''), ${tagList}) AS tags`,
    `arrayMap(t -> ifNull(tupleElement(t, 'id'), ''), ${tagList}) AS tag_ids`,
    `arrayMap(s -> ifNull(tupleElement(s, 'id'), ''), ${seriesList}) AS series_ids`,
    `${eventReasonSql(tuple)} AS reason`,
    `${raw} AS raw`,
  ].join(",\n  ");
}

/** Column types of the input tables (`page-batch.ts`), beside the page they came from. */
function stageType(reader: Reader): string {
  switch (reader.kind) {
    case "text":
      return "String";
    case "number":
      return "Nullable(Float64)";
    case "count":
      return "Nullable(UInt32)";
    case "flag":
      return "Nullable(Bool)";
    case "list":
      return "Array(String)";
    case "time":
      return "Nullable(DateTime64(3, 'UTC'))";
  }
}

const stageColumns = (readers: Record<string, Reader>) =>
  Object.entries(readers).map(([name, reader]) => `${q(name)} ${stageType(reader)}`);

export const MARKET_INPUT_COLUMNS = [
  "page String",
  "event_id String",
  "event_reason String",
  "id String",
  ...stageColumns(MARKET_READERS),
  "outcomePrices Array(Float64)",
  "yes_probability Nullable(Float64)",
  "reason String",
  "raw String",
];

export const EVENT_INPUT_COLUMNS = [
  "page String",
  "id String",
  ...stageColumns(EVENT_READERS),
  "tags Array(String)",
  "tag_ids Array(String)",
  "series_ids Array(String)",
  "market_count UInt32",
  "reason String",
  "raw String",
];

/** Columns copied from the input rows to `polymarket.markets` / `polymarket.events` as they are. */
export const MARKET_COPIED = ["id", "event_id", ...Object.keys(MARKET_READERS), "outcomePrices", "yes_probability"];
export const EVENT_COPIED = ["id", ...Object.keys(EVENT_READERS), "tags", "tag_ids", "series_ids", "market_count"];

/**
 * The page-level input tables, one row per upstream page as the engine's JSON reader reads
 * it (every field as text): a keyset page, tagged with its URL, and the same page with the
 * events' nested markets cut out (`strip-markets.ts`) and how many each listed.
 */
export const PAGE_INPUT_COLUMNS = [
  "page String",
  `events Array(${textTuple(EVENT_FIELDS).replace(/\)$/, ", markets Array(String))")})`,
];
export const EVENT_PAGE_INPUT_COLUMNS = ["page String", "events Array(String)", "market_counts Array(UInt32)"];

/** The column names of a column list (`name Type, …`), in order. */
export function columnNames(columns: readonly string[]): string {
  return columns.map((column) => column.split(" ")[0]).join(", ");
}

/** Pages (rows of `pageInput`) → one input row per market (`MARKET_INPUT_COLUMNS`). */
export function marketMappingSql(pageInput: string): string {
  return `SELECT ${columnNames(MARKET_INPUT_COLUMNS)} FROM (
SELECT page, event_id, event_reason, ${marketSelectList("x", "m")}
FROM (
  SELECT page, event_id, event_reason, m, JSONExtract(m, '${textTuple(MARKET_FIELDS)}') AS x
  FROM (
    SELECT page, ifNull(tupleElement(e, 'id'), '') AS event_id, ${eventReasonSql("e")} AS event_reason,
      tupleElement(e, 'markets') AS markets
    FROM ${pageInput}
    ARRAY JOIN events AS e
  )
  ARRAY JOIN markets AS m
))`;
}

/** Stripped pages (rows of `eventPageInput`) → one input row per event (`EVENT_INPUT_COLUMNS`). */
export function eventMappingSql(eventPageInput: string): string {
  return `SELECT ${columnNames(EVENT_INPUT_COLUMNS)} FROM (
SELECT page, ${eventSelectList("x", "e")}, market_count
FROM (
  SELECT page, e, market_count, JSONExtract(e, '${textTuple(EVENT_FIELDS)}') AS x
  FROM ${eventPageInput}
  ARRAY JOIN events AS e, market_counts AS market_count
))`;
}
