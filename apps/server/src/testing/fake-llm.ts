/**
 * A local model server for tests: it speaks the OpenAI chat-completions protocol
 * (`POST …/chat/completions`, streamed as SSE chunks or answered as one JSON document,
 * tool calls included) and answers from a script, one scripted answer per request, so
 * Seismo's whole loop runs for real against it. It records every request it got and
 * whether the client hung up before the answer ended.
 *
 * Integration tests drive it in-process (`startFakeLlm`, `script`, `requests`); the
 * end-to-end tier, whose test files run in other processes, uses its control endpoints:
 * `PUT /__script` with `{"answers": [...]}` replaces the script, `GET /__requests` lists
 * what it got, `DELETE /__requests` forgets them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

export interface FakeAnswer {
  /** Assistant text, streamed in small chunks. */
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Pause between streamed chunks, to watch text arrive. */
  chunkDelayMs?: number;
  /** Stream the text, then hold the connection open without finishing (disconnect tests). */
  hang?: boolean;
  /** Answer with this HTTP error instead. */
  status?: number;
}

export interface RecordedRequest {
  body: {
    model?: string;
    stream?: boolean;
    messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>;
    tools?: Array<{ function: { name: string } }>;
  };
  /** The client closed the connection before the answer was complete. */
  isAborted: boolean;
}

export interface FakeLlm {
  /** Base URL to use as SEISMO_BASE_URL (ends in /v1). */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the remaining script. */
  script(answers: FakeAnswer[]): void;
  /** Answers left in the script. */
  remaining(): number;
  close(): Promise<void>;
}

const FALLBACK: FakeAnswer = { text: "The fake model has no scripted answer left." };

export async function startFakeLlm(options: { answers?: FakeAnswer[]; port?: number } = {}): Promise<FakeLlm> {
  let queue: FakeAnswer[] = [...(options.answers ?? [])];
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let callIds = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const raw = await readBody(req);
    if (path === "/__script" && req.method === "PUT") {
      queue = [...((JSON.parse(raw) as { answers?: FakeAnswer[] }).answers ?? [])];
      return json(res, 200, { ok: true });
    }
    if (path === "/__requests" && req.method === "GET") return json(res, 200, { requests, remaining: queue.length });
    if (path === "/__requests" && req.method === "DELETE") {
      requests.length = 0;
      return json(res, 200, { ok: true });
    }
    if (path.endsWith("/models"))
      return json(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] });
    if (!path.endsWith("/chat/completions") || req.method !== "POST")
      return json(res, 404, { error: { message: "not found" } });

    const record: RecordedRequest = { body: JSON.parse(raw) as RecordedRequest["body"], isAborted: false };
    requests.push(record);
    const answer = queue.shift() ?? FALLBACK;
    let isDone = false;
    res.on("close", () => {
      hanging.delete(res);
      if (!isDone) record.isAborted = true;
    });
    if (answer.status) {
      isDone = true;
      return json(res, answer.status, {
        error: { message: `scripted failure ${answer.status}`, type: "server_error" },
      });
    }
    const toolCalls = (answer.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${++callIds}`,
      type: "function" as const,
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";
    const model = record.body.model ?? "fake-model";
    const base = { id: `chatcmpl-${requests.length}`, created: Math.floor(Date.now() / 1000), model };

    if (!record.body.stream) {
      isDone = true;
      return json(res, 200, {
        ...base,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: answer.text ?? null,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finishReason,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const pause = () => new Promise((resolve) => setTimeout(resolve, answer.chunkDelayMs ?? 0));
    res.write(chunk({ role: "assistant", content: "" }));
    for (const piece of chunksOf(answer.text ?? "")) {
      if (res.destroyed) return;
      res.write(chunk({ content: piece }));
      if (answer.chunkDelayMs) await pause();
    }
    if (answer.hang) {
      hanging.add(res);
      return;
    }
    toolCalls.forEach((call, index) => {
      res.write(chunk({ tool_calls: [{ index, ...call }] }));
    });
    res.write(chunk({}, finishReason));
    res.write(
      `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\n`,
    );
    res.write("data: [DONE]\n\n");
    isDone = true;
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (answers) => {
      queue = [...answers];
    },
    remaining: () => queue.length,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Words with their spaces, a few at a time, the way models stream. */
function chunksOf(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let index = 0; index < words.length; index += 2) chunks.push(words.slice(index, index + 2).join(""));
  return chunks;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (piece: string) => {
      body += piece;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
