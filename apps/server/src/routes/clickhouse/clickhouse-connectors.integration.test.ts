/**
 * Grafana and JDBC as their sources send their requests, against the interface listening
 * on a real port (issue 26):
 * - clickhouse-go over HTTP (Grafana's data source): every request with
 *   `default_format=Native&client_protocol_version=54460`, first its hello
 *   `SELECT displayName(), version(), revision(), timezone()`, then blocks decoded at the
 *   revision the hello returned (`conn_http.go`, `lib/proto/block.go`); with compression on,
 *   `compress=1` and frames checked as ch-go checks them.
 * - JDBC v2 (`client-v2`, DBeaver, Metabase): `compress=1` by default, the answer read
 *   through `ClickHouseLZ4InputStream` (checksum, then LZ4), errors too unless 401 or 403;
 *   `decompress=1` when it compresses requests.
 * The expected bytes come from outside: blocks ch-go's tests hold for a ClickHouse server's
 * encoding, a frame ch-go recorded, and the engine's own Native of each column alone.
 */
import { readFileSync } from "node:fs";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { compressFrameSync, uncompressSync } from "lz4-napi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cityHash128 } from "../../services/clickhouse/cityhash";
import { compressFrame } from "../../services/clickhouse/compressed";
import { type ClickHouseInterface, startClickHouseInterface } from "../../testing/clickhouse-interface";

const GO_REVISION = 54460;
const fixture = (name: string) => readFileSync(new URL(`../../../../../fixtures/clickhouse/${name}`, import.meta.url));

let chi: ClickHouseInterface;
let post: ClickHouseInterface["post"];

beforeAll(async () => {
  chi = await startClickHouseInterface();
  ({ post } = chi);
});

afterAll(async () => {
  await chi?.close();
});

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

/** A frame stream read as JDBC's `ClickHouseLZ4InputStream` reads it: checksum checked, then LZ4. */
function readAsJdbc(body: Buffer): { data: Buffer; frames: number } {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    expect(body[at + 16], "LZ4 magic byte").toBe(0x82);
    const frameBytes = body.readUInt32LE(at + 17);
    const dataBytes = body.readUInt32LE(at + 21);
    const frame = body.subarray(at + 16, at + 16 + frameBytes);
    expect(cityHash128(frame).equals(body.subarray(at, at + 16)), "checksum").toBe(true);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(dataBytes);
    parts.push(uncompressSync(Buffer.concat([size, frame.subarray(9)])));
    at += 16 + frameBytes;
  }
  return { data: Buffer.concat(parts), frames: parts.length };
}

/** Reads what clickhouse-go's `Block.Decode` reads, for the column types used here. */
class GoBlockReader {
  at = 0;
  constructor(private readonly bytes: Buffer) {}
  varUInt(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.bytes[this.at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  }
  str(): string {
    const length = this.varUInt();
    this.at += length;
    return this.bytes.toString("utf8", this.at - length, this.at);
  }
  uint64(): number {
    this.at += 8;
    return Number(this.bytes.readBigUInt64LE(this.at - 8));
  }
  /** `ColLowCardinality`: the state prefix, the granule's flags, its keys, one index a row. */
  lowCardinality(rows: number): string[] {
    expect(this.uint64(), "shared dictionaries with additional keys").toBe(1);
    const flags = this.uint64();
    const keys = Array.from({ length: this.uint64() }, () => this.str());
    expect(this.uint64()).toBe(rows);
    const width = 2 ** (flags & 0xff);
    const values = Array.from({ length: rows }, (_, row) => keys[this.bytes.readUIntLE(this.at + row * width, width)]);
    this.at += rows * width;
    return values as string[];
  }
  block(revision: number): { names: string[]; types: string[]; columns: unknown[][] } {
    if (revision > 0) {
      // decodeBlockInfo: field 1, is_overflows, field 2, bucket_num, end.
      expect([...this.bytes.subarray(this.at, this.at + 8)]).toEqual([1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0]);
      this.at += 8;
    }
    const columns = this.varUInt();
    const rows = this.varUInt();
    const result = { names: [] as string[], types: [] as string[], columns: [] as unknown[][] };
    for (let column = 0; column < columns; column++) {
      result.names.push(this.str());
      const type = this.str();
      result.types.push(type);
      if (revision >= 54454) expect(this.bytes[this.at++], "custom serialization").toBe(0);
      const values: unknown[] = [];
      if (type === "LowCardinality(String)") values.push(...this.lowCardinality(rows));
      else {
        for (let row = 0; row < rows; row++) {
          if (type === "String") values.push(this.str());
          else if (type === "UInt32") {
            values.push(this.bytes.readUInt32LE(this.at));
            this.at += 4;
          } else throw new Error(`the test reads no ${type}`);
        }
      }
      result.columns.push(values);
    }
    return result;
  }
}

describe("Native for a client with a protocol revision (Grafana's clickhouse-go, clickhouse-connect)", () => {
  it("answers clickhouse-go's hello, and its blocks decode at the revision the hello returns", async () => {
    const search = `default_format=Native&client_protocol_version=${GO_REVISION}`;
    const hello = await post("SELECT displayName(), version(), revision(), timezone()", search);
    expect(hello.status, await hello.clone().text()).toBe(200);
    const helloBlock = new GoBlockReader(await bytesOf(hello)).block(GO_REVISION);
    expect(helloBlock.types).toEqual(["String", "String", "UInt32", "String"]);
    const [[displayName], [version], [revision], [timezone]] = helloBlock.columns as [
      [string],
      [string],
      [number],
      [string],
    ];
    expect(displayName).not.toBe("");
    expect(version).toMatch(/^\d+\.\d+/);
    expect(timezone).toBe("UTC");
    // From here on the driver decodes with the server's revision.
    expect(revision).toBeGreaterThanOrEqual(54454);
    const markets = await post("SELECT id, question FROM polymarket.markets ORDER BY id", search);
    const block = new GoBlockReader(await bytesOf(markets)).block(revision);
    expect(block.names).toEqual(["id", "question"]);
    expect(block.columns).toEqual([
      ["m1", "m2", "m3"],
      ["Will m1 happen?", "Will m2 happen?", "Will m3 happen?"],
    ]);
  });

  it("writes blocks byte for byte as ch-go's tests hold a ClickHouse server's encoding", async () => {
    const search = `default_format=Native&client_protocol_version=${GO_REVISION}`;
    const numbers = await post(
      "SELECT count, users FROM values('count Int8, users UInt64', (1, 5467267), (2, 175676), (3, 956105), (4, 18347896), (5, 554714))",
      search,
    );
    expect((await bytesOf(numbers)).equals(fixture("ch-go-block_int8_uint64.raw"))).toBe(true);
    const arrays = await post(
      "SELECT arrayJoin([['foo', 'bar'], ['1', '2', '3', '4'], ['', '123123123']]) AS foo",
      search,
    );
    expect((await bytesOf(arrays)).equals(fixture("ch-go-test_arr_str_block.raw"))).toBe(true);
  });

  it("keeps every column's data as the engine writes that column alone, for every kind of type", async () => {
    const columns = [
      "toLowCardinality(toString(number % 3)) AS lc",
      "if(number % 2 = 0, NULL, toLowCardinality(toNullable(toString(number)))) AS lcn",
      "if(number % 2 = 0, NULL, number) AS n",
      "range(number % 4) AS arr",
      "arrayMap(x -> toLowCardinality(toString(x)), range(number % 3)) AS arr_lc",
      "[[toString(number)], []] AS nested",
      "map('k', number, 'j', 1) AS m",
      "CAST((number, toString(number)), 'Tuple(a UInt64, b String)') AS t",
      "toDecimal64(number / 3, 4) AS d",
      "toDateTime64(number, 3, 'UTC') AS at",
      "toFixedString('ab', 2) AS fs",
      "CAST(number % 2, 'Enum8(\\'a\\' = 0, \\'b,c\\' = 1)') AS e",
      "generateUUIDv4() AS u",
      "toIPv6('::1') AS ip",
      "(toFloat64(number), 1.5)::Point AS p",
      "toDate('2026-01-01') + number AS day",
    ];
    const sql = `SELECT ${columns.join(", ")} FROM numbers(7) ORDER BY number`;
    // UUIDs differ between runs; everything else is fixed.
    const stable = sql.replace("generateUUIDv4()", "toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')");
    const answer = await bytesOf(await post(stable, `default_format=Native&client_protocol_version=${GO_REVISION}`));
    const expected: Buffer[] = [Buffer.from([1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0, columns.length, 7])];
    for (const column of columns) {
      const single = await post(
        `SELECT ${column.replace("generateUUIDv4()", "toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')")} FROM numbers(7) ORDER BY number`,
        "default_format=Native",
      );
      const alone = await bytesOf(single);
      expect(single.status, alone.toString()).toBe(200);
      // Alone: 1 column, 7 rows, then its name, type and data; the data follows its type.
      const reader = new GoBlockReader(alone);
      reader.varUInt();
      reader.varUInt();
      const start = reader.at;
      reader.str();
      reader.str();
      expected.push(alone.subarray(start, reader.at), Buffer.of(0), alone.subarray(reader.at));
    }
    expect(answer.equals(Buffer.concat(expected))).toBe(true);
  });

  it("gives clickhouse-connect's revision (54405) block info without the serialization byte", async () => {
    const answer = await bytesOf(await post("SELECT 1 AS check\n FORMAT Native", "client_protocol_version=54405"));
    expect([...answer]).toEqual([
      1,
      0,
      2,
      0xff,
      0xff,
      0xff,
      0xff,
      0,
      1,
      1,
      5,
      ...Buffer.from("check"),
      5,
      ...Buffer.from("UInt8"),
      1,
    ]);
  });

  it("refuses a type it cannot measure before sending any data, and a revision too old", async () => {
    const dynamic = await post(
      "SELECT 1::Dynamic AS d",
      `default_format=Native&client_protocol_version=${GO_REVISION}`,
    );
    expect(dynamic.status).toBe(400);
    expect(await dynamic.text()).toMatch(
      /^Code: 48\. DB::Exception: Native with client_protocol_version is not produced here for columns of type Dynamic/,
    );
    const old = await post("SELECT 1 FORMAT Native", "client_protocol_version=54000");
    expect(old.status).toBe(400);
    expect(await old.text()).toContain("older than 54405");
    // Other formats do not change with the revision, as on a server.
    expect(await (await post("SELECT 1 FORMAT TSV", `client_protocol_version=${GO_REVISION}`)).text()).toBe("1\n");
  });

  it("streams many blocks of a long answer, each with its block info", async () => {
    const answer = await bytesOf(
      await post(
        "SELECT number, toString(number) AS s FROM numbers(300000)",
        `default_format=Native&client_protocol_version=${GO_REVISION}`,
      ),
    );
    const reader = new GoBlockReader(answer);
    let rows = 0;
    let blocks = 0;
    while (reader.at < answer.length) {
      expect([...answer.subarray(reader.at, reader.at + 8)]).toEqual([1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0]);
      reader.at += 8;
      expect(reader.varUInt()).toBe(2);
      const blockRows = reader.varUInt();
      expect([reader.str(), reader.str(), answer[reader.at++]]).toEqual(["number", "UInt64", 0]);
      reader.at += 8 * blockRows;
      expect([reader.str(), reader.str(), answer[reader.at++]]).toEqual(["s", "String", 0]);
      for (let row = 0; row < blockRows; row++) reader.str();
      rows += blockRows;
      blocks++;
    }
    expect(rows).toBe(300_000);
    expect(blocks).toBeGreaterThan(1);
  });
});

describe("compression as JDBC and clickhouse-go ask for it", () => {
  it("frames the answer under compress=1 as JDBC reads it: checksums hold and the data is the plain answer", async () => {
    const sql = "SELECT number, toString(number) AS s FROM numbers(200000) FORMAT RowBinaryWithNamesAndTypes";
    const plain = await bytesOf(await post(sql));
    const framed = await post(sql, "compress=1");
    expect(framed.status).toBe(200);
    const body = await bytesOf(framed);
    const { data, frames } = readAsJdbc(body);
    expect(data.equals(plain)).toBe(true);
    expect(frames).toBeGreaterThan(1);
    expect(body.length).toBeLessThan(plain.length);
  });

  it("frames Native for clickhouse-go with LZ4 on, the same blocks inside", async () => {
    const search = `default_format=Native&client_protocol_version=${GO_REVISION}`;
    const sql = "SELECT id, question FROM polymarket.markets ORDER BY id";
    const plain = await bytesOf(await post(sql, search));
    expect(readAsJdbc(await bytesOf(await post(sql, `${search}&compress=1`))).data.equals(plain)).toBe(true);
  });

  it("frames errors too, except a refused key, which JDBC reads plain", async () => {
    const failed = await post("SELECT nope FROM polymarket.markets", "compress=1");
    expect(failed.status).toBe(404);
    expect(readAsJdbc(await bytesOf(failed)).data.toString()).toMatch(
      /^Code: 47\. DB::Exception: .*UNKNOWN_IDENTIFIER/,
    );
    const refused = await fetch(`${chi.base}/?compress=1`, {
      method: "POST",
      body: "SELECT 1",
      headers: { "x-clickhouse-key": "ep_live_not_a_key" },
    });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toMatch(/^Code: 516\./);
  });

  it("reads a request in ClickHouse's frames under decompress=1, and refuses a frame whose checksum is wrong", async () => {
    const sql = "SELECT count() FROM polymarket.markets";
    const framed = compressFrame(Buffer.from(sql));
    const answer = await post(framed as unknown as string, "decompress=1");
    expect(await answer.text()).toBe("3\n");
    // ch-go's recorded frame reads too: it holds 175 bytes of "Hello!\n", not a statement.
    const recorded = await post(fixture("ch-go-data_compressed_lz4.raw") as unknown as string, "decompress=1");
    expect(await recorded.text()).toMatch(/SYNTAX_ERROR/);
    const corrupt = Buffer.from(framed);
    corrupt.writeUInt8((corrupt.at(-1) as number) ^ 0x20, corrupt.length - 1);
    const refused = await post(corrupt as unknown as string, "decompress=1");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/^Code: 271\. DB::Exception: A compressed frame's checksum does not match/);
  });

  it("reads request bodies in gzip, br and lz4, and bounds what they expand to", async () => {
    const sql = Buffer.from("SELECT count() FROM polymarket.markets");
    for (const [encoding, body] of [
      ["gzip", gzipSync(sql)],
      ["br", brotliCompressSync(sql)],
      ["lz4", compressFrameSync(sql)],
    ] as const) {
      const answer = await post(body as unknown as string, "", { "content-encoding": encoding });
      expect(await answer.text(), encoding).toBe("3\n");
    }
    // 10 MB of spaces gzip to 10 KB; the body limit applies to what they expand to.
    const bomb = gzipSync(Buffer.alloc(10_000_000, " "));
    const refused = await post(bomb as unknown as string, "", { "content-encoding": "gzip" });
    expect(refused.status).toBe(413);
    // So for LZ4, which expands 255-fold: read a block at a time, refused at the bound.
    const lz4Bomb = fixture("lz4-frame-bomb.lz4");
    const lz4Refused = await post(lz4Bomb as unknown as string, "", { "content-encoding": "lz4" });
    expect(lz4Refused.status).toBe(413);
    expect(await lz4Refused.text()).toContain("QUERY_IS_TOO_LARGE");
    // Linked 64 KB blocks, as Python's lz4.frame writes them, are read whole.
    const linked = fixture("lz4-frame-linked64k.lz4");
    expect(await (await post(linked as unknown as string, "", { "content-encoding": "lz4" })).text()).toBe("3\n");
    const unknown = await post("SELECT 1", "", { "content-encoding": "snappy" });
    expect(unknown.status).toBe(415);
    expect(await unknown.text()).toContain("gzip, x-gzip, deflate, br, lz4");
  });

  it("compresses the answer over HTTP under enable_http_compression=1, in the encoding the client accepts", async () => {
    const response = await post("SELECT number FROM numbers(1000)", "enable_http_compression=1", {
      "accept-encoding": "br, gzip",
    });
    expect(response.headers.get("content-encoding")).toBe("br");
    // fetch decodes it, as clickhouse-go's and JDBC's HTTP stacks do.
    expect((await response.text()).split("\n")[999]).toBe("999");
    const plain = await post("SELECT 1", "", { "accept-encoding": "gzip" });
    expect(plain.headers.get("content-encoding")).toBeNull();
  });
});
