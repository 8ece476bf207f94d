/**
 * A child process for the "tape walk killed mid-way" tests: opens the warehouse at argv[2]
 * and walks the trade tape of the venue argv[5] (Kalshi when absent) with the config JSON
 * argv[3] at the clock argv[4] (a history step of no markets is the tape alone). The test
 * kills it with SIGKILL.
 */
import { openWarehouse } from "@epicenter/warehouse";
import { silentLogger } from "../logger";
import type { SourceName } from "../sources";
import { runHistoryStep } from "../sync/history";

const [path, config, now, source = "kalshi"] = process.argv.slice(2) as [string, string, string, SourceName?];
const warehouse = openWarehouse({ path: path as string, poolSize: 2 });
process.stdout.write("started\n");
for (;;) {
  const step = await runHistoryStep(
    {
      warehouse,
      logger: silentLogger,
      config: JSON.parse(config as string),
      clock: () => new Date(Number(now)),
      http: { timeoutMs: 600_000 },
    },
    source,
    { markets: 0 },
  );
  if (!step.outcome?.more) break;
}
process.exit(0);
