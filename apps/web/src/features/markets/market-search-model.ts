/** The market search's rules without React: when it asks, how many it shows, how the arrows move. */

/** Typing pauses this long before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Results shown under the box. */
export const SEARCH_LIMIT = 8;

/** The option ↓ or ↑ marks next, wrapping at both ends; 0 when there are none. */
export function nextActive(key: "ArrowDown" | "ArrowUp", current: number, count: number): number {
  if (count <= 0) return 0;
  const from = Math.min(Math.max(current, 0), count - 1);
  return key === "ArrowDown" ? (from + 1) % count : (from - 1 + count) % count;
}
