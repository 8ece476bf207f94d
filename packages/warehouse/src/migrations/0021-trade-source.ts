import { onCluster, storageTable } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * One trade tape per venue, whichever path each trade came by (issue 46): `source` is
 * `rest` for a trade read from the venue's REST tapes (every row before this migration),
 * `stream` for one read from its WebSocket feed. A trade is stored once: the live capture
 * leaves out a trade the tape holds already, and the REST walkers one the stream brought
 * (Kalshi by `trade_id`; Polymarket by its transaction, token, price and size), so the
 * REST walk heals the stream's gaps without doubling what it saw.
 */
export const tradeSource: WarehouseMigration = {
  version: 21,
  name: "the trade tapes say which path each trade came by",
  statements: (ctx) =>
    ["polymarket", "kalshi"].flatMap((database) => {
      const add = "ADD COLUMN IF NOT EXISTS source LowCardinality(String) DEFAULT 'rest'";
      return [
        `ALTER TABLE ${storageTable(ctx, database, "trades")}${onCluster(ctx)} ${add}`,
        ...(ctx.cluster ? [`ALTER TABLE ${database}.trades${onCluster(ctx)} ${add}`] : []),
      ];
    }),
};
