/**
 * An LZ4 frame (`Content-Encoding: lz4`) read block by block with its output bounded, so a
 * small body cannot make this process hold a large one: LZ4 expands up to 255-fold, and
 * the whole-frame decoder allocates what the frame says before anything can be checked.
 * Each block is decoded into at most what is left of the bound (or its own maximum, if
 * less); a block that needs more is past the bound. Linked blocks read the output before
 * them, as the format allows, through the decoder's dictionary.
 *
 * The frame format (lz4.org, "LZ4 Frame Format Description" 1.6.x):
 *   magic 0x184D2204 · FLG · BD · [content size, 8] · [dictionary id, 4] · header checksum
 *   blocks: size (4, high bit = stored uncompressed) · data · [block checksum, 4]
 *   end mark 0x00000000 · [content checksum, 4]
 * Checksums are not verified here: a damaged block fails to decode, and what decodes is
 * still read as SQL, which refuses what it cannot parse.
 */
import { uncompressSync } from "lz4-napi";

const MAGIC = 0x184d2204;
/** Block maximum sizes by the BD byte's id. */
const BLOCK_MAX: Readonly<Record<number, number>> = { 4: 65_536, 5: 262_144, 6: 1_048_576, 7: 4_194_304 };
/** How far back a linked block may reach. */
const WINDOW = 65_536;

/** The frame's content, or a `RangeError` once it would pass `maxBytes`; an `Error` for a frame that cannot be read. */
export function decodeLz4Frame(frame: Buffer, maxBytes: number): Buffer {
  let at = 0;
  const need = (bytes: number) => {
    if (at + bytes > frame.length) throw new Error("the LZ4 frame ends early");
  };
  need(7);
  if (frame.readUInt32LE(0) !== MAGIC) throw new Error("not an LZ4 frame (magic number)");
  const flags = frame[4] as number;
  const descriptor = frame[5] as number;
  if (flags >> 6 !== 1) throw new Error("an LZ4 frame of an unknown version");
  const isLinked = (flags & 0x20) === 0;
  const hasBlockChecksums = (flags & 0x10) !== 0;
  const hasContentSize = (flags & 0x08) !== 0;
  const hasDictionary = (flags & 0x01) !== 0;
  const blockMax = BLOCK_MAX[(descriptor >> 4) & 0x07];
  if (!blockMax) throw new Error("an LZ4 frame with an unknown block size");
  if (hasDictionary) throw new Error("LZ4 frames with a dictionary are not read here");
  at = 6;
  if (hasContentSize) {
    need(8);
    if (frame.readBigUInt64LE(at) > BigInt(maxBytes)) {
      throw new RangeError(`the content is larger than ${maxBytes} bytes`);
    }
    at += 8;
  }
  at += 1; // header checksum
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    need(4);
    const word = frame.readUInt32LE(at);
    at += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    need(size + (hasBlockChecksums ? 4 : 0));
    const data = frame.subarray(at, at + size);
    at += size + (hasBlockChecksums ? 4 : 0);
    const room = maxBytes - total;
    let block: Buffer;
    if (word & 0x80000000) {
      block = data;
      if (block.length > room) throw new RangeError(`the content is larger than ${maxBytes} bytes`);
    } else {
      // The decoder takes its output's size first; more than it needs is fine, less fails.
      const capacity = Math.min(blockMax, room + 1);
      const prefixed = Buffer.allocUnsafe(4 + size);
      prefixed.writeUInt32LE(capacity, 0);
      data.copy(prefixed, 4);
      const dictionary = isLinked && total > 0 ? tail(parts, WINDOW) : undefined;
      try {
        block = dictionary ? uncompressSync(prefixed, dictionary) : uncompressSync(prefixed);
      } catch (error) {
        if (/too small/i.test((error as Error).message)) {
          throw new RangeError(`the content is larger than ${maxBytes} bytes`);
        }
        throw new Error(`an LZ4 block cannot be decoded: ${(error as Error).message}`);
      }
      if (block.length > room) throw new RangeError(`the content is larger than ${maxBytes} bytes`);
    }
    parts.push(block);
    total += block.length;
  }
  return Buffer.concat(parts, total);
}

/** The last `bytes` of what `parts` hold, in order. */
function tail(parts: readonly Buffer[], bytes: number): Buffer {
  const kept: Buffer[] = [];
  let length = 0;
  for (let index = parts.length - 1; index >= 0 && length < bytes; index--) {
    const part = parts[index] as Buffer;
    const take = Math.min(part.length, bytes - length);
    kept.unshift(part.subarray(part.length - take));
    length += take;
  }
  return Buffer.concat(kept, length);
}
