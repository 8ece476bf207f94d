/**
 * The LZ4 block format, decoded into one bounded output, for both LZ4 request bodies: an
 * LZ4 frame (`lz4-frame.ts`, `Content-Encoding: lz4`) and ClickHouse's checksummed frames
 * (`compressed.ts`, `decompress=1`). Both come from callers not yet trusted to be
 * reasonable, so the decoder's work is linear in what it reads and writes:
 *
 * - The output is one buffer that grows by doubling up to the caller's bound and is never
 *   rebuilt per block. A block that reaches back into earlier blocks (an LZ4 frame's linked
 *   blocks) reads that output in place, so the 64 KiB window costs nothing per block. (The
 *   decoder this replaces handed each linked block a dictionary gathered from every part
 *   before it: 65,536 one-byte blocks and a few linked ones held the event loop for
 *   seconds.)
 * - Every length is checked against what is left of the input or of the bound before
 *   anything is copied, so a 255-byte length run or a 4 GiB declared size costs its own
 *   bytes to read and nothing more.
 *
 * The format (lz4.org, "LZ4 Block Format Description"): sequences of a token (literal
 * length, match length − 4, 4 bits each, 15 meaning "more bytes follow, 255 each until one
 * is less"), the literals, a 2-byte little-endian offset back into the output, the match
 * length's extra bytes; the last sequence is literals only.
 */

/** A block that cannot be decoded; the caller names the body it came from. */
export class Lz4BlockError extends Error {}

/** A block that decodes to more than it may: its frame says less, or its format allows less. */
export class Lz4BlockTooLong extends Lz4BlockError {}

/** Where decoded bytes go: one buffer, at most `maxBytes`; a `RangeError` past it. */
export class BoundedOutput {
  private buffer: Buffer;
  length = 0;

  constructor(
    readonly maxBytes: number,
    initialBytes = 64 * 1024,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.max(0, Math.min(maxBytes, initialBytes)));
  }

  /** Room for `bytes` more, growing by doubling (linear over the whole output). */
  reserve(bytes: number): void {
    const needed = this.length + bytes;
    if (needed > this.maxBytes) throw new RangeError(`the content is larger than ${this.maxBytes} bytes`);
    if (needed <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(needed, this.buffer.length * 2, 4096)));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  append(source: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    source.copy(this.buffer, this.length, start, end);
    this.length += end - start;
  }

  /** `length` bytes from `offset` back, which may overlap what they write (a run). */
  repeat(offset: number, length: number): void {
    this.reserve(length);
    const from = this.length - offset;
    let at = this.length;
    let left = length;
    // Each pass copies what is already written; the distance doubles, so a run of one byte
    // repeated 64 KiB times takes 17 passes, not 65,536.
    while (left > 0) {
      const chunk = Math.min(left, at - from);
      this.buffer.copyWithin(at, from, from + chunk);
      at += chunk;
      left -= chunk;
    }
    this.length += length;
  }

  /** What was written; the buffer is not copied again. */
  content(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/**
 * Decodes the block `source[start, end)` onto `output`. A match may reach back as far as
 * `windowStart` (the block's own start when blocks are independent, 0 when they are
 * linked); the block may write at most `blockBytes`. Throws an `Lz4BlockError` for a block
 * that cannot be read, a `RangeError` past the output's bound.
 */
export function decodeLz4Block(
  source: Buffer,
  start: number,
  end: number,
  output: BoundedOutput,
  { windowStart, blockBytes }: { windowStart: number; blockBytes: number },
): void {
  const blockEnd = output.length + blockBytes;
  const fits = (bytes: number) => {
    // A block longer than its frame allows is damaged, whatever the bound; then the bound.
    if (output.length + bytes > blockEnd) {
      throw new Lz4BlockTooLong(`an LZ4 block decodes to more than its block size (${blockBytes} bytes)`);
    }
    output.reserve(bytes);
  };
  let at = start;
  const extended = (base: number) => {
    let value = base;
    for (;;) {
      if (at >= end) throw new Lz4BlockError("an LZ4 block ends early (inside a length)");
      const byte = source[at++] as number;
      value += byte;
      if (byte !== 255) return value;
    }
  };
  while (at < end) {
    const token = source[at++] as number;
    let literals = token >> 4;
    if (literals === 15) literals = extended(15);
    if (literals > end - at) throw new Lz4BlockError("an LZ4 block ends early (inside its literals)");
    fits(literals);
    output.append(source, at, at + literals);
    at += literals;
    if (at === end) return;
    if (end - at < 2) throw new Lz4BlockError("an LZ4 block ends early (inside an offset)");
    const offset = (source[at] as number) | ((source[at + 1] as number) << 8);
    at += 2;
    if (offset === 0 || offset > output.length - windowStart) {
      throw new Lz4BlockError(`an LZ4 block's match offset ${offset} reaches before the data it may read`);
    }
    let match = (token & 0x0f) + 4;
    if (match === 19) match = extended(19);
    fits(match);
    output.repeat(offset, match);
  }
}
