/**
 * The wire between the server and a sandbox worker process: frames over the worker's
 * stdin and stdout, each a small JSON header plus an optional binary payload, so result
 * bytes cross without being re-encoded.
 *
 *     [u32 header length][header JSON][u32 payload length][payload]
 *
 * This file is imported by the worker itself, which runs confined with nothing but
 * node's built-ins and chDB, so it imports nothing else.
 */

/** What the server asks of a worker. One user operation at a time; `more` and `cancel` refer to it. */
export type WorkerRequest =
  | { op: "text"; id: number; sql: string; format: string; params?: Record<string, unknown> }
  | {
      op: "stream";
      id: number;
      sql: string;
      format: string;
      tag: string;
      /** Stop after this many bytes (and one more, so the reader sees the cut); no bound when absent. */
      maxBytes?: number;
      /** Values of `{name:Type}` parameters, bound by the engine. */
      params?: Readonly<Record<string, string>>;
      /** The database unqualified table names are read from; the engine's default when absent. */
      database?: string;
    }
  | { op: "more"; id: number }
  | { op: "cancel"; id: number };

/** What a worker answers. */
export type WorkerReply =
  | { type: "ready"; uid: number; hostname: string; engine: string }
  | { type: "text"; id: number }
  | { type: "chunk"; id: number }
  | { type: "end"; id: number }
  | { type: "error"; id: number; message: string; code?: number; name?: string }
  | { type: "fatal"; message: string };

export interface Frame<H> {
  header: H;
  payload: Buffer;
}

const EMPTY = Buffer.alloc(0);

export function encodeFrame(header: object, payload: Uint8Array = EMPTY): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const frame = Buffer.allocUnsafe(8 + json.length + payload.length);
  frame.writeUInt32LE(json.length, 0);
  json.copy(frame, 4);
  frame.writeUInt32LE(payload.length, 4 + json.length);
  frame.set(payload, 8 + json.length);
  return frame;
}

/** Cuts a byte stream into frames; linear in the bytes it is given. */
export class FrameReader<H> {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly onFrame: (frame: Frame<H>) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 4) return;
      const head = this.peek(4);
      const headerLength = head.readUInt32LE(0);
      if (this.buffered < 8 + headerLength) return;
      const withLength = this.peek(8 + headerLength);
      const payloadLength = withLength.readUInt32LE(4 + headerLength);
      const total = 8 + headerLength + payloadLength;
      if (this.buffered < total) return;
      const whole = this.take(total);
      const header = JSON.parse(whole.toString("utf8", 4, 4 + headerLength)) as H;
      this.onFrame({ header, payload: whole.subarray(8 + headerLength) });
    }
  }

  private peek(length: number): Buffer {
    if ((this.chunks[0] as Buffer).length < length) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] as Buffer;
  }

  private take(length: number): Buffer {
    const joined = this.peek(length);
    const rest = joined.subarray(length);
    this.chunks = rest.length > 0 ? [rest, ...this.chunks.slice(1)] : this.chunks.slice(1);
    this.buffered -= length;
    return joined.subarray(0, length);
  }
}
