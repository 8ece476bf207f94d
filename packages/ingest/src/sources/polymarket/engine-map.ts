/**
 * The Gamma → warehouse mapping of `map.ts`, written as SQL so the engine does it.
 *
 * Why: a full snapshot is ~150,000 markets and ~640 MB of JSON. In JavaScript,
 * `JSON.parse`, reading the fields and serialising the row cost ~115 µs per market on the
 * 2-core bench machine, on the one thread the server also answers requests on. The engine
 * reads the page text with its native JSON reader and extracts the fields with simdjson,
 * on both cores, so the snapshot path hands it the page text untouched (`page-batch.ts`).
 *
 * The rules are the ones `upstream-values.ts` documents, one SQL expression per reader:
 * every upstream field is first read as text (`Nullable(String)`: a JSON number, boolean,
 * array or object arrives as its JSON text, a JSON string as its content, absent or null
 * as NULL), then converted, and an object whose field cannot be read gets a `reason`
 * instead of a guessed value. `engine-map.integration.test.ts` proves the two mappings give
 * the same rows on every fixture object and on the odd values the fast reader is tested
 * with. Where the readers cannot agree exactly it is written here (and listed in the test):
 * - A text field holding an array or object keeps its JSON text (JavaScript rejects it),
 *   and an id sent as a JSON boolean is the text "true"/"false".
 * - A number is what the engine's `toFloat64` reads: `"0x10"` is rejected here while
 *   `Number("0x10")` is 16; both reject other non-numeric text.
 * - A time sent as numeric text is read as Unix seconds, as JavaScript reads a JSON number.
 * - `raw` is the upstream object's own text, byte for byte (JavaScript re-serialises it;
 *   both parse to the same object). An event's `raw` leaves out its nested markets, on
 *   both paths (`strip-markets.ts`).
 */

/** How one column is read from its upstream field(s). */
type Reader =
  | { kind: "text"; field: string }
  | { kind: "number"; fields: string[] }
  | { kind: "count"; field: string }
  | { kind: "flag"; field: string }
  | { kind: "list"; field: string }
  | { kind: "time"; field: string };

const text = (field: string): Reader => ({ kind: "text", field });
/** The first field that is present wins (`volumeNum ?? volume`). */
const number = (...fields: string[]): Reader => ({ kind: "number", fields });
const flag = (field: string): Reader => ({ kind: "flag", field });
/** A whole number of things: negative is no count (NULL), a fraction is cut. */
const count = (field: string): Reader => ({ kind: "count", field });
const list = (field: string): Reader => ({ kind: "list", field });
const time = (field: string): Reader => ({ kind: "time", field });

const same = (reader: (field: string) => Reader, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, reader(name)]));

/** `polymarket.markets` columns read straight from a market object, in table order. */
export const MARKET_READERS: Record<string, Reader> = {
  question: text("question"),
  conditionId: text("conditionId"),
  questionID: text("questionID"),
  slug: text("slug"),
  groupItemTitle: text("groupItemTitle"),
  groupItemThreshold: text("groupItemThreshold"),
  outcomes: list("outcomes"),
  clobTokenIds: list("clobTokenIds"),
  ...same(number, "lastTradePrice", "bestBid", "bestAsk", "spread"),
  ...same(number, "oneHourPriceChange", "oneDayPriceChange", "oneWeekPriceChange", "oneMonthPriceChange"),
  volume: number("volumeNum", "volume"),
  ...same(number, "volume24hr", "volume1wk", "volume1mo", "volume1yr", "volumeClob", "volume24hrClob"),
  liquidity: number("liquidityNum", "liquidity"),
  ...same(number, "liquidityClob", "competitive", "orderPriceMinTickSize", "orderMinSize", "umaBond", "umaReward"),
  umaResolutionStatus: text("umaResolutionStatus"),
  umaResolutionStatuses: list("umaResolutionStatuses"),
  ...same(flag, "active", "closed", "archived", "restricted", "acceptingOrders", "enableOrderBook"),
  ...same(flag, "negRisk", "negRiskOther"),
  negRiskMarketID: text("negRiskMarketID"),
  feeType: text("feeType"),
  comboStatus: text("comboStatus"),
  makerRebatesFeeShareBps: number("makerRebatesFeeShareBps"),
  ...same(time, "startDate", "endDate", "createdAt", "updatedAt", "closedTime", "gameStartTime"),
  acceptingOrdersTimestamp: time("acceptingOrdersTimestamp"),
};

/** `polymarket.events` columns read straight from an event object. */
export const EVENT_READERS: Record<string, Reader> = {
  ...same(text, "ticker", "slug", "title", "description", "resolutionSource", "category", "seriesSlug"),
  ...same(time, "startDate", "creationDate", "endDate", "createdAt", "updatedAt", "closedTime"),
  ...same(flag, "active", "closed", "archived", "new", "featured", "restricted", "enableOrderBook"),
  ...same(flag, "negRisk", "enableNegRisk", "negRiskAugmented"),
  negRiskMarketID: text("negRiskMarketID"),
  ...same(number, "liquidity", "liquidityClob", "volume", "volume24hr", "volume1wk", "volume1mo", "volume1yr"),
  ...same(number, "openInterest", "competitive"),
  commentCount: count("commentCount"),
};

const q = (name: string) => `\`${name}\``;
const field = (tuple: string, name: string) => `tupleElement(${tuple}, '${name}')`;

/** The extraction type: every field as text, so nothing the API sends fails the whole object. */
export function textTuple(fields: readonly string[]): string {
  return `Tuple(${fields.map((name) => `${q(name)} Nullable(String)`).join(", ")})`;
}

function fieldsOf(readers: Record<string, Reader>, extra: readonly string[]): string[] {
  const names = new Set(extra);
  for (const reader of Object.values(readers)) {
    if (reader.kind === "number") for (const name of reader.fields) names.add(name);
    else names.add(reader.field);
  }
  return [...names];
}

export const MARKET_FIELDS = fieldsOf(MARKET_READERS, ["id", "outcomePrices", "events"]);
export const EVENT_FIELDS = fieldsOf(EVENT_READERS, ["id", "tags", "series"]);

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
 * `yesProbability` of `map.ts`: the price of the outcome labelled "Yes" (else the first);
 * without prices the bid/ask midpoint of a real book, then a positive last trade price.
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
