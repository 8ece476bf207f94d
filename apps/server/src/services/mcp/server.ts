/**
 * Epicenter as a Model Context Protocol server, over the same services as the API: the
 * catalog, the market search, the query service (sandbox, admission, run records, origin
 * `mcp`) and the saved queries. One server is built per caller — per HTTP request on
 * `/mcp`, which is stateless — so every tool runs as the user and key that asked, and no
 * state outlives the request. The stdio entry (`cli/mcp.ts`) forwards to `/mcp` rather
 * than opening the stores, which a running server owns.
 *
 * Tools: list_tables, describe_table, search_markets, run_query, list_saved_queries,
 * run_saved_query. Resources: epicenter://docs/latest-row-pattern, epicenter://tables.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../../version";
import { registerCatalogTools, tablesText } from "./catalog-tools";
import type { McpCaller, McpContext, McpDeps } from "./context";
import { INSTRUCTIONS, LATEST_ROW_PATTERN } from "./data-notes";
import { registerQueryTools } from "./query-tools";

export type { McpCaller, McpDeps } from "./context";

export const LATEST_ROW_PATTERN_URI = "epicenter://docs/latest-row-pattern";
export const TABLES_URI = "epicenter://tables";

export function createMcpServer(
  deps: McpDeps,
  caller: McpCaller,
  options: { signal?: AbortSignal | undefined } = {},
): McpServer {
  const server = new McpServer(
    { name: "epicenter", title: "Epicenter", version: VERSION },
    { instructions: INSTRUCTIONS },
  );
  const context: McpContext = { deps, caller, signal: options.signal };
  registerCatalogTools(server, context);
  registerQueryTools(server, context);
  server.registerResource(
    "latest-row-pattern",
    LATEST_ROW_PATTERN_URI,
    {
      title: "The latest-row pattern",
      description:
        "How snapshot tables and the *_latest tables relate, and how to read one row per market (FINAL, argMax, row_number) before counting or summing.",
      mimeType: "text/markdown",
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: LATEST_ROW_PATTERN }] }),
  );
  server.registerResource(
    "tables",
    TABLES_URI,
    {
      title: "Tables",
      description: "Every table you can query, with its row count, description and columns (types and meanings).",
      mimeType: "text/markdown",
    },
    async (uri) => {
      try {
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: await tablesText(context) }] };
      } catch (error) {
        // The engine's words about its own failure are not the caller's to read.
        deps.logger.error({ err: error }, "MCP table list failed");
        throw new McpError(ErrorCode.InternalError, "The table list could not be read. It has been logged.");
      }
    },
  );
  return server;
}
