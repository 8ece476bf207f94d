/**
 * The catalog's words for the order-book tables and the "as of" views (issue 28): what
 * each price is (of which outcome, which side, in which unit), how Kalshi's bids-only
 * book maps to bids and asks, and what the views look back over.
 */
export const BOOK_TABLE_DESCRIPTIONS: Record<string, string> = {
  "polymarket.books":
    "Order-book depth captured with each snapshot: one row per market per capture, the top 10 levels of each side of the market's Yes book as parallel arrays, best first (bid_price descending, ask_price ascending). The Yes book is the CLOB book of the market's first token (clobTokenIds[1]); the No book is the same orders from the other side (a No bid at p is a Yes ask at 1 − p), so it is not stored twice. Markets traded in the last day are captured every snapshot, the rest once an hour (state); polymarket.book_coverage says what each capture left out. Captured since this archive started: the venue keeps no book history. Per level: polymarket.book_levels; at a moment: polymarket.book_asof(ts).",
  "kalshi.books":
    "Order-book depth captured with each snapshot: one row per market per capture, the top 10 levels of each side of the Yes book as parallel arrays, best first. Kalshi lists resting bids only: the Yes bids are bid_price; each No bid at p for q contracts is a Yes ask at 1 − p for q, which is ask_price. Markets traded in the last day are captured every snapshot, the rest once an hour (state); kalshi.book_coverage says what each capture left out. Kalshi publishes no book history: the archive's is the only one. Per level: kalshi.book_levels; at a moment: kalshi.book_asof(ts).",
  "polymarket.book_levels":
    "polymarket.books one row per price level: side (bid or ask, of the Yes outcome), level (1 = best), price (USDC 0–1) and size (shares). A book with no level on either side has no rows here; its row is in polymarket.books.",
  "kalshi.book_levels":
    "kalshi.books one row per price level: side (bid or ask, of Yes; asks are Kalshi's No bids at 1 − p), level (1 = best), price (dollars 0–1) and size (contracts). A book with no level on either side has no rows here; its row is in kalshi.books.",
  "polymarket.book_coverage":
    "One row per book capture: markets open at the snapshot, due by tier (active: traded in the last day, every snapshot; hourly: the rest, a sixth of them each snapshot), captured, left out because the rate budget could not take them (the least traded first), failed at the venue, empty books, markets that closed since (each gets one empty 'closed' row), requests, the budget in markets and the time taken.",
  "kalshi.book_coverage":
    "One row per book capture: markets open at the snapshot, due by tier (active: traded in the last day, every snapshot; hourly: the rest, a sixth of them each snapshot), captured, left out because the token bucket could not take them (Kalshi bills each ticker of a batch; the least traded go first), failed, empty books, markets that closed since, requests, the budget in markets and the time taken.",
  "polymarket.book_asof":
    "Every market's order book at a moment: SELECT * FROM polymarket.book_asof(now() - INTERVAL 1 HOUR), or book_asof(ts = '2026-11-20 12:00:00'). One row per level (side, level, price, size) with captured_at and captured_by. Where the live stream was following the market at that moment (a connection open, no gap in polymarket.stream_gaps), the book is exact to the event: every level, from polymarket.book_changes (captured_by = 'stream'). Elsewhere it is the last REST capture at or before it (captured_by = 'rest', the top 10 levels), looking back 70 minutes (a quiet market's hour and a snapshot's slack): a market with no capture in that window, or closed since its last one, has no book. An empty book has no rows.",
  "kalshi.book_asof":
    "Every market's order book at a moment: SELECT * FROM kalshi.book_asof(now() - INTERVAL 1 HOUR), or book_asof(ts = '2026-11-20 12:00:00'). One row per level of the Yes book (asks are Kalshi's No bids at 1 − p) with captured_at and captured_by. Where the live stream was following the market at that moment (a signed connection open, no gap in kalshi.stream_gaps), the book is exact to the event: every level, from kalshi.book_changes (captured_by = 'stream'). Elsewhere it is the last REST capture at or before it (captured_by = 'rest', the top 10 levels), looking back 70 minutes: a market with no capture in that window, or closed since its last one, has no book. An empty book has no rows.",
  "polymarket.markets_asof":
    "Every market as last captured at or before a moment: SELECT * FROM polymarket.markets_asof(now() - INTERVAL 1 DAY), or markets_asof(ts = '2026-11-20 12:00:00'). One row per market with every column of polymarket.markets but raw, and captured_at, the snapshot it comes from. Markets still tracked at ts come from the 24 hours of snapshots before it; a market captured for the last time before that comes from polymarket.markets_latest, its final state. A market not yet listed at ts has no row.",
  "kalshi.markets_asof":
    "Every market as last captured at or before a moment: SELECT * FROM kalshi.markets_asof(now() - INTERVAL 1 DAY), or markets_asof(ts = '2026-11-20 12:00:00'). One row per market with every column of kalshi.markets but raw, and captured_at, the snapshot it comes from. Markets still tracked at ts come from the 24 hours of snapshots before it; a market captured for the last time before that comes from kalshi.markets_latest, its final state. A market not yet listed at ts has no row.",
};

const CAPTURED_AT =
  "When this row was captured: the sync_timestamp of the snapshot (or book capture) it comes from, the last at or before the moment asked for (UTC).";

const bookColumns = (key: string, unit: string, size: string): Record<string, string> => ({
  captured_at: CAPTURED_AT,
  [key]: `The market (its ${key} in the markets tables).`,
  book_timestamp:
    "The venue's own time of the book, where it gives one (Polymarket's CLOB does; Kalshi does not: NULL).",
  state:
    "Why the row is there: active (traded in the last day, captured every snapshot), hourly (quiet, captured once an hour) or closed (the market left the open catalog; an empty row that ends its book).",
  bid_price: `Resting bids for Yes, best (highest) first, ${unit}: what a seller of Yes is paid, level by level.`,
  bid_size: `${size} resting at each bid_price.`,
  ask_price: `Resting asks for Yes, best (lowest) first, ${unit}: what a buyer of Yes pays, level by level.`,
  ask_size: `${size} resting at each ask_price.`,
  side: "bid or ask, of the Yes outcome.",
  level: "1 for the best price of its side, 2 for the next, … (up to 10 in a REST capture).",
  price: `The level's price, ${unit}.`,
  size: `${size} resting at the level.`,
});

const bookCoverageColumns: Record<string, string> = {
  sync_timestamp: "The snapshot the capture belongs to (its books carry the same sync_timestamp).",
  markets_open: "Markets open with a book at the snapshot.",
  active_due: "Of those, traded in the last day: due every snapshot.",
  hourly_due: "Quiet markets due at this snapshot (a sixth of them, so each once an hour).",
  captured: "Books written.",
  left_out: "Markets due that the rate budget could not take this time (the least traded).",
  failed: "Markets whose book the venue did not give (refused after retries, or left out of its answer).",
  empty: "Captured books with no level on either side.",
  closed: "Markets that closed since their last book: each got one empty 'closed' row.",
  requests: "Requests sent to the venue.",
  budget: "The most markets this capture planned for: its share of the venue's limit over one snapshot interval.",
  duration_ms: "How long the capture took.",
  error: "The last error a failed request gave; empty when none failed.",
};

const CAPTURED_BY =
  "How the book was captured: stream (the live feed, exact to the event; captured_at is the book's last change at or before the moment) or rest (the REST capture of captured_at).";

export const BOOK_COLUMN_DESCRIPTIONS: Record<string, Record<string, string>> = {
  "polymarket.books": bookColumns("id", "USDC 0–1", "Shares"),
  "polymarket.book_levels": bookColumns("id", "USDC 0–1", "Shares"),
  "polymarket.book_asof": { ...bookColumns("id", "USDC 0–1", "Shares"), captured_by: CAPTURED_BY },
  "kalshi.books": bookColumns("ticker", "dollars 0–1", "Contracts"),
  "kalshi.book_levels": bookColumns("ticker", "dollars 0–1", "Contracts"),
  "kalshi.book_asof": { ...bookColumns("ticker", "dollars 0–1", "Contracts"), captured_by: CAPTURED_BY },
  "polymarket.book_coverage": bookCoverageColumns,
  "kalshi.book_coverage": bookCoverageColumns,
  "polymarket.markets_asof": { captured_at: CAPTURED_AT },
  "kalshi.markets_asof": { captured_at: CAPTURED_AT },
};
