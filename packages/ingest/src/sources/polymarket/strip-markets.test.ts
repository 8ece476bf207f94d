import { describe, expect, it } from "vitest";
import { fixture } from "../../testing/fixtures";
import { gammaKeysetText } from "./client";
import { stripNestedMarkets } from "./strip-markets";

type Json = Record<string, unknown>;

const recordedEvents = [
  ...fixture<Json[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json"),
  ...fixture<Json[]>("polymarket/events/gamma_events_default_order_old_2021.json"),
];

const bytes = (text: string) => new TextEncoder().encode(text);

function strip(text: string): { events: Json[]; market_counts: number[] } {
  const { events, market_counts } = JSON.parse(stripNestedMarkets(bytes(text)).body.toString("utf8"));
  return { events, market_counts };
}

/** What the scanner must produce, computed the slow way. */
function expected(events: Json[]) {
  return {
    events: events.map(({ markets: _markets, ...rest }) => rest),
    market_counts: events.map((event) => (Array.isArray(event.markets) ? event.markets.length : 0)),
  };
}

describe("stripNestedMarkets", () => {
  it("removes every recorded event's markets and keeps the rest byte for byte", () => {
    const page = { events: recordedEvents, next_cursor: "aTo1MTk" };
    const text = JSON.stringify(page);
    const stripped = stripNestedMarkets(bytes(text));
    expect(stripped.events).toBe(recordedEvents.length);
    expect(strip(text)).toEqual(expected(recordedEvents));
    // Untouched text is copied, not re-serialised: each event's text is the original minus its markets.
    const first = recordedEvents[0] as Json;
    const { markets: _markets, ...rest } = first;
    expect(stripped.body.toString("utf8")).toContain(JSON.stringify(rest));
  });

  it("handles markets as the first, middle or last key, pretty-printed pages and empty lists", () => {
    const events = [
      { markets: [{ id: "1" }, { id: "2" }], id: "a", title: "first" },
      { id: "b", markets: [], title: "middle" },
      { id: "c", title: "last", markets: [{ id: "3", nested: { markets: [{ id: "x" }] } }] },
      { id: "d", title: "none" },
    ];
    for (const text of [JSON.stringify({ events }), JSON.stringify({ events, next_cursor: null }, null, 2)]) {
      expect(strip(text)).toEqual(expected(events));
    }
  });

  it("is not fooled by strings that look like the key or end in backslashes", () => {
    const events = [
      {
        id: "a",
        description: 'a "markets":[ in text, a quote \\" and a backslash \\\\',
        tricky: "ends with a backslash \\",
        markets: [{ id: "1", question: 'Will "markets": [ be ] parsed?' }],
        after: { markets: "not an array" },
      },
    ];
    expect(strip(JSON.stringify({ events }))).toEqual(expected(events));
  });
});

describe("gammaKeysetText", () => {
  it("takes the cursor from the page's tail without parsing the events", () => {
    const body = bytes(JSON.stringify({ events: recordedEvents.slice(0, 3), next_cursor: "aTo1MTk" }));
    const page = gammaKeysetText.readBody(body);
    expect(page.nextCursor).toBe("aTo1MTk");
    expect(page.body).toBe(body);
  });

  it("reads the last page (no cursor, null or empty) and strips a BOM", () => {
    for (const tail of ["", ',"next_cursor":null', ',"next_cursor":""']) {
      const page = gammaKeysetText.readBody(bytes(`\uFEFF{"events":[{"id":"1"}]${tail}}`));
      expect(page.nextCursor).toBeNull();
      expect(new TextDecoder().decode(page.body)).toBe(`{"events":[{"id":"1"}]${tail}}`);
    }
  });

  it("parses a page laid out differently in full, and refuses one that is cut short", () => {
    const reordered = gammaKeysetText.readBody(bytes('{"next_cursor":"abc","events":[{"id":"1"}]}'));
    expect(reordered.nextCursor).toBe("abc");
    expect(JSON.parse(new TextDecoder().decode(reordered.body))).toEqual({ events: [{ id: "1" }] });

    const text = JSON.stringify({ events: recordedEvents.slice(0, 3), next_cursor: "aTo1MTk" });
    expect(() => gammaKeysetText.readBody(bytes(text.slice(0, Math.floor(text.length / 2))))).toThrow();
    expect(() => gammaKeysetText.readBody(bytes('{"error":"rate limited"}'))).toThrow();
  });
});
