/**
 * A child process for the "killed mid-way" test: opens the warehouse at argv[2] and runs a
 * Polymarket snapshot against the replay server at argv[3] with tiny batches, so rows are
 * on disk long before the run could finish. It says "wrote" on its standard output each
 * time a batch of rows has landed, so the test kills it (SIGKILL) once some have, without
 * guessing how long that takes.
 */
import { openWarehouse } from "@epicenter/warehouse";
import { silentLogger } from "../logger";
import { runSync } from "../sync/run-sync";

const [path, polymarketApiUrl] = process.argv.slice(2);
const opened = openWarehouse({ path: path as string, poolSize: 2 });
/** The warehouse, telling the parent each time rows have landed (a file fed, or a stream sent). */
const warehouse = new Proxy(opened, {
  get(target, name, receiver) {
    const value = Reflect.get(target, name, receiver);
    if (name !== "command" && name !== "insert" && name !== "withClient") return value;
    return async (...args: unknown[]) => {
      const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      // A page's rows go in through its input table (`internal.polymarket_page_input`, whose
      // views write the market tables); an insert names its table, a client streams rows.
      if (name === "withClient" || /^\s*(INSERT INTO\s+)?(internal\.)?polymarket[._]/.test(String(args[0]))) {
        process.stdout.write("wrote\n");
      }
      return result;
    };
  },
});
process.stdout.write("started\n");
await runSync(
  {
    warehouse,
    logger: silentLogger,
    config: {
      polymarket: { apiUrl: polymarketApiUrl as string, clobUrl: "http://127.0.0.1:9", dataUrl: "http://127.0.0.1:9" },
      kalshi: { apiUrl: "http://127.0.0.1:9" },
    },
    http: { timeoutMs: 600_000 },
    // Small batches, so the run has written some before it stalls (rows or, on the engine path, bytes).
    writer: { maxRows: 100, maxBytes: 256 * 1024, engineBatchBytes: 256 * 1024 },
  },
  { source: "polymarket" },
);
