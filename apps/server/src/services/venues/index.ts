/**
 * The venues' readers, one per venue of `VENUES`: what the market page, the API, the
 * dashboards, Seismo and MCP read a venue through (`venue.ts` says what a reader holds).
 */
import { VENUES, type Venue } from "@epicenter/contracts";
import { kalshiReader } from "./kalshi";
import { polymarketReader } from "./polymarket";
import type { VenueReader } from "./venue";

export const VENUE_READERS: Readonly<Record<Venue, VenueReader>> = {
  polymarket: polymarketReader,
  kalshi: kalshiReader,
};

/** Every venue's reader, in the order the product lists the venues. */
export const venueReaders = (): VenueReader[] => VENUES.map((venue) => VENUE_READERS[venue]);

export type { BoundQuery, Span, VenueReader, VenueReading, VenueTables } from "./venue";
