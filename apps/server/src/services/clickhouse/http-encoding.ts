/**
 * HTTP compression on the ClickHouse interface, both ways, as a ClickHouse server does it:
 * a request body in the `Content-Encoding` it names (gzip, deflate, br, lz4), then, under
 * `decompress=1`, in ClickHouse's own frames; an answer in the first `Accept-Encoding` served
 * here (gzip, deflate, br) when the client sets `enable_http_compression=1`. Every
 * decompressed body is bounded like an uncompressed one, so a small compressed body cannot
 * make this process hold a large one, and every decoder's work is linear in its input and
 * its bounded output (zlib stops at `maxOutputLength`; the LZ4 decoders write into one
 * bounded buffer), so it cannot hold the event loop either. The route calls this only for
 * a caller it has authenticated. Past the bound: 413 QUERY_IS_TOO_LARGE; anything that
 * cannot be read: 400 CANNOT_DECOMPRESS.
 */
import type { Transform } from "node:stream";
import {
  brotliDecompressSync,
  constants,
  createBrotliCompress,
  createDeflate,
  createGzip,
  gunzipSync,
  inflateSync,
} from "node:zlib";
import { readFrames } from "./compressed";
import { decodeLz4Frame } from "./lz4-frame";
import { refuse } from "./protocol";

/** Request decoders, by the name `Content-Encoding` gives them; `limit` bounds what zlib writes. */
const DECODERS: Readonly<Record<string, (body: Buffer, limit: number) => Buffer>> = {
  gzip: (body, limit) => gunzipSync(body, { maxOutputLength: limit }),
  "x-gzip": (body, limit) => gunzipSync(body, { maxOutputLength: limit }),
  deflate: (body, limit) => inflateSync(body, { maxOutputLength: limit }),
  br: (body, limit) => brotliDecompressSync(body, { maxOutputLength: limit }),
  // LZ4 expands up to 255-fold: decoded within the limit, a block at a time.
  lz4: (body, limit) => decodeLz4Frame(body, limit),
};

/** The request as sent: HTTP's encoding undone, then ClickHouse's frames when `framed`. */
export function decodeRequestBody(
  raw: Buffer,
  { encoding, framed, maxBytes }: { encoding: string | undefined; framed: boolean; maxBytes: number },
): Buffer {
  const tooLarge = () =>
    refuse(413, 229, "QUERY_IS_TOO_LARGE", `The decompressed request body is larger than ${maxBytes} bytes`);
  let body = raw;
  const name = encoding?.trim().toLowerCase();
  if (name && name !== "identity") {
    const decode = DECODERS[name];
    if (!decode) {
      refuse(
        415,
        1002,
        "UNKNOWN_EXCEPTION",
        `Content-Encoding ${encoding} is not read here; send the body as ${Object.keys(DECODERS).join(", ")} or uncompressed`,
      );
    }
    try {
      body = decode(body, maxBytes + 1);
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) tooLarge();
      refuse(400, 271, "CANNOT_DECOMPRESS", `The body is not valid ${name}: ${(error as Error).message}`);
    }
  }
  if (framed) {
    try {
      body = readFrames(body, maxBytes);
    } catch (error) {
      if (error instanceof RangeError) tooLarge();
      refuse(400, 271, "CANNOT_DECOMPRESS", (error as Error).message);
    }
  }
  if (body.length > maxBytes) tooLarge();
  return body;
}

/** Answer encodings, by the name `Accept-Encoding` gives them. */
const ENCODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGzip(),
  deflate: () => createDeflate(),
  // Quality 4: most of brotli's gain at a fraction of its default's time.
  br: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
};

/** The first of the client's `Accept-Encoding` served here, with its encoder; none for none. */
export function answerEncoder(
  acceptEncoding: string | undefined,
): { name: string; create: () => Transform } | undefined {
  for (const part of (acceptEncoding ?? "").split(",")) {
    const name = part.split(";")[0]?.trim().toLowerCase();
    const create = name ? ENCODERS[name] : undefined;
    if (name && create) return { name, create };
  }
  return undefined;
}
