/**
 * `/mcp`: the MCP server (`services/mcp/server.ts`) over streamable HTTP, for agents that
 * speak the protocol remotely and for `npm run mcp`, which forwards stdio here.
 *
 * Stateless: every POST gets a server and a transport of its own, built for the caller it
 * carries, and answers in JSON (no session id, no stream to resume), so any process behind
 * a balancer can take any message. GET (a server-to-client stream) and DELETE (ending a
 * session) have nothing to act on and are answered 405, as the protocol expects of a
 * stateless server.
 *
 * An API key only — `Authorization: Bearer ep_live_…` or `X-API-Key` — as on the
 * ClickHouse interface: a session token belongs to the web app and is refused here. Errors
 * before the protocol starts are JSON-RPC error objects with the HTTP status (401 without
 * a valid key, 403 off the allow-list, 413 past the body bound), so a client shows them as
 * a server's. The body is bounded before the caller is identified, like every endpoint's.
 */

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../../http/env";
import { credentialOf } from "../../services/access/principal";
import { isApiKey } from "../../services/access/secrets";
import { createMcpServer, type McpCaller, type McpDeps } from "../../services/mcp/server";

export const MCP_PATH = "/mcp";
/** A tool call's arguments are a statement and a few values; 1 MiB is far past any honest one. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** JSON-RPC's code for a server-defined error, as the SDK's transport uses it. */
const SERVER_ERROR = -32000;

export function mountMcp(app: Hono<AppEnv>, deps: McpDeps): void {
  const limit = bodyLimit({
    maxSize: MAX_MCP_BODY_BYTES,
    onError: (c) =>
      rpcError(c, 413, `The request body is larger than ${MAX_MCP_BODY_BYTES / 1024 / 1024} MiB.`, {
        // The rest of an oversized body is not read: the connection cannot carry another request.
        connection: "close",
      }),
  });

  app.post(MCP_PATH, limit, async (c) => {
    const caller = await callerOf(c);
    if (caller instanceof Response) return caller;
    const server = createMcpServer(deps, caller, { signal: c.req.raw.signal });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_MCP_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      // Resolves once every answer to the posted messages is ready (JSON mode).
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });

  for (const method of ["GET", "DELETE"]) {
    app.on(method, MCP_PATH, (c) =>
      rpcError(c, 405, "Method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp.", {
        allow: "POST",
      }),
    );
  }
}

/** The key's user, or the answer that refuses the request. */
async function callerOf(c: Context<AppEnv>): Promise<McpCaller | Response> {
  const credential = credentialOf({ authorization: c.req.header("authorization"), apiKey: c.req.header("x-api-key") });
  if (!credential) {
    return unauthorized(c, "Send an Epicenter API key: Authorization: Bearer ep_live_… or X-API-Key: ep_live_….");
  }
  if (!isApiKey(credential)) {
    return unauthorized(c, "MCP takes an API key (ep_live_…), not a session token; create one on the API keys page.");
  }
  const principal = await c.get("resolvePrincipal")?.();
  if (principal?.via !== "api_key") {
    return unauthorized(c, "This API key is not valid: it was revoked, or never issued.");
  }
  if (!principal.isAllowed) {
    return rpcError(c, 403, `Your email (${principal.user.email}) is not whitelisted for access.`);
  }
  c.set("principal", principal);
  return { userId: principal.user.id, apiKeyId: principal.apiKeyId ?? null };
}

function unauthorized(c: Context<AppEnv>, message: string): Response {
  return rpcError(c, 401, message, { "www-authenticate": 'Bearer realm="Epicenter MCP"' });
}

function rpcError(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return c.json({ jsonrpc: "2.0", error: { code: SERVER_ERROR, message }, id: null }, status, headers);
}
