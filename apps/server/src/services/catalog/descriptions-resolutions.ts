/**
 * The catalog's words for the resolutions ledger (issue 29): what settled means on each
 * venue, how a Polymarket negRisk event and a Kalshi mutually exclusive event map to one
 * row per market, and which clock every date is on.
 */
const SETTLED_POLYMARKET =
  "Polymarket counts as settled when the UMA oracle's status is resolved (or, before UMA, the market closed with no status) and outcomePrices are payouts (each 0, 0.5 or 1; a resolved AMM-era market's pool prices, such as 0.9999990, count as the payout they are within 0.0001 of). A market that closed at prices like 0.99999996 with no resolution status has no row: that is a price, not a payout.";
const SETTLED_KALSHI =
  "Kalshi counts as settled when the market has a result: yes, no, scalar (paid settlement_value_dollars per Yes contract; a tied game settles scalar at 0.5) or void.";
const NEG_RISK =
  "Multi-outcome events are one row per market, as both venues list them: each child of a Polymarket negRisk event (exclusive = true) and each market of a Kalshi mutually exclusive event (exclusive = true) settles yes or no on its own, and the event's winner is the one child that settled yes (crossvenue.resolutions.event_winner).";
const CLOCK =
  'Every date is UTC. Both venues\' rules state their times in US Eastern time ("by December 31, 2027, 11:59 PM ET" in a Polymarket description; "before Apr 1, 2026 at 12:00am ET" in a Kalshi rule), so a deadline at midnight Eastern shows as 04:00 or 05:00 UTC the next day here, and a day named in a rule is an Eastern day, not a UTC one.';

export const RESOLUTION_TABLE_DESCRIPTIONS: Record<string, string> = {
  "polymarket.resolutions": `How every settled Polymarket market settled: one row per market after FINAL (ReplacingMergeTree on updated_at), derived from the snapshots when the market is first captured settled and again whenever a later capture shows a changed outcome or UMA status (states keeps every outcome it was seen at, status_history when each status was first seen). ${SETTLED_POLYMARKET} ${NEG_RISK} ${CLOCK} Both venues together: crossvenue.resolutions.`,
  "kalshi.resolutions": `How every settled Kalshi market settled: one row per market after FINAL (ReplacingMergeTree on updated_at), derived from the snapshots when the market is first captured with a result and again whenever a later capture shows a changed result or status (states keeps every outcome it was seen at, status_history when each status was first seen: closed, determined, disputed, amended, finalized). ${SETTLED_KALSHI} ${NEG_RISK} ${CLOCK} Both venues together: crossvenue.resolutions.`,
  "crossvenue.resolutions": `polymarket.resolutions and kalshi.resolutions as one (FINAL applied), with each event's winner: event_winner is the label of the one market of the event that settled yes (empty when none or several did), event_markets how many of its markets have settled. ${NEG_RISK} For calibration, join a market's price some time before closed_at (polymarket.daily_closes, kalshi.candles) to outcome_type: see the gallery's calibration example. ${CLOCK}`,
};

const utc = (what: string) => `${what} (UTC).`;

const RESOLUTION_COLUMNS: Record<string, string> = {
  venue: "polymarket or kalshi.",
  market_id: "The market: Polymarket id (polymarket.markets.id) or Kalshi ticker (kalshi.markets.ticker).",
  event_id: "The market's event: Polymarket event id or Kalshi event_ticker.",
  question:
    "The market's question as last captured (Kalshi: its title, or the event's title with the market's label where the title is empty).",
  outcome_label:
    'The market\'s name within its event: Polymarket groupItemTitle ("32-33°F", a candidate), Kalshi yes_sub_title. Empty for a market alone in its event.',
  outcomes: "The outcome labels in the venue's order (Polymarket outcomes, usually Yes, No; Kalshi always Yes, No).",
  outcome_type:
    "How it settled: yes (the first outcome won: Yes, or the first named side), no (the second won), split (Polymarket: paid part to each outcome, a 50-50 when the question could not be settled), scalar (Kalshi: paid scalar_value per Yes contract) or void (Kalshi: cancelled, positions returned at cost).",
  payouts:
    "What one share of each outcome paid, in the order of outcomes: [1, 0] yes, [0, 1] no, [0.5, 0.5] a 50-50, [v, 1 − v] a scalar, [] void.",
  winning_index:
    "The winning outcome's position in outcomes, from 0; NULL when no outcome won whole (split, scalar, void).",
  winning_outcome: "The winning outcome's label (Yes, No, or a side's name); empty when no outcome won whole.",
  scalar_value: "Kalshi scalar settlements: dollars paid per Yes contract (settlement_value_dollars). NULL otherwise.",
  expiration_value:
    "Kalshi: the value the settlement was based on, as the venue gives it (a number, a name). Empty on Polymarket.",
  end_date: utc(
    "When the market was scheduled to end: Polymarket endDate, Kalshi expected_expiration_time. A market often settles after it (a late source, a dispute): compare resolved_at",
  ),
  closed_at: utc(
    "When trading stopped: Polymarket closedTime (Gamma closes a market when its resolution is final, so this is usually resolved_at), Kalshi close_time (moved earlier when the market closed early)",
  ),
  resolved_at: utc(
    "When the outcome became final: Polymarket umaEndDate (else closedTime), Kalshi settlement_ts (older objects have none: then the earlier of close_time and updated_time)",
  ),
  source:
    "Who settled it: UMA (Polymarket's optimistic oracle), Polymarket (settled before UMA, no oracle status) or Kalshi (the exchange's settlement).",
  source_detail:
    "Polymarket: the resolution source the market's rules name (resolutionSource, often a URL; may be empty). Empty on Kalshi.",
  status:
    "The venue's status at the last capture: Polymarket umaResolutionStatus (resolved, or closed before UMA), Kalshi status (finalized, determined, …).",
  venue_statuses:
    "Polymarket: the UMA status sequence Gamma reports (umaResolutionStatuses, e.g. proposed, disputed, proposed, resolved): the whole history even when the archive captured only its end. Empty on Kalshi.",
  status_history:
    "Each venue status the archive captured after trading began to end, with the first capture that showed it (status, seen_at UTC), oldest first: proposed, disputed, resolved on Polymarket; closed, determined, disputed, amended, finalized on Kalshi. Captures are about 10 minutes apart, so seen_at is within that of the change.",
  proposed_at: utc(
    "Polymarket: the first capture that showed the UMA status proposed; NULL when none did (captured already settled, or Kalshi)",
  ),
  disputed_at: utc("The first capture that showed the status disputed (Polymarket UMA, or Kalshi); NULL when none did"),
  disputed:
    "Whether the settlement was disputed: Polymarket when the UMA status sequence or a capture shows disputed, Kalshi when a capture showed the status disputed.",
  flipped:
    "Whether the archive saw the market settled at more than one outcome (states has more than one entry): a settlement changed after it was first published.",
  states:
    "Every outcome the archive saw the market settled at, oldest first: (seen_at UTC, outcome_type, payouts). The current one is the last; earlier ones are kept when a dispute or an amendment changed it.",
  last_prices:
    "The last captured price of each outcome before closed_at, in the order of outcomes (USDC or dollars, 0–1): from whichever is later, the last snapshot still trading or the last price-history point (polymarket.prices, the last kalshi.candles close). Empty when the archive has neither. Polymarket markets trade until their resolution is final (closed_at), so there this is usually already the settled price; for the price before the outcome was known, read the history a day or more before closed_at, as the calibration example does.",
  last_price_at: utc(
    "When last_prices was captured: the snapshot's sync_timestamp, or the history point's time (a candle's end, capped at closed_at)",
  ),
  last_price_from:
    "Where last_prices comes from: snapshot, history, or empty when neither had a price before closed_at.",
  exclusive:
    "Whether the market's event is mutually exclusive (one market of it settles yes): Polymarket negRisk, Kalshi the event's mutually_exclusive. NULL when not known.",
  updated_at: utc("When this row was derived; FINAL keeps the newest"),
  event_winner:
    "The label (outcome_label, or the question) of the one market of this event that settled yes; empty when none or several did.",
  event_markets: "How many markets of this event have settled.",
};

export const RESOLUTION_COLUMN_DESCRIPTIONS: Record<string, Record<string, string>> = {
  "polymarket.resolutions": RESOLUTION_COLUMNS,
  "kalshi.resolutions": RESOLUTION_COLUMNS,
  "crossvenue.resolutions": RESOLUTION_COLUMNS,
};
