/** ClickHouse's compressed framing: what is framed reads back, in frames of at most 1 MiB, and a frame is checked. */
import { describe, expect, it } from "vitest";
import { CompressedFrameError, compressFrame, compressFrames, FRAME_DATA_BYTES, readFrames } from "./compressed";

async function framed(chunks: Buffer[]): Promise<Buffer[]> {
  async function* source() {
    yield* chunks;
  }
  const frames: Buffer[] = [];
  for await (const frame of compressFrames(source())) frames.push(frame);
  return frames;
}

describe("compressed frames", () => {
  it("reads back what was framed, each frame holding at most 1 MiB", async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => `row ${i}\n`).join(""));
    const chunks = Array.from({ length: Math.ceil(data.length / 50_000) }, (_, i) =>
      data.subarray(i * 50_000, (i + 1) * 50_000),
    );
    const frames = await framed(chunks);
    expect(frames.length).toBeGreaterThan(3);
    for (const frame of frames) expect(frame.readUInt32LE(21)).toBeLessThanOrEqual(FRAME_DATA_BYTES);
    expect(readFrames(Buffer.concat(frames), data.length).equals(data)).toBe(true);
  });

  it("sends a small answer as one frame at its end", async () => {
    const frames = await framed([Buffer.from("a"), Buffer.from("b")]);
    expect(frames.length).toBe(1);
    expect(readFrames(frames[0] as Buffer, 10).toString()).toBe("ab");
  });

  it("refuses a changed frame, a cut one, and more data than allowed", () => {
    const frame = compressFrame(Buffer.from("SELECT 1"));
    const changed = Buffer.from(frame);
    changed.writeUInt8((changed.at(-1) as number) ^ 1, changed.length - 1);
    expect(() => readFrames(changed, 100)).toThrow(CompressedFrameError);
    expect(() => readFrames(frame.subarray(0, frame.length - 1), 100)).toThrow("ends inside a frame");
    expect(() => readFrames(frame, 4)).toThrow(RangeError);
  });
});
