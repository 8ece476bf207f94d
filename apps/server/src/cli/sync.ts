/**
 * `npm run sync -- --once [--source polymarket|kalshi]`: one snapshot pass with the same
 * config and code as the server's scheduler, then exit: 0 when every run succeeded, 1 when
 * one failed (the reason is printed and recorded in `internal.sync_run_history`). After
 * the snapshots it pairs the same questions across the venues (`crossvenue.market_pairs`).
 *
 * `--history [--markets N]` runs one bounded pass of the price and trade history instead:
 * steps over the markets the archive knows, most wanted first, until N markets (default
 * 200) are brought up to date or none is left.
 */
import { parseArgs } from "node:util";
import {
  captureBooks,
  recordMatcherRun,
  runHistoryStep,
  runMatcher,
  runSync,
  SOURCES,
  type SourceName,
  type SyncDeps,
} from "@epicenter/ingest";
import { ConfigError, parseConfig } from "../config";
import { openStores, StartupError } from "../deps";
import { createLogger } from "../logger";
import { seismoAdjudicator } from "../services/crossvenue/adjudicator";
import { ingestDeps } from "../services/sync/sync-runtime";

const USAGE = "Usage: npm run sync -- --once [--history [--markets N]] [--source polymarket|kalshi]";
const HISTORY_STEP_MARKETS = 50;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      once: { type: "boolean" },
      history: { type: "boolean" },
      markets: { type: "string" },
      source: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help || !values.once) {
    console.log(
      `${USAGE}\n\nThe server runs the sync on its own every SYNC_INTERVAL_SECONDS; --once runs one pass now.`,
    );
    return values.help ? 0 : 2;
  }
  if (values.source && !SOURCES.includes(values.source as SourceName)) {
    console.error(`Unknown source "${values.source}". ${USAGE}`);
    return 2;
  }
  const sources = values.source ? [values.source as SourceName] : SOURCES;
  const markets = Number(values.markets ?? 200);
  if (!Number.isInteger(markets) || markets < 1) {
    console.error(`--markets takes a whole number of markets, at least 1 (got "${values.markets}"). ${USAGE}`);
    return 2;
  }

  const config = parseConfig({ LOG_LEVEL: "info", ...process.env });
  const logger = createLogger(config.logLevel);
  const stores = await openStores(config, logger, { sandbox: false });
  let failed = 0;
  try {
    const deps = { ...ingestDeps(config, stores.warehouse, logger), rateLimiters: new Map() };
    for (const source of sources) {
      if (values.history) {
        failed += (await historyPass(deps, source, markets)) ? 0 : 1;
        continue;
      }
      const summary = await runSync(deps, { source });
      const line = `${source}: ${summary.events_written} events, ${summary.markets_written} markets in ${(summary.duration_ms / 1000).toFixed(1)} s`;
      if (summary.success) {
        console.log(line);
        const books = await captureBooks(deps, source, summary.sync_timestamp, {
          intervalSeconds: config.syncIntervalSeconds,
        });
        console.log(
          `${source}: ${books.captured} order books of ${books.active_due + books.hourly_due} due (${books.left_out} left out for the budget, ${books.failed} failed)`,
        );
      } else {
        failed += 1;
        console.error(`${source}: failed after ${(summary.duration_ms / 1000).toFixed(1)} s: ${summary.error}`);
      }
    }
    if (!values.history && failed < sources.length) {
      // As the scheduler does after each snapshot: the same questions paired across the
      // venues, a full pass, logged where Admin → Cross-venue reads the matcher's runs.
      const startedAt = new Date();
      const adjudicator = seismoAdjudicator(config.seismo);
      const pairs = await runMatcher({ warehouse: stores.warehouse, logger, ...(adjudicator ? { adjudicator } : {}) });
      await recordMatcherRun(stores.warehouse, { startedAt, pass: "full", outcome: pairs });
      console.log(
        `cross-venue: ${pairs.sameContract} same-contract and ${pairs.related} related pairs from ${pairs.candidates} candidates in ${(pairs.durationMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await stores.close();
  }
  return failed === 0 ? 0 : 1;
}

/** Up to `markets` markets of `source`'s history, in steps; false when a step failed. */
async function historyPass(deps: SyncDeps, source: SourceName, markets: number): Promise<boolean> {
  const started = performance.now();
  const total = { markets: 0, points: 0, pages: 0 };
  while (total.markets < markets) {
    const step = await runHistoryStep(deps, source, {
      markets: Math.min(HISTORY_STEP_MARKETS, markets - total.markets),
    });
    if (!step.run.success || !step.outcome) {
      console.error(`${source} history: failed after ${total.markets} markets: ${step.run.error}`);
      return false;
    }
    total.markets += step.outcome.markets;
    total.points += step.outcome.points;
    total.pages += step.outcome.pages;
    if (!step.outcome.more) break;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${source} history: ${total.markets} markets, ${total.points} points and trades from ${total.pages} requests in ${seconds.toFixed(1)} s`,
  );
  return true;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
