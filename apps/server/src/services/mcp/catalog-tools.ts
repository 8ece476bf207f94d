/**
 * The tools that say what there is to ask about: the catalog's tables (`list_tables`), one
 * table's columns with real sample values (`describe_table`), and markets found by their
 * words (`search_markets`); and the text of the table-list resource. The catalog is the one
 * the SPA's catalog page reads (`catalog/catalog.ts`, market databases only); sample rows
 * run through the query service as the MCP caller, like any of their queries.
 */
import { MARKET_DATABASES, type Table, ZVenue } from "@epicenter/contracts";
import { SandboxError } from "@epicenter/warehouse";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { getTable, listTables, tableSource } from "../catalog/catalog";
import { QueryServiceBusy } from "../queries/admission";
import { runQuery } from "../queries/run-query";
import { catalogText } from "../seismo/grounding";
import { callSignal, type McpContext } from "./context";
import { DATA_FACTS } from "./data-notes";
import { marketLine, searchMarketsWithPrices } from "./market-search";
import { MAX_TOOL_RESULT_BYTES, structuredResult, toolError, toolFailure } from "./tool-results";

const SAMPLE_ROWS = 5;
const SAMPLE_VALUES = 3;
/** A sample value longer than this (rules, raw JSON) is cut: it is there to show the shape. */
const SAMPLE_CHARS = 120;
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerCatalogTools(server: McpServer, context: McpContext): void {
  const { deps } = context;

  server.registerTool(
    "list_tables",
    {
      title: "List tables",
      description: `The tables you can query, in the databases polymarket, kalshi and crossvenue (the same question matched across the venues): each one's full name, what it holds and its row count (the *_latest tables count one row per market). ${DATA_FACTS}`,
      inputSchema: {
        database: z.enum(MARKET_DATABASES).optional().describe("Only the tables of this database."),
      },
      outputSchema: {
        tables: z.array(
          z.object({
            name: z.string().describe("database.table, as written in SQL"),
            description: z.string().nullable(),
            row_count: z.number().nullable(),
            column_count: z.number(),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    async ({ database }) => {
      try {
        const tables = (await listTables(deps.warehouse, { withStats: true })).filter(
          (table) => database === undefined || table.namespace === database,
        );
        const listed = tables.map((table) => ({
          name: table.full_name,
          description: table.description,
          row_count: table.row_count,
          column_count: table.columns.length,
        }));
        const text = listed
          .map((table) => `${table.name} — ${table.row_count ?? "?"} rows: ${table.description ?? ""}`)
          .join("\n");
        return structuredResult({ tables: listed }, text);
      } catch (error) {
        return toolFailure(error, deps.logger, "list_tables");
      }
    },
  );

  server.registerTool(
    "describe_table",
    {
      title: "Describe a table",
      description: `One table's columns: name, ClickHouse type, what the column means (units, status values, which fields are JSON) and a few real values from ${SAMPLE_ROWS} sample rows. ${DATA_FACTS}`,
      inputSchema: {
        table: z
          .string()
          .min(3)
          .max(200)
          .describe("database.table as list_tables names it, e.g. polymarket.markets_latest or kalshi.candles."),
      },
      outputSchema: {
        name: z.string(),
        description: z.string().nullable(),
        row_count: z.number().nullable(),
        columns: z.array(
          z.object({
            name: z.string(),
            type: z.string(),
            description: z.string().nullable(),
            sample_values: z.array(z.unknown()),
          }),
        ),
        sample_note: z.string().nullable().describe("Why there are no sample values, when there are none."),
      },
      annotations: READ_ONLY,
    },
    async ({ table: name }, call) => {
      try {
        const [namespace = "", table = ""] = name.trim().split(".");
        const found = await getTable(deps.warehouse, namespace, table);
        if (!found) return toolError(`No table ${name} in the catalog; list_tables names the tables there are.`);
        const sample = await sampleValues(context, found, callSignal(context, call));
        const described = {
          name: found.full_name,
          description: found.description,
          row_count: found.row_count,
          columns: found.columns.map((column) => ({
            ...column,
            sample_values: sample.values.get(column.name) ?? [],
          })),
          sample_note: sample.note,
        };
        return structuredResult(described, tableText(described));
      } catch (error) {
        return toolFailure(error, deps.logger, "describe_table");
      }
    },
  );

  server.registerTool(
    "search_markets",
    {
      title: "Search markets",
      description: `Finds markets of both venues (Polymarket and Kalshi) whose question, subtitle, id or ticker contains every word of q, in their latest snapshot: open markets first, then the most traded. Answers each market's id (Polymarket) or ticker (Kalshi), title, status (open, closed, resolved), outcome prices as probabilities 0–1, volume (USDC on Polymarket, contracts on Kalshi) and close time. Use the id or ticker in SQL (polymarket.*.id, kalshi.*.ticker). ${DATA_FACTS}`,
      inputSchema: {
        q: z.string().trim().min(1).max(200).describe("Words of the question, or an id or ticker."),
        venue: ZVenue.optional().describe("Only this venue."),
        limit: z.number().int().min(1).max(50).default(10).describe("Markets answered at most (1–50)."),
      },
      annotations: READ_ONLY,
    },
    async ({ q, venue, limit }) => {
      try {
        const markets = await searchMarketsWithPrices(deps, { q, venue, limit });
        const text = markets.length === 0 ? `No market matches "${q}".` : markets.map(marketLine).join("\n");
        return structuredResult({ markets }, text);
      } catch (error) {
        return toolFailure(error, deps.logger, "search_markets");
      }
    },
  );
}

/** The table list as the `epicenter://tables` resource reads: every table with its row count, description and columns. */
export async function tablesText(context: McpContext): Promise<string> {
  const tables = await listTables(context.deps.warehouse, { withStats: true });
  return `# Tables\n\n${DATA_FACTS}\n\n${catalogText(tables)}`;
}

/**
 * A few distinct values of each column from sample rows, run as the caller's query. A busy
 * queue or a refusal leaves the description without samples rather than failing it.
 */
async function sampleValues(
  context: McpContext,
  table: Table,
  signal: AbortSignal,
): Promise<{ values: Map<string, unknown[]>; note: string | null }> {
  // Names come from the engine's own catalog, never from the request.
  const sql = `SELECT * FROM ${tableSource(table)} LIMIT ${SAMPLE_ROWS}`;
  const values = new Map<string, unknown[]>();
  try {
    const result = await runQuery(context.deps, {
      sql,
      limit: SAMPLE_ROWS,
      userId: context.caller.userId,
      apiKeyId: context.caller.apiKeyId,
      origin: "mcp",
      maxBytes: MAX_TOOL_RESULT_BYTES,
      signal,
    });
    result.columns.forEach((column, index) => {
      const seen = new Map<string, unknown>();
      for (const row of result.rows) {
        const value = shortened(row[index]);
        if (value === null || value === "" || seen.size >= SAMPLE_VALUES) continue;
        seen.set(JSON.stringify(value), value);
      }
      values.set(column.name, [...seen.values()]);
    });
    return { values, note: result.row_count === 0 ? "The table is empty." : null };
  } catch (error) {
    if (error instanceof SandboxError || error instanceof QueryServiceBusy) {
      return { values, note: `No samples: ${error.message}` };
    }
    throw error;
  }
}

function shortened(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value.length > SAMPLE_CHARS ? `${value.slice(0, SAMPLE_CHARS)}…` : value;
  if (typeof value === "object") {
    const text = JSON.stringify(value);
    return text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : value;
  }
  return value;
}

function tableText(table: {
  name: string;
  description: string | null;
  row_count: number | null;
  columns: Array<{ name: string; type: string; description: string | null; sample_values: unknown[] }>;
  sample_note: string | null;
}): string {
  const lines = [`${table.name} — ${table.row_count ?? "?"} rows`];
  if (table.description) lines.push(table.description);
  if (table.sample_note) lines.push(table.sample_note);
  for (const column of table.columns) {
    const samples =
      column.sample_values.length > 0
        ? ` e.g. ${column.sample_values.map((value) => JSON.stringify(value)).join(", ")}`
        : "";
    lines.push(`- ${column.name} ${column.type}${column.description ? ` — ${column.description}` : ""}${samples}`);
  }
  return lines.join("\n");
}
