/**
 * The connection examples of the hub's "Connect" docs (a saved query as an API, the
 * ClickHouse-compatible HTTP interface, the MCP server), written for the host the page is
 * served from so they can be pasted as they are. The key is never written into a snippet:
 * shell and code read it from `$EPICENTER_API_KEY`; configuration files show a placeholder.
 */
import { API_KEY_VARIABLE } from "./openapi-model";

/** Where a client connects: the page's own origin, split the way client settings ask for it. */
export interface ConnectTarget {
  origin: string;
  host: string;
  /** The origin's port, or the scheme's default when the URL has none. */
  port: number;
  isSecure: boolean;
}

/** Where a configuration file expects the key typed in. */
export const KEY_PLACEHOLDER = "ep_live_…";
/** Path of the ClickHouse interface on the main port; clients given a path send it without the slash. */
export const CLICKHOUSE_PATH = "/clickhouse";
/** The formats the interface answers in, as `default_format` or a trailing `FORMAT`. */
export const CLICKHOUSE_FORMATS = [
  "JSON",
  "JSONCompact",
  "JSONEachRow",
  "JSONCompactEachRow",
  "JSONStrings",
  "TabSeparated",
  "TabSeparatedWithNames",
  "TabSeparatedWithNamesAndTypes",
  "CSV",
  "CSVWithNames",
  "RowBinaryWithNamesAndTypes",
  "Parquet",
  "Native",
  "RowBinary",
] as const;

export function connectTargetOf(origin: string): ConnectTarget {
  const url = new URL(origin);
  const isSecure = url.protocol === "https:";
  return {
    origin: url.origin,
    host: url.hostname,
    port: url.port ? Number(url.port) : isSecure ? 443 : 80,
    isSecure,
  };
}

/** The saved query the "saved query as an API" example stands for (shared with the server's tests). */
export { PARAMETERISED_QUERY } from "@epicenter/contracts";

export function savedQueryCurl(target: ConnectTarget): string {
  return [
    `curl -X POST "${target.origin}/api/query"`,
    `-H "Authorization: Bearer $${API_KEY_VARIABLE}"`,
    `-H "Content-Type: application/json"`,
    `-d '{"query_id":"<saved-query-id>","params":{"market_id":"512272","days":7}}'`,
  ].join(" \\\n  ");
}

/** The answers to a run whose parameters are missing or mistyped, as `paramsProblem` words them. */
export const SAVED_QUERY_ERRORS = `# "params": {"market_id": "512272"}
HTTP/1.1 400 Bad Request
{"error":{"code":"invalid_sql","message":"Parameter days (UInt16) has no value."}}

# "params": {"market_id": "512272", "days": "a week"}
HTTP/1.1 400 Bad Request
{"error":{"code":"invalid_sql","message":"Parameter days must be a whole number from 0 to 65535 (UInt16); got \\"a week\\"."}}`;

export function clickHouseCurl(target: ConnectTarget): string {
  const base = `${target.origin}${CLICKHOUSE_PATH}/`;
  return `# The key as the HTTP Basic password; any user name
curl -u "epicenter:$${API_KEY_VARIABLE}" "${base}?query=SELECT%201"

# Unqualified table names from one venue, one JSON object per row
curl -u "epicenter:$${API_KEY_VARIABLE}" \\
  "${base}?database=polymarket&default_format=JSONEachRow" \\
  --data-binary "SELECT id, question, yes_probability FROM markets_latest FINAL LIMIT 3"

# A typed parameter as param_<name>; the key in ClickHouse's own header
curl -H "X-ClickHouse-Key: $${API_KEY_VARIABLE}" \\
  "${base}?database=kalshi&param_ticker=KXNBAGAME-26JUN13NYKSAS-SAS" \\
  --data-binary "SELECT ticker, title, last_price_dollars FROM markets_latest FINAL WHERE ticker = {ticker:String} FORMAT JSONEachRow"`;
}

export function clickHouseNode(target: ConnectTarget): string {
  return `import { createClient } from "@clickhouse/client";

const client = createClient({
  url: "${target.origin}",
  // The path goes here: a path inside \`url\` is read as the database name.
  pathname: "${CLICKHOUSE_PATH}",
  username: "epicenter", // any name
  password: process.env.${API_KEY_VARIABLE},
  database: "polymarket",
});

const result = await client.query({
  query: "SELECT question, yes_probability FROM markets_latest FINAL WHERE id = {id:String}",
  query_params: { id: "512272" },
  format: "JSONEachRow",
});
console.log(await result.json());`;
}

export function clickHousePython(target: ConnectTarget): string {
  return `import os
import clickhouse_connect

client = clickhouse_connect.get_client(
    host="${target.host}",
    port=${target.port},
    secure=${target.isSecure ? "True" : "False"},
    proxy_path="${CLICKHOUSE_PATH}",  # clickhouse-connect 0.8.17 or later
    # Older versions take no path: leave proxy_path out and use port=<CLICKHOUSE_HTTP_PORT>.
    username="epicenter",  # any name
    password=os.environ["${API_KEY_VARIABLE}"],
    database="polymarket",
)
rows = client.query(
    "SELECT question, yes_probability FROM markets_latest FINAL WHERE id = {id:String}",
    parameters={"id": "512272"},
).result_rows`;
}

export function clickHouseGrafana(target: ConnectTarget): string {
  return `Data source        ClickHouse (the official plugin)
Server address     ${target.host}
Server port        ${target.port}   or the server's CLICKHOUSE_HTTP_PORT
Protocol           HTTP
Secure connection  ${target.isSecure ? "on" : "off"}
HTTP path          ${CLICKHOUSE_PATH.slice(1)}   (leave empty on CLICKHOUSE_HTTP_PORT)
Username           epicenter   (any name)
Password           your API key
Default database   polymarket  (or kalshi)

Not yet working: the plugin's driver asks for Native with a protocol revision
(block info per block), which this interface refuses with a clear error.`;
}

export function clickHouseDbeaver(target: ConnectTarget): string {
  return `Driver     ClickHouse
Host       ${target.host}
Port       <CLICKHOUSE_HTTP_PORT>   (the driver reads a URL path as the database, so not ${CLICKHOUSE_PATH})
Database   polymarket  (or kalshi)
Username   epicenter   (any name)
Password   your API key
SSL        on when the port is served over https
Driver properties  compress = false   (the LZ4 framing JDBC asks for by default is not produced)`;
}

export function mcpRemoteConfig(target: ConnectTarget): string {
  return JSON.stringify(
    {
      mcpServers: {
        epicenter: {
          type: "http",
          url: `${target.origin}/mcp`,
          headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` },
        },
      },
    },
    null,
    2,
  );
}

export function mcpClaudeCode(target: ConnectTarget): string {
  return `claude mcp add --transport http epicenter ${target.origin}/mcp \\
  --header "Authorization: Bearer $${API_KEY_VARIABLE}"`;
}

export function mcpStdioConfig(target: ConnectTarget): string {
  return JSON.stringify(
    {
      mcpServers: {
        epicenter: {
          command: "npm",
          // --silent keeps npm's own banner off stdout, which carries the protocol.
          args: ["--prefix", "/path/to/epicenter", "--silent", "run", "mcp"],
          env: { EPICENTER_URL: target.origin, EPICENTER_API_KEY: KEY_PLACEHOLDER },
        },
      },
    },
    null,
    2,
  );
}

export function mcpStdioShell(target: ConnectTarget): string {
  return `# In a checkout of Epicenter: the MCP server on stdin/stdout, calling this server
EPICENTER_URL=${target.origin} EPICENTER_API_KEY=$${API_KEY_VARIABLE} npm run mcp`;
}
