/**
 * What the MCP integration test stands on: the test app listening on a real port with
 * `/mcp` mounted (once: `app.ts` may already mount it), market rows of both venues with
 * prices drawn per run, SDK clients over streamable HTTP and over stdio (`cli/mcp.ts`
 * spawned as a desktop agent starts it), and small readers of tool answers.
 */
import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pino from "pino";
import { expect } from "vitest";
import { REPO_ROOT } from "../faults/server-process";
import { MCP_PATH, mountMcp } from "../routes/mcp/post-mcp";
import { createQueryAdmission } from "../services/queries/admission";
import type { TestApp } from "./test-app";

const TSX = join(REPO_ROOT, "node_modules/.bin/tsx");
const CLI = join(REPO_ROOT, "apps/server/src/cli/mcp.ts");
const HOUR = 3_600_000;

export interface McpTestServer {
  url: string;
  /** A streamable HTTP client transport to `/mcp` sending these headers. */
  http(headers: Record<string, string>): StreamableHTTPClientTransport;
  connectHttp(key: string): Promise<Client>;
  connectStdio(key: string): Promise<Client>;
  /** `npm run mcp` run to its end with this environment (pointed at the server). */
  runCli(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

export async function startMcpTestServer(t: TestApp): Promise<McpTestServer> {
  const { stores } = t;
  if (!t.app.routes.some((route) => route.path === MCP_PATH)) {
    mountMcp(t.app, {
      warehouse: stores.warehouse,
      sandbox: stores.sandbox,
      admission: createQueryAdmission(64),
      db: stores.appDatabase.db,
      queryRuns: stores.queryRuns,
      logger: pino({ level: "silent" }),
      clock: () => new Date(),
    });
  }
  const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cliEnv = (env: Record<string, string>) => ({ ...getDefaultEnvironment(), EPICENTER_URL: url, ...env });
  const http = (headers: Record<string, string>) =>
    new StreamableHTTPClientTransport(new URL(`${url}${MCP_PATH}`), { requestInit: { headers } });
  return {
    url,
    http,
    async connectHttp(key) {
      const client = new Client({ name: "mcp-test", version: "1.0.0" });
      await client.connect(http({ authorization: `Bearer ${key}` }));
      return client;
    },
    async connectStdio(key) {
      const client = new Client({ name: "mcp-test-stdio", version: "1.0.0" });
      const transport = new StdioClientTransport({
        command: TSX,
        args: [CLI],
        cwd: REPO_ROOT,
        env: cliEnv({ EPICENTER_API_KEY: key }),
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      try {
        await client.connect(transport);
      } catch (error) {
        throw new Error(`the stdio server did not start: ${String(error)}\n${stderr}`);
      }
      return client;
    },
    runCli: (env) =>
      promisify(execFile)(TSX, [CLI], { cwd: REPO_ROOT, env: cliEnv(env) }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      ),
    async close() {
      if ("closeAllConnections" in server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// Prices drawn per run, so an answer that holds them came from the warehouse.
const price = () => Math.round(10 + Math.random() * 80) / 100;

export const LISBON = { id: "501", question: "Will it rain in Lisbon on Friday?", yes: price() };
export const FERRY = { id: "502", question: "Will the Lisbon ferry run on Sunday?", yes: price() };
export const KALSHI_LISBON = { ticker: "KXLISBON-26JAN10", title: "Rain in Lisbon on Jan 10?", yes: price() };

/** Three syncs an hour apart: Lisbon open and the ferry closed on Polymarket, one active Kalshi market. */
export async function seedMarkets(warehouse: Warehouse): Promise<void> {
  const now = Date.now();
  const polymarket = (market: typeof LISBON, at: number, closed: boolean) => ({
    sync_timestamp: toDateTime64(at),
    id: market.id,
    event_id: "77",
    question: market.question,
    outcomes: ["Yes", "No"],
    outcomePrices: [market.yes, Math.round((1 - market.yes) * 100) / 100],
    yes_probability: market.yes,
    closed,
    volume: 1000 + Number(market.id),
  });
  const kalshi = (at: number) => ({
    sync_timestamp: toDateTime64(at),
    ticker: KALSHI_LISBON.ticker,
    event_ticker: "KXLISBON",
    title: KALSHI_LISBON.title,
    yes_sub_title: "Above 1 inch",
    status: "active",
    last_price_dollars: KALSHI_LISBON.yes,
    volume: 900,
  });
  const syncs = [3, 2, 1].map((hours) => now - hours * HOUR);
  await warehouse.insert("polymarket.markets", [
    ...syncs.map((at) => ({ ...polymarket(LISBON, at, false), raw: "{}" })),
    ...syncs.map((at) => ({ ...polymarket(FERRY, at, true), raw: "{}" })),
  ]);
  await warehouse.insert("polymarket.markets_latest", [
    polymarket(LISBON, now - HOUR, false),
    polymarket(FERRY, now - HOUR, true),
  ]);
  await warehouse.insert(
    "kalshi.markets",
    syncs.map((at) => ({ ...kalshi(at), raw: "{}" })),
  );
  await warehouse.insert("kalshi.markets_latest", [kalshi(now - HOUR)]);
}

/** The structured content of `run_query` and `run_saved_query`. */
export interface QueryAnswer {
  sql: string;
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  cut_by: "rows" | "bytes" | null;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful call's structured content; a failed call fails the test with its message. */
export async function structured<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(client, name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as T;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
