/**
 * The replay server for the history benchmark, in a child process of its own: rendering
 * the venues' pages (price paths, candles, trade spreads) then does not compete with the
 * history worker for its event loop, only for the machine's cores, as in the ingest bench.
 * Its clock is fixed and moved on request (`setNow`), so the benchmark can ask for an open
 * market's hourly refresh without waiting an hour.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type ReplayServer, startReplayServer } from "@epicenter/ingest";

export interface HistoryReplay {
  url: ReplayServer["url"];
  /** Moves the server's clock to `now` (epoch ms). */
  setNow(now: number): Promise<void>;
  close(): void;
}

export async function startHistoryReplay(options: { catalogSize: number; now: number }): Promise<HistoryReplay> {
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    ["--replay-child", String(options.catalogSize), String(options.now)],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once("message", (message) => resolve(message as Record<string, unknown>));
      child.once("exit", (code) => reject(new Error(`replay child exited with ${code}`)));
    });
  const ready = await next();
  return {
    url: ready.url as HistoryReplay["url"],
    setNow: async (now) => {
      const answer = next();
      child.send({ now });
      await answer;
    },
    close: () => {
      child.kill();
    },
  };
}

async function replayChildMain(catalogSize: number, start: number) {
  let now = start;
  const replay = await startReplayServer({ catalogSize, now: () => now });
  process.on("message", (message) => {
    now = Number((message as { now: number }).now);
    process.send?.({ now });
  });
  process.on("disconnect", () => {
    void replay.close().then(() => process.exit(0));
  });
  process.send?.({ url: replay.url });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2] === "--replay-child") {
  await replayChildMain(Number(process.argv[3]), Number(process.argv[4]));
}
