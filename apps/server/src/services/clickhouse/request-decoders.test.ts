/**
 * Every request-body decoder of the ClickHouse interface under a seeded fuzz and the red
 * team's frames: an LZ4 frame (`Content-Encoding: lz4`), ClickHouse's checksummed frames
 * (`decompress=1`), gzip/deflate/br. Each input either decodes to the bytes a reference
 * model says, or is refused cleanly (a `ClickHouseRefusal`: 400 CANNOT_DECOMPRESS, or 413
 * QUERY_IS_TOO_LARGE past the bound) — never another exception, never more than the bound.
 *
 * The references: `lz4-napi` (lz4_flex) writes independent blocks and whole frames; linked
 * blocks, which it does not write, are written here sequence by sequence with the format's
 * rule (`out[p] = out[p - offset]`) as the model of what they mean. Frames of many tiny
 * blocks are how the red team held the event loop (quadratic dictionary rebuilding): they
 * must decode correctly within an ordinary test's time; the figure is in the report.
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { compressFrameSync, compressSync } from "lz4-napi";
import { describe, expect, it } from "vitest";
import { cityHash128 } from "./cityhash";
import { compressFrame, readFrames } from "./compressed";
import { decodeRequestBody } from "./http-encoding";
import { decodeLz4Frame } from "./lz4-frame";
import { ClickHouseRefusal } from "./protocol";

const LIMIT = 512 * 1024;

/** mulberry32: the same cases on every run; a failure names its seed. */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const bytes = (length: number, alphabet = 256) => Buffer.from(Array.from({ length }, () => int(0, alphabet - 1)));
  return { next, int, bytes };
}

interface Sequence {
  literals: Buffer;
  match?: { offset: number; length: number };
}

/** An LZ4 length: the token's nibble, then 255s and the rest when it is 15 or more. */
function lengthBytes(value: number): number[] {
  const bytes: number[] = [];
  for (let left = value - 15; left >= 0; left -= 255) bytes.push(Math.min(left, 255));
  return bytes;
}

/** A raw LZ4 block of these sequences (the last should have no match, as encoders write). */
function block(sequences: readonly Sequence[]): Buffer {
  const out: number[] = [];
  for (const { literals, match } of sequences) {
    const matchCode = match ? match.length - 4 : 0;
    out.push((Math.min(literals.length, 15) << 4) | Math.min(matchCode, 15));
    if (literals.length >= 15) out.push(...lengthBytes(literals.length));
    out.push(...literals);
    if (match) {
      out.push(match.offset & 0xff, match.offset >> 8);
      if (matchCode >= 15) out.push(...lengthBytes(matchCode));
    }
  }
  return Buffer.from(out);
}

/** What the sequences mean after `history`: the format's rule, one byte at a time. */
function model(history: number[], sequences: readonly Sequence[]): void {
  for (const { literals, match } of sequences) {
    history.push(...literals);
    if (!match) continue;
    for (let k = 0; k < match.length; k++) history.push(history[history.length - match.offset] as number);
  }
}

type FrameBlock = { stored: Buffer } | { compressed: Buffer };

/** An LZ4 frame: version 01, 64 KiB blocks (BD id 4) unless told, no checksums unless told. */
function lz4Frame(
  blocks: readonly FrameBlock[],
  options: { linked?: boolean; blockSizeId?: number; contentSize?: bigint; blockChecksums?: boolean } = {},
): Buffer {
  const flags =
    0x40 |
    (options.linked === false ? 0x20 : 0) |
    (options.blockChecksums ? 0x10 : 0) |
    (options.contentSize === undefined ? 0 : 0x08);
  const parts: Buffer[] = [Buffer.from([0x04, 0x22, 0x4d, 0x18, flags, (options.blockSizeId ?? 4) << 4])];
  if (options.contentSize !== undefined) {
    const size = Buffer.alloc(8);
    size.writeBigUInt64LE(options.contentSize);
    parts.push(size);
  }
  parts.push(Buffer.from([0])); // header checksum: not verified
  for (const item of blocks) {
    const data = "stored" in item ? item.stored : item.compressed;
    const word = Buffer.alloc(4);
    word.writeUInt32LE((("stored" in item ? 0x80000000 : 0) | data.length) >>> 0);
    parts.push(word, data);
    if (options.blockChecksums) parts.push(Buffer.alloc(4));
  }
  parts.push(Buffer.alloc(4));
  return Buffer.concat(parts);
}

/** One of ClickHouse's frames by hand: method, payload, the size it says, its checksum. */
function clickhouseFrame(method: number, payload: Buffer, dataBytes: number): Buffer {
  const frame = Buffer.alloc(16 + 9 + payload.length);
  frame[16] = method;
  frame.writeUInt32LE(9 + payload.length, 17);
  frame.writeUInt32LE(dataBytes, 21);
  payload.copy(frame, 25);
  cityHash128(frame.subarray(16)).copy(frame, 0);
  return frame;
}

/** The decoder as the route calls it: the answer, or the refusal it would send. */
function decoded(
  body: Buffer,
  options: { encoding?: string; framed?: boolean; maxBytes?: number },
): Buffer | { status: number; code: number; message: string } {
  try {
    return decodeRequestBody(body, {
      encoding: options.encoding,
      framed: options.framed ?? false,
      maxBytes: options.maxBytes ?? LIMIT,
    });
  } catch (error) {
    // Anything but a refusal is a defect: a TypeError, an out-of-range read, a crash.
    if (!(error instanceof ClickHouseRefusal)) throw error;
    return { status: error.failure.status, code: error.failure.code, message: error.failure.message };
  }
}

function expectRefused(answer: ReturnType<typeof decoded>, status: 400 | 413, what?: RegExp): void {
  expect(Buffer.isBuffer(answer), "refused").toBe(false);
  const refusal = answer as Exclude<typeof answer, Buffer>;
  expect(refusal.status, refusal.message).toBe(status);
  expect(refusal.code).toBe(status === 413 ? 229 : 271);
  if (what) expect(refusal.message).toMatch(what);
}

/** A random body of frames for seed `seed`, with the content it stands for. */
function randomLz4Case(seed: number): { frame: Buffer; content: Buffer } {
  const random = randomOf(seed);
  const linked = random.next() < 0.6;
  const history: number[] = [];
  const blocks: FrameBlock[] = [];
  const count = random.int(0, 30);
  for (let index = 0; index < count; index++) {
    const blockStart = history.length;
    const kind = random.int(0, 3);
    if (kind === 0) {
      const data = random.bytes(random.int(0, 400), random.next() < 0.5 ? 4 : 256);
      history.push(...data);
      blocks.push({ stored: data });
    } else if (kind === 1) {
      // The reference encoder's own block: independent, valid in either mode.
      const data = Buffer.from("SELECT market, price FROM trades ".repeat(random.int(0, 60)) + random.bytes(20, 26));
      history.push(...data);
      blocks.push({ compressed: compressSync(data).subarray(4) });
    } else {
      // Matches by hand: into earlier blocks when linked, within the block when not.
      const sequences: Sequence[] = [];
      const runs = random.int(1, 12);
      for (let run = 0; run < runs; run++) {
        const literals = random.bytes(random.int(run === 0 ? 1 : 0, 40), 8);
        const reach = history.length + literals.length - (linked ? 0 : blockStart);
        const last = run === runs - 1;
        const offset = Math.min(reach, 65_535, random.int(1, random.next() < 0.3 ? 8 : 70_000));
        const sequence: Sequence =
          last || reach < 1 ? { literals } : { literals, match: { offset, length: random.int(4, 700) } };
        sequences.push(sequence);
        model(history, [sequence]);
        if (last) break;
      }
      if (sequences.at(-1)?.match) sequences.push({ literals: Buffer.alloc(0) });
      blocks.push({ compressed: block(sequences) });
    }
  }
  return {
    frame: lz4Frame(blocks, { linked, blockChecksums: random.next() < 0.3 }),
    content: Buffer.from(history),
  };
}

describe("the LZ4 frame decoder under a seeded fuzz", () => {
  const cases = Array.from({ length: 400 }, (_, index) => randomLz4Case(index + 1));

  it("reads 400 random frames of stored, encoder-written and hand-linked blocks as the model says", () => {
    for (const [index, { frame, content }] of cases.entries()) {
      const seed = index + 1;
      const answer = decoded(frame, { encoding: "lz4" });
      expect(Buffer.isBuffer(answer) && answer.equals(content), `seed ${seed}`).toBe(true);
    }
    // The reference encoder's whole frames too.
    const random = randomOf(7);
    for (let round = 0; round < 20; round++) {
      const content = random.bytes(random.int(0, 200_000), random.int(2, 256));
      expect(decodeLz4Frame(compressFrameSync(content), LIMIT).equals(content), `round ${round}`).toBe(true);
    }
  });

  it("refuses damaged frames cleanly: 3,000 mutations decode within the bound or are a 400 or a 413", () => {
    const random = randomOf(99);
    for (let round = 0; round < 3_000; round++) {
      const { frame } = cases[round % cases.length] as (typeof cases)[number];
      const mutated = Buffer.from(frame);
      const how = round % 3;
      if (how === 0) {
        for (let flips = random.int(1, 8); flips > 0; flips--)
          mutated[random.int(0, mutated.length - 1)] = random.int(0, 255);
      }
      const body =
        how === 1
          ? mutated.subarray(0, random.int(0, mutated.length - 1))
          : how === 2
            ? Buffer.concat([mutated.subarray(0, 7), random.bytes(random.int(0, 2_000))])
            : mutated;
      const answer = decoded(body, { encoding: "lz4" });
      if (Buffer.isBuffer(answer)) expect(answer.length).toBeLessThanOrEqual(LIMIT);
      else {
        expect([400, 413], `round ${round}: ${answer.message}`).toContain(answer.status);
        // A frame cut short is damaged, not large.
        if (how === 1) expect(answer.status, `round ${round}: ${answer.message}`).toBe(400);
      }
    }
  });
});

describe("the LZ4 frame decoder against the red team's frames", () => {
  /** 65,536 one-byte stored blocks: the whole window in parts of one byte. */
  const window = Buffer.from("SELECT 1 /* ".padEnd(65_536, "x"));
  const oneByteBlocks: FrameBlock[] = [...window].map((byte) => ({ stored: Buffer.from([byte]) }));

  it("reads 65,536 one-byte stored blocks and then 64 linked blocks reaching back 64 KiB", () => {
    const history = [...window];
    const linkedBlocks: FrameBlock[] = [];
    for (let index = 0; index < 64; index++) {
      const sequences: Sequence[] = [
        { literals: Buffer.from([0x41 + (index % 26)]), match: { offset: 65_535, length: 100 } },
        { literals: Buffer.from(index === 63 ? " */" : " ") },
      ];
      model(history, sequences);
      linkedBlocks.push({ compressed: block(sequences) });
    }
    const frame = lz4Frame([...oneByteBlocks, ...linkedBlocks]);
    expect(frame.length).toBeLessThan(LIMIT);
    expect(decodeLz4Frame(frame, LIMIT).equals(Buffer.from(history))).toBe(true);
  });

  it("reads 80,000 tiny linked blocks, each one literal", () => {
    const text = Buffer.from("SELECT 1 ".padEnd(80_000, "-"));
    const frame = lz4Frame([...text].map((byte) => ({ compressed: Buffer.from([0x10, byte]) })));
    expect(frame.length).toBe(7 + 80_000 * 6 + 4);
    expect(decodeLz4Frame(frame, LIMIT).equals(text)).toBe(true);
  });

  it("refuses declared sizes, lengths and offsets it cannot honour, saying which", () => {
    // A content size past the bound: refused on the header.
    expectRefused(decoded(lz4Frame([], { contentSize: 2n ** 63n }), { encoding: "lz4" }), 413);
    // A block that says it is 2 GiB: the frame ends long before.
    const huge = lz4Frame([{ stored: Buffer.from("x") }]);
    huge.writeUInt32LE(0x7fffffff, 7);
    expectRefused(decoded(huge, { encoding: "lz4" }), 400, /ends early/);
    // A stored block larger than the frame's block size.
    expectRefused(decoded(lz4Frame([{ stored: Buffer.alloc(65_537) }]), { encoding: "lz4" }), 400, /block size/);
    // A literal length of 25 million (100,000 bytes of 255, in a 4 MiB block) with no literals behind it.
    const literalRun = Buffer.concat([Buffer.from([0xf0]), Buffer.alloc(100_000, 0xff), Buffer.from([0])]);
    expectRefused(
      decoded(lz4Frame([{ compressed: literalRun }], { blockSizeId: 7 }), { encoding: "lz4" }),
      400,
      /ends early/,
    );
    // A match that expands one byte to 512 KB: past a 64 KiB block, and past the bound in a 4 MiB one.
    const longMatch = block([
      { literals: Buffer.from("x"), match: { offset: 1, length: 600_000 } },
      { literals: Buffer.alloc(0) },
    ]);
    expectRefused(decoded(lz4Frame([{ compressed: longMatch }]), { encoding: "lz4" }), 400, /block size/);
    expectRefused(decoded(lz4Frame([{ compressed: longMatch }], { blockSizeId: 7 }), { encoding: "lz4" }), 413);
    // Offsets: zero, before the content, and into an earlier block of an independent frame.
    const at = (offset: number) => block([{ literals: Buffer.from("ab"), match: { offset, length: 4 } }]);
    expectRefused(decoded(lz4Frame([{ compressed: at(0) }]), { encoding: "lz4" }), 400, /offset/);
    expectRefused(decoded(lz4Frame([{ compressed: at(3) }]), { encoding: "lz4" }), 400, /offset/);
    const independent = lz4Frame([{ stored: Buffer.from("SELECT") }, { compressed: at(5) }], { linked: false });
    expectRefused(decoded(independent, { encoding: "lz4" }), 400, /offset/);
    // The same reach is allowed when the blocks are linked.
    const linked = lz4Frame([{ stored: Buffer.from("SELECT") }, { compressed: at(5) }]);
    expect(decoded(linked, { encoding: "lz4" })).toEqual(Buffer.from("SELECTabECTa"));
    // A content size the blocks do not add up to.
    const short = lz4Frame([{ stored: Buffer.from("SELECT 1") }], { contentSize: 9n });
    expectRefused(decoded(short, { encoding: "lz4" }), 400, /content size/);
  });
});

describe("ClickHouse's compressed frames (decompress=1)", () => {
  it("read back random runs of LZ4 and uncompressed frames, encoder-written and by hand", () => {
    const random = randomOf(2024);
    for (let round = 0; round < 200; round++) {
      const parts: Buffer[] = [];
      const frames: Buffer[] = [];
      for (let count = random.int(1, 12); count > 0; count--) {
        const data = random.bytes(random.int(0, 3_000), random.int(2, 256));
        parts.push(data);
        const kind = random.int(0, 2);
        if (kind === 0) frames.push(compressFrame(data));
        else if (kind === 1) frames.push(clickhouseFrame(0x02, data, data.length));
        else {
          const sequences: Sequence[] = [{ literals: data }];
          frames.push(clickhouseFrame(0x82, block(sequences), data.length));
        }
      }
      const answer = decoded(Buffer.concat(frames), { framed: true });
      expect(Buffer.isBuffer(answer) && answer.equals(Buffer.concat(parts)), `round ${round}`).toBe(true);
    }
  });

  it("reads 20,000 one-byte frames, and refuses sizes a frame does not hold", () => {
    const text = Buffer.from("SELECT 1 ".padEnd(20_000, " "));
    const many = Buffer.concat([...text].map((byte) => clickhouseFrame(0x02, Buffer.from([byte]), 1)));
    expect(decoded(many, { framed: true })).toEqual(text);
    // 4 GiB said, 9 bytes sent: refused before anything is held.
    expectRefused(
      decoded(clickhouseFrame(0x82, block([{ literals: Buffer.from("SELECT 1") }]), 0xffffffff), { framed: true }),
      413,
    );
    // More than it says, and less.
    const sequences: Sequence[] = [
      { literals: Buffer.from("a"), match: { offset: 1, length: 100 } },
      { literals: Buffer.alloc(0) },
    ];
    expectRefused(decoded(clickhouseFrame(0x82, block(sequences), 50), { framed: true }), 400, /size it says/);
    expectRefused(decoded(clickhouseFrame(0x82, block(sequences), 500), { framed: true }), 400, /size it says/);
    // A match before the frame's own data: frames are independent.
    const reach = clickhouseFrame(0x82, block([{ literals: Buffer.from("ab"), match: { offset: 3, length: 4 } }]), 6);
    expectRefused(decoded(Buffer.concat([compressFrame(Buffer.from("x")), reach]), { framed: true }), 400, /offset/);
    // The bound over all the frames together.
    const half = compressFrame(Buffer.alloc(300_000, " "));
    expectRefused(decoded(Buffer.concat([half, half]), { framed: true }), 413);
  });

  it("refuses 2,000 damaged frame runs cleanly", () => {
    const random = randomOf(5);
    const good = Buffer.concat([
      compressFrame(Buffer.from("SELECT 1")),
      clickhouseFrame(0x02, Buffer.from(" -- x"), 5),
    ]);
    for (let round = 0; round < 2_000; round++) {
      const mutated = Buffer.from(good);
      for (let flips = random.int(1, 4); flips > 0; flips--)
        mutated[random.int(0, mutated.length - 1)] = random.int(0, 255);
      const body = round % 2 === 0 ? mutated : mutated.subarray(0, random.int(0, mutated.length));
      const answer = decoded(body, { framed: true });
      if (!Buffer.isBuffer(answer)) expect([400, 413], answer.message).toContain(answer.status);
      else expect(answer.length).toBeLessThanOrEqual(LIMIT);
    }
    // And what readFrames refuses is never a bare TypeError.
    expect(() => readFrames(Buffer.from("garbage that is not a frame at all"), LIMIT)).toThrow(/ends inside/);
  });
});

describe("gzip, deflate and br request bodies", () => {
  it("read back, refuse garbage as 400 and what expands past the bound as 413", () => {
    const random = randomOf(11);
    // Brotli at quality 4, as the answers are: its default (11) is slow to write, not to read.
    const br = (data: Buffer) => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    const encoders = { gzip: gzipSync, deflate: deflateSync, br } as const;
    for (const [name, encode] of Object.entries(encoders)) {
      for (let round = 0; round < 30; round++) {
        const content = random.bytes(random.int(0, 20_000), random.int(2, 256));
        // Buffer.equals, not toEqual: a deep equality walks 20,000 bytes one property at a time.
        const answer = decoded(encode(content), { encoding: name });
        expect(Buffer.isBuffer(answer) && answer.equals(content), `${name}, round ${round}`).toBe(true);
        const damaged = Buffer.from(encode(content));
        const at = random.int(0, damaged.length - 1);
        damaged[at] = (damaged[at] as number) ^ 0xff;
        const refused = decoded(damaged.subarray(0, random.int(1, damaged.length)), { encoding: name });
        if (!Buffer.isBuffer(refused)) expect([400, 413], `${name}: ${refused.message}`).toContain(refused.status);
      }
      expectRefused(decoded(encode(Buffer.alloc(LIMIT + 1, " ")), { encoding: name }), 413);
      expectRefused(decoded(random.bytes(500), { encoding: name }), 400);
    }
  });
});
