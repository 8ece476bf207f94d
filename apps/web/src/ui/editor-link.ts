/**
 * The SQL editor's prefill contract, and the one place that writes or reads it: every
 * "open in editor" and "fork" in the product is `editorUrl(node)`, and the editor opens
 * with `prefillOf(params)`. The URL carries the query value itself (`QueryNode`): its
 * statement, its title and, for a chart, the chart spec, so a chart tile opens as a chart.
 */
import { type ChartSpec, type QueryNode, ZChartSpec } from "@epicenter/contracts";

export type EditorPrefill = Pick<QueryNode, "sql" | "title" | "view">;

export function editorUrl(node: EditorPrefill): string {
  const params = new URLSearchParams({ sql: node.sql });
  if (node.title) params.set("title", node.title);
  if (node.view?.kind === "chart") params.set("chart", JSON.stringify(node.view));
  return `/queries/new?${params.toString()}`;
}

/** What a `/queries/new?…` link asks the editor to open with; nothing without a statement. */
export function prefillOf(params: URLSearchParams): { sql: string; title?: string; chart?: ChartSpec } | undefined {
  const sql = params.get("sql");
  if (!sql) return undefined;
  const title = params.get("title");
  const chart = chartOf(params.get("chart"));
  return { sql, ...(title ? { title } : {}), ...(chart ? { chart } : {}) };
}

/** A chart spec from the URL, or nothing when it is missing or not one (a hand-edited link). */
function chartOf(text: string | null): ChartSpec | undefined {
  if (!text) return undefined;
  try {
    const parsed = ZChartSpec.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
