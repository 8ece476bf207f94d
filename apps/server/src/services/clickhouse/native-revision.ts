/**
 * Native for a client that names a protocol revision (`client_protocol_version`), as
 * clickhouse-go under Grafana's data source and clickhouse-connect ask for it over HTTP.
 *
 * The embedded engine writes Native as a server does for a client without a revision:
 * per block the column and row counts, then per column its name, type and data. A client
 * with a revision reads two more things, which a ClickHouse server writes for it
 * (`NativeWriter`): before each block, its block info (`is_overflows`, `bucket_num`), and
 * from revision 54454 on, after each column's type, one byte saying whether the column has
 * a custom (sparse) serialization — never here, as the engine writes every column whole.
 *
 * Adding them needs each column's extent, so the engine's blocks are read as they stream:
 * every type the archive and user SQL produce is measured (numbers, strings, dates, enums,
 * decimals, UUIDs and addresses, `Nullable`, `Array`, `Tuple`, `Map`, `LowCardinality`,
 * the geo types); a type whose extent this reader does not know (`Dynamic`, `JSON`,
 * `Variant`, aggregate states) is refused before any byte is sent.
 */

/** The revisions that change what is written. */
const REVISION_WITH_LOW_CARDINALITY = 54405;
const REVISION_WITH_CUSTOM_SERIALIZATION = 54454;

/** Block info as a server writes it: field 1 `is_overflows` = 0, field 2 `bucket_num` = -1, end. */
const BLOCK_INFO = Buffer.from([0x01, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00]);

/** A column type the reader cannot measure, or a revision it cannot serve. */
export class NativeRevisionError extends Error {}

/** More bytes are needed to finish the block; thrown by the reader, caught by the loop. */
class NeedMore extends Error {}
const NEED_MORE = new NeedMore();

class Reader {
  at = 0;
  constructor(private readonly bytes: Buffer) {}

  skip(count: number): void {
    if (this.at + count > this.bytes.length) throw NEED_MORE;
    this.at += count;
  }
  varUInt(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.bytes.length) throw NEED_MORE;
      const byte = this.bytes[this.at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  }
  uint64(): number {
    if (this.at + 8 > this.bytes.length) throw NEED_MORE;
    const value = this.bytes.readBigUInt64LE(this.at);
    this.at += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new NativeRevisionError("A Native count is out of range");
    return Number(value);
  }
  string(): string {
    const length = this.varUInt();
    const start = this.at;
    this.skip(length);
    return this.bytes.toString("utf8", start, this.at);
  }
}

/** A column type as a tree: `Array(Nullable(String))` → Array → Nullable → String. */
interface ColumnType {
  name: string;
  args: string[];
}

function parseType(text: string): ColumnType {
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  if (open < 0) return { name: trimmed, args: [] };
  return { name: trimmed.slice(0, open), args: splitTopLevel(trimmed.slice(open + 1, trimmed.lastIndexOf(")"))) };
}

/** Splits `a, Tuple(b, c), 'd,e'` at its top-level commas. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote) {
      if (char === "\\") i++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === "`" || char === '"') quote = char;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "," && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (text.slice(start).trim() !== "") parts.push(text.slice(start).trim());
  return parts;
}

/** A named tuple's element (`price Float64`) as its type; an unnamed one as it is. */
function tupleElement(text: string): ColumnType {
  const named = /^(`(?:[^`\\]|\\.)*`|[A-Za-z_][A-Za-z0-9_]*)\s+(.+)$/s.exec(text);
  return parseType(named && !/^[A-Za-z_][A-Za-z0-9_]*\(/.test(text) ? (named[2] as string) : text);
}

const FIXED_WIDTHS: Readonly<Record<string, number>> = {
  Bool: 1,
  Int8: 1,
  UInt8: 1,
  Enum8: 1,
  Int16: 2,
  UInt16: 2,
  Enum16: 2,
  Date: 2,
  BFloat16: 2,
  Int32: 4,
  UInt32: 4,
  Float32: 4,
  Date32: 4,
  DateTime: 4,
  IPv4: 4,
  Decimal32: 4,
  Time: 4,
  Int64: 8,
  UInt64: 8,
  Float64: 8,
  DateTime64: 8,
  Decimal64: 8,
  Time64: 8,
  Int128: 16,
  UInt128: 16,
  Decimal128: 16,
  UUID: 16,
  IPv6: 16,
  Int256: 32,
  UInt256: 32,
  Decimal256: 32,
  // Writes one placeholder byte per row.
  Nothing: 1,
};

/** What the geo types are made of. */
const GEO_TYPES: Readonly<Record<string, string>> = {
  Point: "Tuple(Float64, Float64)",
  Ring: "Array(Point)",
  LineString: "Array(Point)",
  Polygon: "Array(Ring)",
  MultiLineString: "Array(LineString)",
  MultiPolygon: "Array(Polygon)",
};

function fixedWidth(type: ColumnType): number | undefined {
  if (type.name === "FixedString") return Number(type.args[0]);
  if (type.name === "Decimal") {
    const precision = Number(type.args[0]);
    return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
  }
  if (type.name.startsWith("Interval")) return 8;
  return FIXED_WIDTHS[type.name];
}

/** The state prefix a column's data starts with: one version word per `LowCardinality` inside it. */
function skipPrefix(reader: Reader, type: ColumnType): void {
  const geo = GEO_TYPES[type.name];
  if (geo) {
    skipPrefix(reader, parseType(geo));
  } else if (type.name === "LowCardinality") {
    reader.uint64();
  } else if (type.name === "Nullable" || type.name === "Array" || type.name === "SimpleAggregateFunction") {
    skipPrefix(reader, parseType(type.args.at(-1) as string));
  } else if (type.name === "Map") {
    for (const arg of type.args) skipPrefix(reader, parseType(arg));
  } else if (type.name === "Tuple") {
    for (const arg of type.args) skipPrefix(reader, tupleElement(arg));
  }
}

/** Moves past `rows` values of `type` (after its prefix). */
function skipValues(reader: Reader, type: ColumnType, rows: number): void {
  if (rows === 0) return;
  const width = fixedWidth(type);
  const geo = GEO_TYPES[type.name];
  const inner = () => parseType(type.args.at(-1) as string);
  if (width !== undefined) {
    reader.skip(width * rows);
  } else if (geo) {
    skipValues(reader, parseType(geo), rows);
  } else if (type.name === "String") {
    for (let row = 0; row < rows; row++) reader.skip(reader.varUInt());
  } else if (type.name === "Nullable") {
    reader.skip(rows);
    skipValues(reader, inner(), rows);
  } else if (type.name === "SimpleAggregateFunction") {
    skipValues(reader, inner(), rows);
  } else if (type.name === "Array" || type.name === "Map") {
    // Cumulative offsets: the last is the number of items.
    reader.skip(8 * (rows - 1));
    const items = reader.uint64();
    for (const arg of type.args) skipValues(reader, parseType(arg), items);
  } else if (type.name === "Tuple") {
    for (const arg of type.args) skipValues(reader, tupleElement(arg), rows);
  } else if (type.name === "LowCardinality") {
    skipLowCardinality(reader, type, rows);
  } else {
    throw new NativeRevisionError(
      `Native with client_protocol_version is not produced here for columns of type ${type.name}: cast the column (to String, say) or ask for RowBinaryWithNamesAndTypes`,
    );
  }
}

/** One granule: its index width and flags, the dictionary keys it adds, then one index per row. */
function skipLowCardinality(reader: Reader, type: ColumnType, rows: number): void {
  const flags = reader.uint64();
  if (flags & 0x100) throw new NativeRevisionError("LowCardinality with a shared dictionary is not read here");
  if (flags & 0x200) {
    const keys = reader.uint64();
    // The dictionary of LowCardinality(Nullable(T)) holds T; null is its first key.
    const keyType = parseType(type.args[0] as string);
    skipValues(reader, keyType.name === "Nullable" ? parseType(keyType.args[0] as string) : keyType, keys);
  }
  const indexes = reader.uint64();
  if (indexes !== rows) throw new NativeRevisionError("A LowCardinality column has more indexes than rows");
  reader.skip(indexes * 2 ** (flags & 0xff));
}

/** One block of the engine's Native rewritten for `revision`; `consumed` bytes of the input read. */
function rewriteBlock(bytes: Buffer, revision: number): { block: Buffer; consumed: number } {
  const reader = new Reader(bytes);
  const columns = reader.varUInt();
  const rows = reader.varUInt();
  const parts: Buffer[] = [BLOCK_INFO, bytes.subarray(0, reader.at)];
  for (let column = 0; column < columns; column++) {
    const start = reader.at;
    reader.string();
    const type = parseType(reader.string());
    parts.push(bytes.subarray(start, reader.at));
    if (revision >= REVISION_WITH_CUSTOM_SERIALIZATION) parts.push(Buffer.of(0));
    const data = reader.at;
    // Zero rows are written as zero bytes, prefix included.
    if (rows > 0) {
      skipPrefix(reader, type);
      skipValues(reader, type, rows);
    }
    parts.push(bytes.subarray(data, reader.at));
  }
  return { block: Buffer.concat(parts), consumed: reader.at };
}

/**
 * The engine's Native stream as a client of `revision` reads it, block by block as the
 * engine's blocks arrive. A block is retried only once the bytes held have doubled (or
 * the input ended), so a large block split into many chunks is read a bounded number of
 * times.
 */
export async function* nativeForRevision(source: AsyncIterable<Buffer>, revision: number): AsyncGenerator<Buffer> {
  if (revision < REVISION_WITH_LOW_CARDINALITY) {
    throw new NativeRevisionError(
      `client_protocol_version ${revision} is older than ${REVISION_WITH_LOW_CARDINALITY}, the oldest served here: send ${REVISION_WITH_LOW_CARDINALITY} or later, or leave it out`,
    );
  }
  let held: Buffer = Buffer.alloc(0);
  let retryAt = 0;
  const drain = function* (ended: boolean): Generator<Buffer> {
    while (held.length > 0 && (ended || held.length >= retryAt)) {
      let rewritten: { block: Buffer; consumed: number };
      try {
        rewritten = rewriteBlock(held, revision);
      } catch (error) {
        if (!(error instanceof NeedMore)) throw error;
        if (ended) throw new NativeRevisionError("The engine's Native answer ended inside a block");
        retryAt = held.length * 2;
        return;
      }
      yield rewritten.block;
      held = held.subarray(rewritten.consumed);
      retryAt = 0;
    }
  };
  for await (const chunk of source) {
    held = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
    yield* drain(false);
  }
  yield* drain(true);
}
