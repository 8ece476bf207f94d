/**
 * The server's side of ingestion: the scheduler that snapshots both sources every
 * `SYNC_INTERVAL_SECONDS` and, between runs, does the work `SYNC_WORKERS` names (books,
 * backfill, history, cross-venue pairs, the live feeds), fed from the config and writing to the same
 * warehouse the API reads. An interval of `0` turns it off (tests, the CLI).
 */
import { createScheduler, type Scheduler, SOURCES, type SyncDeps } from "@epicenter/ingest";
import type { Warehouse } from "@epicenter/warehouse";
import type { Logger } from "pino";
import type { Config } from "../../config";
import { seismoAdjudicator } from "../crossvenue/adjudicator";

/** Ingest speaks pino's shape, so it takes the server's logger as it is. */
export function ingestDeps(config: Pick<Config, "upstream">, warehouse: Warehouse, logger: Logger): SyncDeps {
  return { warehouse, config: config.upstream, logger: logger.child({ area: "ingest" }) };
}

export function startScheduler(
  config: Pick<Config, "upstream" | "syncIntervalSeconds" | "syncWorkers" | "seismo">,
  warehouse: Warehouse,
  logger: Logger,
  /** Called after each snapshot lands: the sandbox takes a fresh snapshot for user SQL. */
  onSnapshot?: () => void,
): Scheduler | undefined {
  if (config.syncIntervalSeconds <= 0) return undefined;
  const adjudicator = seismoAdjudicator(config.seismo);
  const scheduler = createScheduler(ingestDeps(config, warehouse, logger), {
    intervalSeconds: config.syncIntervalSeconds,
    sources: SOURCES,
    books: config.syncWorkers.has("books"),
    backfill: config.syncWorkers.has("backfill"),
    history: config.syncWorkers.has("history"),
    crossVenue: config.syncWorkers.has("crossvenue"),
    live: config.syncWorkers.has("live"),
    ...(adjudicator ? { adjudicator } : {}),
    ...(onSnapshot ? { onSnapshot } : {}),
  });
  scheduler.start();
  logger.info(
    { intervalSeconds: config.syncIntervalSeconds, workers: [...config.syncWorkers] },
    "sync scheduler started",
  );
  return scheduler;
}
