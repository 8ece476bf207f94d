import { readFileSync } from "node:fs";
import { compressFrameSync } from "lz4-napi";
import { describe, expect, it } from "vitest";
import { decodeLz4Frame } from "./lz4-frame";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../../fixtures/clickhouse/lz4-frame-${name}.lz4`, import.meta.url));

/** The text the fixtures were made from (fixtures/clickhouse/README.md). */
const SQL = `SELECT count() FROM polymarket.markets /* ${Array.from(
  { length: 2_500 },
  (_, i) => `word${i % 997} the market resolves to yes`,
).join(" ")} */`;
const LIMIT = 512 * 1024;

describe("decodeLz4Frame", () => {
  it("reads frames as the reference encoder writes them: linked blocks, 4 MB blocks with the size, checksums", () => {
    expect(SQL.length).toBe(87_214);
    for (const name of ["linked64k", "big-content-size", "independent-checksums"]) {
      expect(decodeLz4Frame(fixture(name), LIMIT).toString("utf8"), name).toBe(SQL);
    }
    // And as this project's own encoder (lz4-napi, the clients' tests) writes them.
    expect(decodeLz4Frame(compressFrameSync(Buffer.from(SQL)), LIMIT).toString("utf8")).toBe(SQL);
  });

  it("stops at the bound, before holding what a small frame expands to", () => {
    // 39 KB that expand to 10 MB: refused having decoded at most the bound.
    expect(() => decodeLz4Frame(fixture("bomb"), LIMIT)).toThrow(RangeError);
    // A frame that says its size is refused on its header.
    expect(() => decodeLz4Frame(fixture("big-content-size"), 80_000)).toThrow(RangeError);
    // Linked blocks past the bound, a block at a time.
    expect(() => decodeLz4Frame(fixture("linked64k"), 80_000)).toThrow(RangeError);
  });

  it("refuses what is not a whole LZ4 frame, saying why", () => {
    expect(() => decodeLz4Frame(Buffer.from("SELECT 1"), LIMIT)).toThrow(/not an LZ4 frame/);
    const cut = fixture("linked64k").subarray(0, 2_000);
    expect(() => decodeLz4Frame(cut, LIMIT)).toThrow(/ends early/);
    const damaged = Buffer.from(fixture("independent-checksums"));
    damaged.fill(0xff, 20, 60);
    expect(() => decodeLz4Frame(damaged, LIMIT)).toThrow();
  });
});
