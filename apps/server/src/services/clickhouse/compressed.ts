/**
 * ClickHouse's own compressed framing, which JDBC asks for by default (`compress=1`) and
 * may send its requests in (`decompress=1`); clickhouse-go uses it too when compression is
 * on. A stream is a run of frames, each:
 *
 *     16 bytes  CityHash128 (1.0.2) of everything after it in the frame
 *      1 byte   method: 0x82 LZ4, 0x02 none, 0x90 ZSTD
 *      4 bytes  size of the frame after the checksum (header included), little-endian
 *      4 bytes  size of the data once decompressed, little-endian
 *      …        the data, LZ4 as raw blocks (no LZ4 frame header)
 *
 * Answers are written as LZ4 frames of at most 1 MiB of data (ClickHouse's
 * `max_compress_block_size`); requests are read in LZ4 or uncompressed frames, checked,
 * and bounded per frame (what it says) and in total (the caller's bound). Answers are
 * compressed by `lz4-napi`, whose block calls carry a 4-byte size prefix; requests are
 * decoded by `lz4-block.ts`, whose work is linear in what it reads and writes.
 */
import { compressSync } from "lz4-napi";
import { cityHash128 } from "./cityhash";
import { BoundedOutput, decodeLz4Block, Lz4BlockError, Lz4BlockTooLong } from "./lz4-block";

const CHECKSUM_BYTES = 16;
const HEADER_BYTES = 9;
const METHOD_LZ4 = 0x82;
const METHOD_NONE = 0x02;
const METHOD_ZSTD = 0x90;
/** ClickHouse's `max_compress_block_size`: the data of one frame. */
export const FRAME_DATA_BYTES = 1024 * 1024;

/** A request body whose frames cannot be read. */
export class CompressedFrameError extends Error {}

/** One LZ4 frame of `data` (at most `FRAME_DATA_BYTES`). */
export function compressFrame(data: Buffer): Buffer {
  // lz4-napi's block is prefixed with the data's length, which the frame header carries instead.
  const compressed = compressSync(data).subarray(4);
  const frame = Buffer.allocUnsafe(CHECKSUM_BYTES + HEADER_BYTES + compressed.length);
  frame[CHECKSUM_BYTES] = METHOD_LZ4;
  frame.writeUInt32LE(HEADER_BYTES + compressed.length, CHECKSUM_BYTES + 1);
  frame.writeUInt32LE(data.length, CHECKSUM_BYTES + 5);
  compressed.copy(frame, CHECKSUM_BYTES + HEADER_BYTES);
  cityHash128(frame.subarray(CHECKSUM_BYTES)).copy(frame, 0);
  return frame;
}

/** Data gathered before a frame is sent while an answer streams. */
const STREAMED_FRAME_BYTES = 64 * 1024;

/**
 * An answer's bytes as frames, as they stream: a frame is sent once 64 KiB have arrived
 * (at most 1 MiB in one frame) and at the end, so a long answer reaches its client as the
 * engine produces it rather than at the end.
 */
export async function* compressFrames(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    held.push(chunk);
    size += chunk.length;
    if (size < STREAMED_FRAME_BYTES) continue;
    const data = Buffer.concat(held);
    for (let at = 0; at < data.length; at += FRAME_DATA_BYTES) {
      yield compressFrame(data.subarray(at, at + FRAME_DATA_BYTES));
    }
    held = [];
    size = 0;
  }
  if (size > 0) yield compressFrame(Buffer.concat(held));
}

/**
 * The data of a framed request body, each frame's checksum checked. Throws a
 * `CompressedFrameError` for frames that cannot be read, a `RangeError` past `maxBytes`.
 * Linear in the body: every frame's data is decoded straight into one bounded output, and
 * a frame's declared size is checked against what is left of the bound before anything is
 * decoded (a frame may write exactly what it says, no more), so many tiny frames or one
 * that says 4 GiB cost only their own bytes.
 */
export function readFrames(body: Buffer, maxBytes: number): Buffer {
  const output = new BoundedOutput(maxBytes, Math.min(body.length * 4, FRAME_DATA_BYTES));
  let at = 0;
  while (at < body.length) {
    if (body.length - at < CHECKSUM_BYTES + HEADER_BYTES) {
      throw new CompressedFrameError("The compressed body ends inside a frame header");
    }
    const method = body[at + CHECKSUM_BYTES];
    const frameBytes = body.readUInt32LE(at + CHECKSUM_BYTES + 1);
    const dataBytes = body.readUInt32LE(at + CHECKSUM_BYTES + 5);
    const end = at + CHECKSUM_BYTES + frameBytes;
    if (frameBytes < HEADER_BYTES || end > body.length) {
      throw new CompressedFrameError("The compressed body ends inside a frame");
    }
    if (!cityHash128(body.subarray(at + CHECKSUM_BYTES, end)).equals(body.subarray(at, at + CHECKSUM_BYTES))) {
      throw new CompressedFrameError("A compressed frame's checksum does not match its data");
    }
    if (dataBytes > maxBytes - output.length) {
      throw new RangeError(`The decompressed body is larger than ${maxBytes} bytes`);
    }
    const payload = at + CHECKSUM_BYTES + HEADER_BYTES;
    const started = output.length;
    if (method === METHOD_LZ4) {
      try {
        // Each frame is compressed on its own: a match reaches no further back than its start.
        decodeLz4Block(body, payload, end, output, { windowStart: started, blockBytes: dataBytes });
      } catch (error) {
        if (error instanceof Lz4BlockTooLong)
          throw new CompressedFrameError("An LZ4 frame's data is not the size it says");
        if (error instanceof Lz4BlockError)
          throw new CompressedFrameError(`An LZ4 frame cannot be decoded: ${error.message}`);
        throw error;
      }
      if (output.length - started !== dataBytes)
        throw new CompressedFrameError("An LZ4 frame's data is not the size it says");
    } else if (method === METHOD_NONE) {
      if (end - payload !== dataBytes) throw new CompressedFrameError("A frame's data is not the size it says");
      output.append(body, payload, end);
    } else if (method === METHOD_ZSTD) {
      throw new CompressedFrameError("ZSTD frames are not read here: compress the request with LZ4 (the default)");
    } else {
      throw new CompressedFrameError(`Unknown compression method 0x${(method ?? 0).toString(16)} in a frame`);
    }
    at = end;
  }
  return output.content();
}
