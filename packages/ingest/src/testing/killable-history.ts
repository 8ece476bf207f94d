/**
 * A child process for the "history step killed mid-way" test: opens the warehouse at
 * argv[2] and runs history steps of the source argv[4] with the config JSON argv[3], at
 * the clock argv[5], with tiny inserts, so rows are on disk long before the step could
 * finish. The test kills it with SIGKILL.
 */
import { openWarehouse } from "@epicenter/warehouse";
import { silentLogger } from "../logger";
import type { SourceName } from "../sources";
import { runHistoryStep } from "../sync/history";

const [path, config, source, now] = process.argv.slice(2);
const warehouse = openWarehouse({ path: path as string, poolSize: 2 });
process.stdout.write("started\n");
await runHistoryStep(
  {
    warehouse,
    logger: silentLogger,
    config: JSON.parse(config as string),
    clock: () => new Date(Number(now)),
    http: { timeoutMs: 600_000 },
  },
  source as SourceName,
  { markets: 1_000, batchRows: 50 },
);
