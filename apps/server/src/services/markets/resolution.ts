/**
 * A market's line of the resolutions ledger (`<venue>.resolutions`, issue 29) as the
 * market page shows it, with its event's winner. The statement travels with the answer,
 * so "Query in Editor" opens the ledger row the page read.
 */
import { type MarketResolution, RESOLUTION_OUTCOME_TYPES, type Venue } from "@epicenter/contracts";
import { EVENT_WINNER, isoTimeOf, type Warehouse } from "@epicenter/warehouse";
import { type BoundQuery, VENUE_READERS } from "../venues";
import { bound, numberOf, type Row, textOf } from "../venues/venue";

export function resolutionQuery(venue: Venue, id: string): BoundQuery {
  return bound(
    `${VENUE_READERS[venue].facts.label} market ${id}: resolution`,
    `SELECT *\nFROM ${venue}.resolutions FINAL\nWHERE market_id = {id:String}`,
    { id },
  );
}

const eventWinner = (venue: Venue) =>
  `SELECT ${EVENT_WINNER} AS winner FROM ${venue}.resolutions FINAL WHERE event_id = {event:String}`;

const isOutcomeType = (value: unknown): value is MarketResolution["outcome_type"] =>
  (RESOLUTION_OUTCOME_TYPES as readonly unknown[]).includes(value);

const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.map((item) => Number(item)).filter(Number.isFinite) : [];

export async function readResolution(warehouse: Warehouse, venue: Venue, id: string): Promise<MarketResolution | null> {
  const query = resolutionQuery(venue, id);
  const [row] = await warehouse.query<Row>(query.sql, { params: query.params });
  if (!row || !isOutcomeType(row.outcome_type)) return null;
  const [event] = await warehouse.query<{ winner: string }>(eventWinner(venue), {
    params: { event: String(row.event_id) },
  });
  const history = Array.isArray(row.status_history) ? (row.status_history as Array<Record<string, unknown>>) : [];
  const from = row.last_price_from;
  return {
    outcome_type: row.outcome_type,
    winning_outcome: textOf(row.winning_outcome),
    payouts: numbers(row.payouts),
    scalar_value: numberOf(row.scalar_value),
    source: String(row.source),
    source_detail: textOf(row.source_detail),
    end_date: isoTimeOf(row.end_date),
    closed_at: isoTimeOf(row.closed_at),
    resolved_at: isoTimeOf(row.resolved_at),
    proposed_at: isoTimeOf(row.proposed_at),
    disputed_at: isoTimeOf(row.disputed_at),
    disputed: row.disputed === true,
    flipped: row.flipped === true,
    status_history: history.flatMap((entry) => {
      const at = isoTimeOf(entry.seen_at);
      return at ? [{ status: String(entry.status), at }] : [];
    }),
    last_prices: numbers(row.last_prices),
    last_price_at: isoTimeOf(row.last_price_at),
    last_price_from: from === "snapshot" || from === "history" ? from : null,
    event_winner: textOf(event?.winner),
  };
}
