/**
 * Defuses the cells of a CSV download that a spreadsheet would run as a formula: a text
 * cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`
 * (OWASP's advice for CSV injection), so `=HYPERLINK(…)` in a market's title opens as
 * text. The engine quotes every text value in CSV (strings, dates, arrays, maps, enums)
 * and leaves only numbers, booleans and `\N` bare, so only quoted cells are touched and a
 * negative number stays a number. A streaming pass over the bytes, linear, holding no
 * more than a chunk.
 */

const DANGEROUS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]); // = + - @ tab CR
const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const APOSTROPHE = Buffer.from("'");

export async function* defuseCsvCells(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let isFieldStart = true;
  let isQuoted = false;
  /** A quote seen inside a quoted cell: an escaped quote if another follows, else the cell's end. */
  let isQuotePending = false;
  /** The next byte is the first of a quoted cell's text. */
  let isFirstOfCell = false;
  for await (const chunk of chunks) {
    const pieces: Buffer[] = [];
    let from = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (isQuoted) {
        if (isQuotePending) {
          isQuotePending = false;
          if (byte === QUOTE) continue; // `""`: a quote inside the cell
          isQuoted = false; // the cell ended; this byte is outside it
        } else if (byte === QUOTE) {
          isQuotePending = true;
          isFirstOfCell = false;
          continue;
        } else {
          if (isFirstOfCell && DANGEROUS.has(byte)) {
            pieces.push(chunk.subarray(from, index), APOSTROPHE);
            from = index;
          }
          isFirstOfCell = false;
          continue;
        }
      }
      if (isFieldStart && byte === QUOTE) {
        isQuoted = true;
        isFirstOfCell = true;
        isFieldStart = false;
        continue;
      }
      isFieldStart = byte === COMMA || byte === NEWLINE;
    }
    if (pieces.length === 0) yield chunk;
    else {
      pieces.push(chunk.subarray(from));
      yield Buffer.concat(pieces);
    }
  }
}
