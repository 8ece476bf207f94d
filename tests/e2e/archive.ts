/**
 * The browser tier's archive, seeded before the server opens it (chDB allows one process
 * per data dir): 7 days of 10-minute history, so the 1-day and 7-day dashboards have data,
 * then a snapshot of both venues from the replay, the backfill's first pages of settled
 * markets, one step of the real history worker per venue over the markets it picks first,
 * so market pages draw the venue's own history, and a pass of the cross-venue matcher.
 * Walking every market's history takes the server minutes of both cores, which every
 * browser test would run beside.
 *
 * `npm test` seeds it ahead (`tests/e2e/prepare.ts`, beside the integration tier's serial
 * files, which leave a core idle) into the folder named by `EPICENTER_E2E_ARCHIVE`; the
 * global setup uses that folder when it is there and seeds one itself otherwise.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createRateLimiter,
  generateDemoHistory,
  type ReplayServer,
  replayIngestConfig,
  runBackfillStep,
  runHistoryStep,
  runMatcher,
  runSync,
  silentLogger,
} from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse } from "@epicenter/warehouse";
import { SEEDED_MARKER } from "./prepared";

/** Markets of each venue whose history the seed fetches (the history worker's first picks). */
const SEEDED_HISTORY_MARKETS = 40;
/** Backfill steps per venue the seed runs (a step is a page of closed events). */
const SEEDED_BACKFILL_STEPS = 3;
export async function seedArchive(dataDir: string, replay: ReplayServer): Promise<void> {
  const warehouse = openWarehouse({ path: join(dataDir, "warehouse"), poolSize: 2 });
  try {
    await migrateWarehouse(warehouse);
    await generateDemoHistory(warehouse, { days: 7, intervalMinutes: 10 });
    const deps = {
      warehouse,
      config: replayIngestConfig(replay),
      // The replay is local; the venues' limits have suites of their own.
      rateLimiters: new Map(
        ["polymarket", "polymarket-clob", "polymarket-data", "kalshi"].map((name) => [
          name,
          createRateLimiter({ requests: 100_000, perMs: 1_000 }),
        ]),
      ),
      logger: silentLogger,
    };
    for (const source of ["polymarket", "kalshi"] as const) {
      const run = await runSync(deps, { source });
      if (!run.success) throw new Error(`the e2e seed's ${source} snapshot failed: ${run.error}`);
      // Settled markets (the resolutions ledger, closed markets' pages): the backfill's first pages.
      for (let page = 0; page < SEEDED_BACKFILL_STEPS; page++) {
        const backfill = await runBackfillStep(deps, source);
        if (backfill.run && !backfill.run.success) throw new Error(`the e2e seed's ${source} backfill failed`);
        if (backfill.done) break;
      }
      const step = await runHistoryStep(deps, source, { markets: SEEDED_HISTORY_MARKETS });
      if (step.run.error) throw new Error(`the e2e seed's ${source} history step failed: ${step.run.error}`);
    }
    // The matcher's pass over both snapshots, so the arbitrage monitor and Admin → Cross-venue
    // have pairs when the server opens; the server's own matcher runs after its first snapshots.
    await runMatcher({ warehouse, logger: silentLogger });
  } finally {
    await warehouse.close();
  }
  writeFileSync(join(dataDir, SEEDED_MARKER), new Date().toISOString());
}
