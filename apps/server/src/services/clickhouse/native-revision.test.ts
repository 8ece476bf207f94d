/**
 * The rewriting on its own: blocks as they arrive in chunks of any size, against the bytes
 * ch-go's tests hold for a ClickHouse server's encoding of the same block.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NativeRevisionError, nativeForRevision } from "./native-revision";

const golden = readFileSync(new URL("../../../../../fixtures/clickhouse/ch-go-block_int8_uint64.raw", import.meta.url));
const str = (text: string) => Buffer.concat([Buffer.of(text.length), Buffer.from(text)]);
const users = Buffer.alloc(40);
for (const [row, value] of [5467267, 175676, 956105, 18347896, 554714].entries()) {
  users.writeBigUInt64LE(BigInt(value), row * 8);
}
/** The same block as the engine writes it for a client without a revision. */
const engineBlock = Buffer.concat([
  Buffer.of(2, 5),
  str("count"),
  str("Int8"),
  Buffer.of(1, 2, 3, 4, 5),
  str("users"),
  str("UInt64"),
  users,
]);

async function rewrite(input: Buffer, chunkBytes: number, revision = 54460): Promise<Buffer> {
  async function* chunks() {
    for (let at = 0; at < input.length; at += chunkBytes) yield input.subarray(at, at + chunkBytes);
  }
  const out: Buffer[] = [];
  for await (const block of nativeForRevision(chunks(), revision)) out.push(block);
  return Buffer.concat(out);
}

describe("nativeForRevision", () => {
  it("writes ch-go's block whatever the chunks the engine's bytes arrive in", async () => {
    for (const chunkBytes of [1, 3, 7, 64, 4096]) {
      expect((await rewrite(engineBlock, chunkBytes)).equals(golden), `chunks of ${chunkBytes}`).toBe(true);
    }
    const twice = await rewrite(Buffer.concat([engineBlock, engineBlock]), 5);
    expect(twice.equals(Buffer.concat([golden, golden]))).toBe(true);
  });

  it("writes no serialization byte below revision 54454", async () => {
    const out = await rewrite(engineBlock, 10, 54405);
    expect(out.length).toBe(golden.length - 2);
    expect(out.subarray(0, 10).equals(golden.subarray(0, 10))).toBe(true);
  });

  it("says so when the engine's answer ends inside a block", async () => {
    await expect(rewrite(engineBlock.subarray(0, engineBlock.length - 1), 8)).rejects.toThrow("ended inside a block");
  });

  it("refuses a revision older than LowCardinality", async () => {
    await expect(rewrite(engineBlock, 8, 54000)).rejects.toBeInstanceOf(NativeRevisionError);
  });
});
