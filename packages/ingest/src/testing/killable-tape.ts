/**
 * A child process for the "tape walk killed mid-way" test: opens the warehouse at argv[2]
 * and walks Kalshi's trade tape with the config JSON argv[3] at the clock argv[4] (a
 * history step of no markets is the tape alone). The test kills it with SIGKILL.
 */
import { openWarehouse } from "@epicenter/warehouse";
import { silentLogger } from "../logger";
import { runHistoryStep } from "../sync/history";

const [path, config, now] = process.argv.slice(2);
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
    "kalshi",
    { markets: 0 },
  );
  if (!step.outcome?.more) break;
}
process.exit(0);
