/**
 * An LZ4 frame (`Content-Encoding: lz4`) read with its output bounded and its work linear
 * in the frame, so a small body can neither make this process hold a large one (LZ4
 * expands up to 255-fold) nor hold the event loop: every block is decoded straight into
 * one output buffer (`lz4-block.ts`), and a linked block reads the blocks before it there
 * rather than through a dictionary rebuilt for it. A block may decode to at most the
 * frame's block size, and the whole content to at most the caller's bound.
 *
 * The frame format (lz4.org, "LZ4 Frame Format Description" 1.6.x):
 *   magic 0x184D2204 · FLG · BD · [content size, 8] · [dictionary id, 4] · header checksum
 *   blocks: size (4, high bit = stored uncompressed) · data · [block checksum, 4]
 *   end mark 0x00000000 · [content checksum, 4]
 * Checksums are not verified here: a damaged block fails to decode, and what decodes is
 * still read as SQL, which refuses what it cannot parse.
 */
import { BoundedOutput, decodeLz4Block, Lz4BlockError } from "./lz4-block";

const MAGIC = 0x184d2204;
/** Block maximum sizes by the BD byte's id. */
const BLOCK_MAX: Readonly<Record<number, number>> = { 4: 65_536, 5: 262_144, 6: 1_048_576, 7: 4_194_304 };

/** The frame's content, or a `RangeError` once it would pass `maxBytes`; an `Error` for a frame that cannot be read. */
export function decodeLz4Frame(frame: Buffer, maxBytes: number): Buffer {
  let at = 0;
  const need = (bytes: number) => {
    if (bytes > frame.length - at) throw new Error("the LZ4 frame ends early");
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
  let contentSize: number | undefined;
  if (hasContentSize) {
    need(8);
    const declared = frame.readBigUInt64LE(at);
    if (declared > BigInt(maxBytes)) throw new RangeError(`the content is larger than ${maxBytes} bytes`);
    contentSize = Number(declared);
    at += 8;
  }
  at += 1; // header checksum
  // A frame that says its size gets exactly that; one that does not, a buffer that doubles.
  const output = new BoundedOutput(maxBytes, contentSize ?? Math.min(frame.length * 4, 64 * 1024));
  const checksumBytes = hasBlockChecksums ? 4 : 0;
  for (;;) {
    need(4);
    const word = frame.readUInt32LE(at);
    at += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    need(size + checksumBytes);
    if (size > blockMax) throw new Error(`an LZ4 block is larger than the frame's block size (${blockMax} bytes)`);
    if (word & 0x80000000) {
      output.append(frame, at, at + size);
    } else {
      try {
        // Linked blocks may reach back into every earlier block (64 KiB at most, by the
        // offset's two bytes); independent ones only into their own output.
        decodeLz4Block(frame, at, at + size, output, {
          windowStart: isLinked ? 0 : output.length,
          blockBytes: blockMax,
        });
      } catch (error) {
        if (error instanceof Lz4BlockError) throw new Error(`an LZ4 block cannot be decoded: ${error.message}`);
        throw error;
      }
    }
    at += size + checksumBytes;
  }
  if (contentSize !== undefined && output.length !== contentSize) {
    throw new Error(
      `the LZ4 frame holds ${output.length} bytes, not the content size its header says (${contentSize})`,
    );
  }
  return output.content();
}
