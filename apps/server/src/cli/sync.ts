/**
 * `npm run sync -- --once [--source polymarket|kalshi]`: one snapshot pass with the same
 * config and code as the server's scheduler, then exit: 0 when every run succeeded, 1 when
 * one failed (the reason is printed and recorded in `internal.sync_run_history`).
 */
import { parseArgs } from "node:util";
import { runSync, SOURCES, type SourceName } from "@epicenter/ingest";
import { ConfigError, parseConfig } from "../config";
import { openStores, StartupError } from "../deps";
import { createLogger } from "../logger";
import { ingestDeps } from "../services/sync/sync-runtime";

const USAGE = "Usage: npm run sync -- --once [--source polymarket|kalshi]";

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { once: { type: "boolean" }, source: { type: "string" }, help: { type: "boolean" } },
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

  const config = parseConfig({ LOG_LEVEL: "info", ...process.env });
  const logger = createLogger(config.logLevel);
  const stores = await openStores(config, logger, { sandbox: false });
  let failed = 0;
  try {
    for (const source of sources) {
      const summary = await runSync(ingestDeps(config, stores.warehouse, logger), { source });
      const line = `${source}: ${summary.events_written} events, ${summary.markets_written} markets in ${(summary.duration_ms / 1000).toFixed(1)} s`;
      if (summary.success) console.log(line);
      else {
        failed += 1;
        console.error(`${source}: failed after ${(summary.duration_ms / 1000).toFixed(1)} s: ${summary.error}`);
      }
    }
  } finally {
    await stores.close();
  }
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
