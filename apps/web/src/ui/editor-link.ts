/**
 * The SQL editor's prefill contract, and the one place that writes or reads it: every
 * "open in editor" and "fork" in the product is `editorUrl(node)`, and the editor opens
 * with `prefillOf(params)`. The URL carries the query value itself (`QueryNode`): its
 * statement, its title and, for a chart, the chart spec, so a chart tile opens as a chart.
 *
 * Values of the statement's `{name:Type}` parameters ride along as `param_<name>=<value>`,
 * ClickHouse's own convention (its HTTP interface reads the same names), on `/queries/new`
 * and on a saved query's `/queries/{id}` alike, so a shared or bookmarked link runs with
 * the same values.
 */
import { type ChartSpec, type QueryNode, ZChartSpec } from "@epicenter/contracts";

export type EditorPrefill = Pick<QueryNode, "sql" | "title" | "view" | "params">;

/** The editor opened on `node`, with its own parameter values unless others are given. */
export function editorUrl(
  node: EditorPrefill,
  paramValues: Readonly<Record<string, string>> = node.params ?? {},
): string {
  const params = new URLSearchParams({ sql: node.sql });
  if (node.title) params.set("title", node.title);
  if (node.view?.kind === "chart") params.set("chart", JSON.stringify(node.view));
  return `/queries/new?${withParamValues(params, paramValues).toString()}`;
}

/** The prefix of a parameter's value in a URL: `param_days=7` is `{days:…}`'s value. */
export const PARAM_PREFIX = "param_";
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The parameter values a URL carries, by name; keys that are not a parameter name are ignored. */
export function paramValuesOf(params: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of params) {
    const name = key.slice(PARAM_PREFIX.length);
    if (key.startsWith(PARAM_PREFIX) && PARAM_NAME.test(name)) values[name] = value;
  }
  return values;
}

/**
 * `params` with its parameter values replaced by `values` (empty ones left out), everything
 * else kept as it was.
 */
export function withParamValues(params: URLSearchParams, values: Readonly<Record<string, string>>): URLSearchParams {
  const next = new URLSearchParams([...params].filter(([key]) => !key.startsWith(PARAM_PREFIX)));
  for (const [name, value] of Object.entries(values)) {
    if (PARAM_NAME.test(name) && value !== "") next.append(`${PARAM_PREFIX}${name}`, value);
  }
  return next;
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
