/**
 * `npm run mcp`: Epicenter's MCP server over stdio, for desktop agents that start a
 * command rather than call a URL. It opens no store: it is an MCP client of a running
 * server's `/mcp` (which owns the stores and runs every tool as the key's user) and hands
 * each tools and resources request through unchanged, so both transports answer alike.
 *
 *   EPICENTER_API_KEY=ep_live_… EPICENTER_URL=https://epicenter.example npm run mcp
 *
 * `EPICENTER_URL` defaults to this machine's server (`http://127.0.0.1:$PORT`, 3000); the
 * flags `--url` and `--key` override the environment (a key in the environment stays out
 * of the process list). Stdout carries the protocol and nothing else; anything said to a
 * person goes to stderr, and a configuration or connection problem ends the process with
 * one line there.
 */
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../version";

const USAGE =
  "Usage: EPICENTER_API_KEY=ep_live_… [EPICENTER_URL=http://127.0.0.1:3000] npm run mcp [-- --url URL --key KEY]";
/** Past the sandbox's time limit and a wait in the queue: the server ends a query before this. */
const TOOL_CALL_TIMEOUT_MS = 120_000;

interface Settings {
  endpoint: URL;
  apiKey: string;
}

/** The server's URL and the key, from the flags, else the environment; a one-line reason when either is wrong. */
function settingsOf(argv: string[], env: NodeJS.ProcessEnv): Settings | string {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: "string" }, key: { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help) return USAGE;
  const apiKey = (values.key ?? env.EPICENTER_API_KEY ?? "").trim();
  if (!apiKey)
    return `EPICENTER_API_KEY is not set: create an API key in Epicenter (API keys page) and pass it. ${USAGE}`;
  const base = values.url ?? env.EPICENTER_URL ?? `http://127.0.0.1:${env.PORT || 3000}`;
  let endpoint: URL;
  try {
    endpoint = new URL(`${base.replace(/\/+$/, "")}/mcp`);
  } catch {
    return `EPICENTER_URL is not a URL: "${base}". ${USAGE}`;
  }
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") {
    return `EPICENTER_URL must be an http or https URL, got "${base}".`;
  }
  return { endpoint, apiKey };
}

/** The server's own words for a refusal (its JSON-RPC error message), else the error's. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const json = message.slice(Math.max(0, message.indexOf("{")));
  try {
    const body = JSON.parse(json) as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") {
      const status = error instanceof StreamableHTTPError ? `HTTP ${error.code}: ` : "";
      return `${status}${body.error.message}`;
    }
  } catch {
    // Not a JSON body: the message as it is.
  }
  return message;
}

/** The exit code of a start that failed or only printed; undefined while serving, until the agent closes stdin. */
async function main(): Promise<number | undefined> {
  const settings = settingsOf(process.argv.slice(2), process.env);
  if (typeof settings === "string") {
    console.error(settings);
    return settings === USAGE ? 0 : 2;
  }
  const upstream = new Client({ name: "epicenter-mcp-stdio", version: VERSION });
  try {
    await upstream.connect(
      new StreamableHTTPClientTransport(settings.endpoint, {
        requestInit: { headers: { authorization: `Bearer ${settings.apiKey}` } },
      }),
    );
  } catch (error) {
    console.error(`Could not connect to Epicenter at ${settings.endpoint.href}: ${reasonOf(error)}`);
    return 1;
  }

  const server = new Server(
    { name: "epicenter", version: upstream.getServerVersion()?.version ?? VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      ...(upstream.getInstructions() ? { instructions: upstream.getInstructions() } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    upstream.listTools(request.params, { signal: extra.signal }),
  );
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    upstream.callTool(request.params, undefined, { signal: extra.signal, timeout: TOOL_CALL_TIMEOUT_MS }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    upstream.listResources(request.params, { signal: extra.signal }),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
    upstream.listResourceTemplates(request.params, { signal: extra.signal }),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    upstream.readResource(request.params, { signal: extra.signal }),
  );
  server.onerror = (error) => console.error(`epicenter mcp: ${reasonOf(error)}`);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= Promise.allSettled([server.close(), upstream.close()]).then(() => process.exit(0));
    return stopping;
  };
  // The agent closing our stdin is how it says goodbye.
  process.stdin.once("end", () => void stop());
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop());

  await server.connect(new StdioServerTransport());
  console.error(`epicenter mcp: forwarding stdio to ${settings.endpoint.href}`);
  return undefined;
}

const exitCode = await main();
if (exitCode !== undefined) process.exit(exitCode);
