/**
 * A small parser for server-sent events read with `fetch` (EventSource cannot POST or send
 * a bearer token). It follows the WHATWG framing: lines end in \n, \r\n or \r; a blank
 * line ends an event; `event:` names it, `data:` lines join with \n; comments (`:`) are
 * skipped. Chunks may split anywhere, so the tail is kept until the next chunk.
 */
export interface ServerSentEvent {
  event: string;
  data: string;
}

export function createSseParser(onEvent: (event: ServerSentEvent) => void) {
  let buffer = "";
  let event = "";
  let data: string[] = [];

  const dispatch = () => {
    if (data.length > 0) onEvent({ event: event || "message", data: data.join("\n") });
    event = "";
    data = [];
  };

  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };

  return {
    feed(chunk: string): void {
      buffer += chunk;
      const breaks = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = breaks.exec(buffer); match; match = breaks.exec(buffer)) {
        // A \r at the very end may be the first half of \r\n: wait for the next chunk.
        if (match[0] === "\r" && match.index === buffer.length - 1) break;
        line(buffer.slice(start, match.index));
        start = match.index + match[0].length;
      }
      buffer = buffer.slice(start);
    },
    end(): void {
      const rest = buffer.replace(/\r$/, "");
      if (rest) line(rest);
      buffer = "";
      dispatch();
    },
  };
}
