import { describe, expect, it } from "vitest";
import { createSseParser, type ServerSentEvent } from "./sse";

function parse(chunks: string[]): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events;
}

describe("createSseParser", () => {
  it("reads named events whose chunks split anywhere", () => {
    const stream = 'event: text_delta\ndata: {"delta":"Hel"}\n\nevent: complete\ndata: {"ok":true}\n\n';
    const expected = [
      { event: "text_delta", data: '{"delta":"Hel"}' },
      { event: "complete", data: '{"ok":true}' },
    ];
    expect(parse([stream])).toEqual(expected);
    for (let cut = 1; cut < stream.length; cut += 7) {
      expect(parse([stream.slice(0, cut), stream.slice(cut)])).toEqual(expected);
    }
  });

  it("joins data lines, skips comments, accepts CRLF and defaults the name to message", () => {
    expect(parse([": keep-alive\r\ndata: a\r\ndata: b\r\n\r\n", "data:c\n\n"])).toEqual([
      { event: "message", data: "a\nb" },
      { event: "message", data: "c" },
    ]);
  });

  it("dispatches an event left unterminated when the stream ends, and nothing for blank input", () => {
    expect(parse(["event: sql\ndata: 1"])).toEqual([{ event: "sql", data: "1" }]);
    expect(parse(["\n\n"])).toEqual([]);
  });
});
