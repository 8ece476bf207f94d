/**
 * The replay server in a child process of its own, for the benchmarks: rendering the
 * venues' pages (catalog pages, price paths, candles, trade tapes) then does not compete
 * with the code measured for its event loop, only for the machine's cores.
 *
 * Its clock is the real one, or fixed and moved on request (`setNow`) so a benchmark can
 * ask for an hour's refresh without waiting an hour. `advance` moves prices and volumes on
 * as ten minutes of trading would; `report` answers what each enforced limit admitted and
 * refused, and the child's CPU, memory and event-loop delay.
 */
import { type ChildProcess, fork } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type LimitUse,
  type ReplayLimitOptions,
  type ReplayServer,
  type ReplayServerOptions,
  startReplayServer,
} from "@epicenter/ingest";

export interface ReplayChildOptions extends Pick<ReplayServerOptions, "closedMarkets" | "turnover"> {
  catalogSize: number;
  /** A fixed clock (epoch ms), moved by `setNow`; the real clock when absent. */
  now?: number;
  /** The venues' limits, enforced on the real clock; none when absent. */
  limits?: Omit<ReplayLimitOptions, "now">;
}

/** How long an event loop was held up (ms). */
export interface LoopDelay {
  p99: number;
  max: number;
}

export interface ReplayReport {
  use: Record<string, LimitUse>;
  cpuS: number;
  rssMiB: number;
  loopDelayMs: LoopDelay;
}

export interface ReplayChild {
  url: ReplayServer["url"];
  /** Moves the server's fixed clock to `now` (epoch ms). */
  setNow(now: number): Promise<void>;
  advance(): Promise<void>;
  report(): Promise<ReplayReport>;
  close(): void;
}

type Request = { now: number } | "advance" | "report";

export async function startReplayChild(options: ReplayChildOptions): Promise<ReplayChild> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--replay-child", JSON.stringify(options)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once("message", (message) => resolve(message as Record<string, unknown>));
      child.once("exit", (code) => reject(new Error(`replay child exited with ${code}`)));
    });
  // One request at a time, each answered in order.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (request: Request) => {
    const answer = queue.then(() => {
      const reply = next();
      child.send(request);
      return reply;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  const ready = await next();
  return {
    url: ready.url as ReplayServer["url"],
    setNow: async (now) => {
      await ask({ now });
    },
    advance: async () => {
      await ask("advance");
    },
    report: async () => (await ask("report")) as unknown as ReplayReport,
    close: () => {
      child.kill();
    },
  };
}

/** Starts measuring how long this process's event loop is held up; answers the figures so far. */
export function loopDelay(): () => LoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return () => ({ p99: Math.round(histogram.percentile(99) / 1e6), max: Math.round(histogram.max / 1e6) });
}

async function replayChildMain(options: ReplayChildOptions) {
  const delays = loopDelay();
  let now = options.now;
  const replay = await startReplayServer({
    catalogSize: options.catalogSize,
    ...(options.closedMarkets ? { closedMarkets: options.closedMarkets } : {}),
    ...(options.turnover ? { turnover: options.turnover } : {}),
    ...(now === undefined ? {} : { now: () => now as number }),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  process.on("message", (message: Request) => {
    if (message === "advance") {
      replay.advance();
      process.send?.({ advanced: true });
    } else if (message === "report") {
      const cpu = process.cpuUsage();
      const report: ReplayReport = {
        use: replay.limitUse(),
        cpuS: (cpu.user + cpu.system) / 1e6,
        rssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
        loopDelayMs: delays(),
      };
      process.send?.(report);
    } else {
      now = Number(message.now);
      process.send?.({ now });
    }
  });
  process.on("disconnect", () => {
    void replay.close().then(() => process.exit(0));
  });
  process.send?.({ url: replay.url });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2] === "--replay-child") {
  await replayChildMain(JSON.parse(process.argv[3] ?? "{}") as ReplayChildOptions);
}
