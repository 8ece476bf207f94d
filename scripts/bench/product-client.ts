/**
 * The product path of the query benchmarks, called from a process of its own as a user's
 * client is: `POST /api/query` with an API key over a kept-alive connection, the answer read
 * and parsed as JSON, timed in that process. With the client in the server's own process, reading a 1 MB answer
 * competed with writing it on one event loop and one core (measured: a 10,000-row answer
 * took 84 ms there against 43–57 ms from curl for the same server).
 */
import { type ChildProcess, fork } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";

export interface ProductAnswer {
  ms: number;
  rows: number;
  /** The service's own `execution_time_ms`, when the run succeeded. */
  serviceMs: number | undefined;
  /** `status: message` when it did not. */
  error: string | null;
}

export type Endpoint = "/api/query" | "/api/query/rows";

interface Ask {
  id: number;
  url: string;
  apiKey: string;
  body: string;
}

export interface ProductClient {
  /** `endpoint`: `/api/query` (the spec's keyed rows, the default) or `/api/query/rows` (value arrays). */
  run(query: string, limit: number, params?: Record<string, string>, endpoint?: Endpoint): Promise<ProductAnswer>;
  close(): void;
}

export function openProductClient(baseUrl: string, apiKey: string): ProductClient {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child"], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, (answer: ProductAnswer) => void>();
  child.on("message", (message) => {
    const { id, answer } = message as { id: number; answer: ProductAnswer };
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  let next = 0;
  return {
    run: (query, limit, params, endpoint = "/api/query") =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        const body = JSON.stringify({ query, limit, ...(params && Object.keys(params).length > 0 ? { params } : {}) });
        child.send({ id, url: `${baseUrl}${endpoint}`, apiKey, body } satisfies Ask);
      }),
    close: () => {
      child.kill();
    },
  };
}

/** Kept-alive connections, as a client that sends many queries keeps them. */
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

async function answer(ask: Ask): Promise<ProductAnswer> {
  const started = performance.now();
  try {
    const { status, text } = await post(ask);
    type Counted = { row_count: number; execution_time_ms: number };
    const answered = JSON.parse(text) as Partial<Counted> & { result?: Counted; error?: { message: string } };
    const ms = performance.now() - started;
    // `/api/query` wraps the result in `result`; `/api/query/rows` answers the result itself.
    const result = answered.result ?? (answered.row_count === undefined ? undefined : (answered as Counted));
    if (status !== 200 || !result) {
      return { ms, rows: 0, serviceMs: undefined, error: `${status}: ${answered.error?.message ?? "no result"}` };
    }
    return { ms, rows: result.row_count, serviceMs: result.execution_time_ms, error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ms: performance.now() - started, rows: 0, serviceMs: undefined, error: message };
  }
}

/**
 * One POST with `node:http`, the body read whole. Not `fetch`: reading a 667 KB answer through
 * Node 20's fetch took 15 ms more than through `node:http` (and than curl, which reads it in the
 * service's time + 5 ms), a cost of the client, not of the product.
 */
function post(ask: Ask): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      ask.url,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${ask.apiKey}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(ask.body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(ask.body);
  });
}

if (process.argv.includes("--child")) {
  process.on("message", (message) => {
    const ask = message as Ask;
    void answer(ask).then((result) => process.send?.({ id: ask.id, answer: result }));
  });
}
