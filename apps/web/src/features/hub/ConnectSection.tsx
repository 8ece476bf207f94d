/**
 * The API page's "connect from anywhere" docs, after the REST reference: a saved query with
 * `{name:Type}` parameters run by id (a small API on top of a saved query), the
 * ClickHouse-compatible HTTP interface that ClickHouse clients and BI tools connect to, and
 * the MCP server for AI agents. Each surface takes an API key and runs through the same
 * sandbox, limits and run history as the editor; the examples are written for this host.
 */
import { SquareArrowOutUpRight } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Badge } from "../../ui/Badge";
import { CodeBlock } from "../../ui/CodeBlock";
import { editorUrl } from "../../ui/editor-link";
import { TabPanel, Tabs } from "../../ui/Tabs";
import apiStyles from "./api.module.css";
import sectionStyles from "./connect.module.css";
import {
  CLICKHOUSE_FORMATS,
  CLICKHOUSE_PATH,
  type ConnectTarget,
  clickHouseCurl,
  clickHouseDbeaver,
  clickHouseGrafana,
  clickHouseNode,
  clickHousePython,
  connectTargetOf,
  mcpClaudeCode,
  mcpRemoteConfig,
  mcpStdioConfig,
  mcpStdioShell,
  PARAMETERISED_QUERY,
  SAVED_QUERY_ERRORS,
  savedQueryCurl,
} from "./connect-snippets";
import docsStyles from "./docs.module.css";
import hubStyles from "./hub.module.css";

const styles = { ...hubStyles, ...sectionStyles };

/** Anchors of the three surfaces, for the page's jump links. */
export const CONNECT_ANCHORS = [
  { id: "saved-query-api", label: "Saved queries as an API" },
  { id: "clickhouse-interface", label: "ClickHouse interface" },
  { id: "mcp-server", label: "MCP server" },
] as const;

export function ConnectSection({ origin }: { origin: string }) {
  const target = connectTargetOf(origin);
  return (
    <>
      <SavedQueryApi target={target} />
      <ClickHouseInterface target={target} />
      <McpServer target={target} />
    </>
  );
}

function Surface({
  anchor,
  title,
  path,
  children,
}: {
  anchor: (typeof CONNECT_ANCHORS)[number]["id"];
  title: string;
  path: string;
  children: ReactNode;
}) {
  return (
    <section
      id={anchor}
      className={`${apiStyles.endpoint} ${styles.surface}`}
      aria-labelledby={`${anchor}-title`}
      data-testid={anchor}
    >
      <header className={apiStyles.endpointHeader}>
        <h2 id={`${anchor}-title`}>{title}</h2>
        <code className={styles.surfacePath}>{path}</code>
        <Badge tone="accent">API key</Badge>
      </header>
      {children}
    </section>
  );
}

function SavedQueryApi({ target }: { target: ConnectTarget }) {
  return (
    <Surface anchor="saved-query-api" title="Saved queries as an API" path="POST /api/query">
      <p>
        Write the query once with ClickHouse's typed parameters where the values change —{" "}
        <code>{"{market_id:String}"}</code>, <code>{"{days:UInt16}"}</code> — save it, and run it by id with the values
        in <code>params</code>. The engine binds them; they are never pasted into the SQL, so a value cannot change the
        statement. The id is the last part of the query's address in the editor (<code>/queries/&lt;id&gt;</code>),
        where each parameter has its own input and the values stay in the address as <code>param_&lt;name&gt;</code>.
      </p>
      <CodeBlock
        code={PARAMETERISED_QUERY}
        caption="a saved query with two parameters"
        actions={
          <Link
            className={docsStyles.inlineAction}
            to={editorUrl({ sql: PARAMETERISED_QUERY, title: "One market's daily price" }, { days: "7" })}
          >
            <SquareArrowOutUpRight size={12} /> Open in editor
          </Link>
        }
      />
      <CodeBlock code={savedQueryCurl(target)} caption="curl: run it by id" testId="saved-query-curl" />
      <p className={styles.muted}>
        Values may be strings, numbers or booleans. The answer is the same as for <code>query</code>. A parameter
        without a value, or with one its type cannot hold, is a 400 that names it:
      </p>
      <CodeBlock code={SAVED_QUERY_ERRORS} caption="400 Bad Request" />
    </Surface>
  );
}

type ClientTab = "curl" | "node" | "python" | "grafana" | "dbeaver";

function ClickHouseInterface({ target }: { target: ConnectTarget }) {
  const [client, setClient] = useState<ClientTab>("curl");
  const examples: Record<ClientTab, { code: string; caption: string }> = {
    curl: { code: clickHouseCurl(target), caption: "shell" },
    node: { code: clickHouseNode(target), caption: "Node.js · @clickhouse/client" },
    python: { code: clickHousePython(target), caption: "Python · clickhouse-connect" },
    grafana: { code: clickHouseGrafana(target), caption: "Grafana · Connections → Data sources → ClickHouse" },
    dbeaver: { code: clickHouseDbeaver(target), caption: "DBeaver · New connection → ClickHouse" },
  };
  return (
    <Surface anchor="clickhouse-interface" title="ClickHouse HTTP interface" path={`${CLICKHOUSE_PATH}/`}>
      <p>
        The warehouse answers ClickHouse's own HTTP protocol, so ClickHouse clients, notebooks and BI tools connect with
        an API key as they would to a ClickHouse server — read-only, through the same sandbox, limits and run history as
        the editor. It is served at <code>{`${target.origin}${CLICKHOUSE_PATH}/`}</code> and, when the server sets{" "}
        <code>CLICKHOUSE_HTTP_PORT</code>, at the root of that port too, for tools that cannot take a path.
      </p>
      <dl className={styles.facts}>
        <dt>Key</dt>
        <dd>
          As the HTTP Basic password with any user name, as <code>X-ClickHouse-Key: &lt;key&gt;</code>, or as{" "}
          <code>Authorization: Bearer &lt;key&gt;</code>. A browser sign-in is not accepted here.
        </dd>
        <dt>Database</dt>
        <dd>
          <code>database=polymarket</code> or <code>kalshi</code> for unqualified table names; qualified names (
          <code>kalshi.markets</code>) work either way.
        </dd>
        <dt>Statements</dt>
        <dd>
          One <code>SELECT</code> over the market databases, with the editor's time, memory and row limits; errors come
          back in ClickHouse's form (<code>Code: N. DB::Exception: …</code>).
        </dd>
        <dt>Parameters</dt>
        <dd>
          <code>{"{name:Type}"}</code> in the SQL, the value as <code>param_&lt;name&gt;</code> in the URL.
        </dd>
        <dt>Formats</dt>
        <dd className={styles.formats}>
          {CLICKHOUSE_FORMATS.map((format) => (
            <code key={format}>{format}</code>
          ))}
        </dd>
      </dl>
      <Tabs
        label="ClickHouse clients"
        idPrefix="clickhouse-client"
        variant="line"
        selected={client}
        onSelect={setClient}
        tabs={[
          { id: "curl", label: "curl" },
          { id: "node", label: "Node.js" },
          { id: "python", label: "Python" },
          { id: "grafana", label: "Grafana" },
          { id: "dbeaver", label: "DBeaver" },
        ]}
      />
      <TabPanel idPrefix="clickhouse-client" tab={client}>
        <CodeBlock code={examples[client].code} caption={examples[client].caption} testId="clickhouse-example" />
      </TabPanel>
    </Surface>
  );
}

type AgentTab = "remote" | "claude-code" | "stdio";

function McpServer({ target }: { target: ConnectTarget }) {
  const [agent, setAgent] = useState<AgentTab>("remote");
  return (
    <Surface anchor="mcp-server" title="MCP server" path="/mcp">
      <p>
        A Model Context Protocol server lets an AI agent explore and query the archive with your key: streamable HTTP at{" "}
        <code>{`${target.origin}/mcp`}</code> with <code>Authorization: Bearer &lt;key&gt;</code>, or stdio for desktop
        agents. Queries go through the same sandbox and limits; a result is bounded in rows and bytes and says when it
        was cut.
      </p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>Tool</th>
              <th>What it does</th>
            </tr>
          </thead>
          <tbody>
            {MCP_TOOLS.map(([name, description]) => (
              <tr key={name}>
                <td>
                  <code>{name}</code>
                </td>
                <td className={styles.muted}>{description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.muted}>Resources: the latest-row pattern from the docs and the table list.</p>
      <Tabs
        label="MCP clients"
        idPrefix="mcp-client"
        variant="line"
        selected={agent}
        onSelect={setAgent}
        tabs={[
          { id: "remote", label: "Over HTTP" },
          { id: "claude-code", label: "Claude Code" },
          { id: "stdio", label: "Claude Desktop (stdio)" },
        ]}
      />
      <TabPanel idPrefix="mcp-client" tab={agent} className={styles.panel}>
        {agent === "remote" ? (
          <CodeBlock code={mcpRemoteConfig(target)} caption="mcpServers: clients that connect over HTTP" />
        ) : agent === "claude-code" ? (
          <CodeBlock code={mcpClaudeCode(target)} caption="shell" />
        ) : (
          <>
            <CodeBlock code={mcpStdioConfig(target)} caption="claude_desktop_config.json" testId="mcp-stdio-config" />
            <CodeBlock code={mcpStdioShell(target)} caption="shell" />
            <p className={styles.muted}>
              The stdio server runs from a checkout of Epicenter and calls this server with the key;{" "}
              <code>--silent</code> keeps npm's own output off the channel the protocol uses.
            </p>
          </>
        )}
      </TabPanel>
    </Surface>
  );
}

const MCP_TOOLS: ReadonlyArray<[string, string]> = [
  ["list_tables", "The tables of both venues."],
  ["describe_table", "A table's columns, types, descriptions and sample values."],
  ["run_query", "One sandboxed SELECT with a row limit: columns, rows, and whether they were cut."],
  ["search_markets", "Text search across both venues' latest markets: ids, titles, prices, status."],
  ["list_saved_queries", "The saved queries you can run, with their ids."],
  ["run_saved_query", "A saved query by id, with the values of its parameters."],
];
