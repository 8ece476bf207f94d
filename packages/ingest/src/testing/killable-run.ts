/**
 * A child process for the "killed mid-way" test: opens the warehouse at argv[2] and runs a
 * Polymarket snapshot against the replay server at argv[3] with tiny batches, so rows are
 * on disk long before the run could finish. The test kills it with SIGKILL.
 */
import { openWarehouse } from "@epicenter/warehouse";
import { silentLogger } from "../logger";
import { runSync } from "../sync/run-sync";

const [path, polymarketApiUrl] = process.argv.slice(2);
const warehouse = openWarehouse({ path: path as string, poolSize: 2 });
process.stdout.write("started\n");
await runSync(
  {
    warehouse,
    logger: silentLogger,
    config: {
      polymarketApiUrl: polymarketApiUrl as string,
      polymarketClobUrl: "http://127.0.0.1:9",
      polymarketDataUrl: "http://127.0.0.1:9",
      kalshiApiUrl: "http://127.0.0.1:9",
    },
    http: { timeoutMs: 600_000 },
    // Small batches, so the run has written some before it stalls (rows or, on the engine path, bytes).
    writer: { maxRows: 100, maxBytes: 256 * 1024, engineBatchBytes: 256 * 1024 },
  },
  { source: "polymarket" },
);
