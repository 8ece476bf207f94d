import { RESOLUTION_VENUES, resolutionsDdl, resolutionsSql } from "../resolutions";
import type { WarehouseMigration } from "./types";

/**
 * The resolutions ledger (`src/resolutions.ts`): `polymarket.resolutions`,
 * `kalshi.resolutions` and `crossvenue.resolutions` over both, then every market the
 * archive already holds settled, derived from its snapshots. Run again after an
 * interruption, the backfill writes rows equal to those there, which the table folds.
 */
export const resolutions: WarehouseMigration = {
  version: 19,
  name: "the resolutions ledger of both venues, backfilled from the snapshots",
  statements: (ctx) => [...resolutionsDdl(ctx), ...RESOLUTION_VENUES.map((venue) => resolutionsSql(venue, "all"))],
};
