/**
 * The catalog's words for the live feeds' tables (issue 46): what a row of book changes is
 * and how a book is rebuilt from them, and how the stream's sessions and gaps say what the
 * capture saw and what it missed.
 */
const venueWords = {
  polymarket: { key: "id", unit: "USDC 0–1", size: "Shares", feed: "Polymarket's CLOB market channel" },
  kalshi: { key: "ticker", unit: "dollars 0–1", size: "Contracts", feed: "Kalshi's WebSocket (orderbook_delta)" },
} as const;

type Venue = keyof typeof venueWords;

const tableWords = (venue: Venue): Record<string, string> => {
  const { key, feed } = venueWords[venue];
  return {
    [`${venue}.book_changes`]: `Every change of a followed market's Yes book as ${feed} told it, one row per level, as it arrived. kind = 'reset' says the stream sent the whole book (a first subscription, a reconnect, a resubscription after a gap) or the capture wrote it whole again (every 30 minutes, so ${venue}.book_asof finds a start within its look-back): every level known before is gone and the book's levels follow as 'snapshot' rows with the same received_at; kind = 'change' is one level's new resting size (0: the level is gone). A market's book at a moment is its last reset at or before it with each level's last row since. What the stream did not see is in ${venue}.stream_gaps; key: ${key}.`,
    [`${venue}.stream_sessions`]: `One row per connection of the live capture to ${feed} (FINAL keeps the newest): when it opened and closed, why it closed, the markets it followed, the messages, book changes and trades it read. A session still open has closed_at NULL.`,
    [`${venue}.stream_gaps`]: `One row per market per time the live capture could not vouch for its book (FINAL keeps the newest): from_ts, the last moment it was known current; to_ts, when a fresh book arrived (NULL: not yet); cause (sequence: a lost message; silence: the stream went quiet; disconnect; a capture stopped leaves its gaps open) and healed_by (resubscribe: the book came whole again). A market was observed continuously from t1 to t2 when a reset precedes t1 in ${venue}.book_changes and no gap overlaps the span.`,
  };
};

const changeColumns = (venue: Venue): Record<string, string> => {
  const { key, unit, size } = venueWords[venue];
  return {
    [key]: `The market (its ${key} in the markets tables).`,
    received_at: "When the capture received the frame (UTC, microseconds; strictly increasing within a capture).",
    at: "The venue's own time of the change, where the frame carries one (NULL where it does not: Kalshi's snapshots).",
    kind: "reset (the whole book follows), snapshot (a level of that whole book) or change (one level's new size).",
    side: "bid or ask, of the Yes outcome (Kalshi's No bids are Yes asks at 1 − p).",
    price: `The level's price, ${unit}.`,
    size: `${size} resting at the level after the change; 0 when the level is gone.`,
    session: `The connection it came by (${venue}.stream_sessions).`,
  };
};

const sessionColumns: Record<string, string> = {
  session: "The connection's id: its opening microsecond, made unique.",
  opened_at: "When the connection opened (UTC).",
  closed_at: "When it closed (UTC); NULL while it is open.",
  why: "Why it closed: stopped, silence (no data for the watchdog's span), sequence (a lost message), closed <code>, refused <HTTP status>, error: ….",
  markets: "Markets it followed.",
  messages: "Frames it read, heartbeats included.",
  changes: "Book levels it changed.",
  trades: "Trades it read.",
  updated_at: "When this row was written; FINAL keeps the newest.",
};

const gapColumns = (venue: Venue): Record<string, string> => ({
  [venueWords[venue].key]: "The market whose book was not vouched for.",
  from_ts: "The last moment the book was known current (the connection's last data frame), UTC.",
  to_ts: "When a fresh whole book arrived and the gap closed (UTC); NULL while it is open.",
  cause:
    "sequence (a message lost on the subscription), silence (the stream went quiet while the socket stayed open), disconnect (closed, refused or failed).",
  healed_by: "resubscribe (a new connection's subscription sent the book whole); empty while open.",
  session: `The connection on which it opened (${venue}.stream_sessions).`,
  updated_at: "When this row was written; FINAL keeps the newest.",
});

export const LIVE_TABLE_DESCRIPTIONS: Record<string, string> = { ...tableWords("polymarket"), ...tableWords("kalshi") };

export const LIVE_COLUMN_DESCRIPTIONS: Record<string, Record<string, string>> = Object.fromEntries(
  (["polymarket", "kalshi"] as const).flatMap((venue) => [
    [`${venue}.book_changes`, changeColumns(venue)],
    [`${venue}.stream_sessions`, sessionColumns],
    [`${venue}.stream_gaps`, gapColumns(venue)],
  ]),
);
