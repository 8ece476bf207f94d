/**
 * Test helper: every Gamma object in the Polymarket fixtures, and the odd values the
 * lenient readers are tested with, shared by the fast reader's and the engine mapping's
 * equivalence tests.
 */
import { fixture, fixtureLines } from "./fixtures";

export type Json = Record<string, unknown>;

/** Every Gamma object in every Polymarket fixture: events (with nested markets) and bare markets. */
export function fixtureObjects(): { events: unknown[]; markets: unknown[] } {
  const events = [
    ...fixture<unknown[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json"),
    ...fixture<unknown[]>("polymarket/events/gamma_events_default_order_old_2021.json"),
  ];
  const nested = events.flatMap((event) => ((event as Json).markets as unknown[] | undefined) ?? []);
  const markets = [
    ...nested,
    ...fixture<unknown[]>("polymarket/markets/gamma_markets_active_2026-02-13.json"),
    ...fixture<{ markets: unknown[] }>("polymarket/markets/gamma_markets_closed_false_limit200_wrapped_2026-02-13.json")
      .markets,
    ...fixtureLines<{ raw: unknown }>("polymarket/markets/gamma_market_objects_btc5m_2026-07-24.jsonl.gz").map(
      (line) => line.raw,
    ),
  ];
  return { events, markets };
}

/** Values that trip lenient readers: every one is tried in every field of some objects. */
export const ODD_VALUES: unknown[] = [
  null,
  undefined,
  "",
  " 12.5 ",
  "abc",
  "0x10",
  "1e3",
  0,
  -1.5,
  true,
  "true",
  "false",
  "yes",
  [],
  ["a", 1],
  '["x", "y"]',
  "[not json",
  "{}",
  {},
  { id: 5 },
  "2026-01-23 20:56:36+00",
  "2026-01-23",
  "0001-01-01T00:00:00Z",
  "9999-12-31T00:00:00Z",
  1_700_000_000,
];

export function mutations(object: Json, seed: number): Json[] {
  const keys = [...Object.keys(object), "id", "tags", "series", "events", "markets", "volumeNum"];
  return keys.map((key, i) => ({ ...object, [key]: ODD_VALUES[(seed + i) % ODD_VALUES.length] }));
}
