/**
 * Advice on a statement before it runs: a faster form of a slow pattern the engine cannot
 * speed up by itself. The editor shows it under the editor (with the rewrite, when one
 * gives exactly the same rows, a click away), and Seismo's grounding teaches the same.
 *
 * The latest-row pattern — `row_number() OVER (PARTITION BY key ORDER BY sync_timestamp
 * DESC)` over a snapshot table, keeping row 1 — sorts every snapshot in its window (1.8 M
 * rows for one day of 10,000 markets: ~150 ms, where DuckDB's window takes ~30 ms; issue
 * 30). Each snapshot table has a latest-state twin (`…_latest`) holding each key's newest
 * snapshot, so when the window is only a lower bound on `sync_timestamp`, the same rows
 * come from the twin with the same bound, in a few milliseconds: a market whose newest
 * snapshot is inside the window is exactly one with a row there. Any other filter inside
 * the window changes which row is newest, so then the advice names the faster forms
 * without rewriting: `argMax(column, sync_timestamp) … GROUP BY key` over the snapshots,
 * or the as-of view for a past moment.
 */

export interface QueryAdvice {
  kind: "latest-row";
  /** One line, for the hint's heading. */
  title: string;
  /** What is slow, and what to do instead. */
  message: string;
  /** The statement rewritten, giving the same rows; absent when no exact rewrite exists. */
  rewrite?: string;
}

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const WINDOW = new RegExp(
  String.raw`row_number\s*\(\s*\)\s*OVER\s*\(\s*PARTITION\s+BY\s+(${NAME})\s+ORDER\s+BY\s+sync_timestamp\s+DESC\s*\)\s*(?:AS\s+)?(${NAME})`,
  "i",
);

/**
 * Advice for `sql`, given the tables that exist (`database.table`; the twin must be one
 * of them). Empty when nothing is known to be slow.
 */
export function adviseQuery(sql: string, tables: readonly string[]): QueryAdvice[] {
  const window = WINDOW.exec(sql);
  if (!window) return [];
  const [, key, alias] = window as unknown as [string, string, string];
  if (!new RegExp(String.raw`\b${alias}\s*=\s*1\b`, "i").test(sql)) return [];
  const known = new Set(tables);
  const source = [...sql.matchAll(new RegExp(String.raw`\bFROM\s+(${NAME})\.(${NAME})\b`, "gi"))]
    .map(([, database, table]) => ({ snapshots: `${database}.${table}`, latest: `${database}.${table}_latest` }))
    .find((table) => known.has(table.snapshots) && known.has(table.latest));
  if (!source) return [];
  const rewrite = rewriteToLatest(sql, source.snapshots, source.latest, alias);
  return [
    {
      kind: "latest-row",
      title: `Faster: read ${source.latest}`,
      message: rewrite
        ? `row_number() sorts every snapshot in the window. ${source.latest} holds each ${key}'s newest snapshot, so the same rows come from it with the same time bound, in milliseconds.`
        : `row_number() sorts every snapshot in the window. For the current state read ${source.latest} FINAL (each ${key}'s newest snapshot); over a window with other filters, argMax(column, sync_timestamp) … GROUP BY ${key} reads the snapshots without sorting them.`,
      ...(rewrite ? { rewrite } : {}),
    },
  ];
}

/** The longest statement read for an exact rewrite; a longer one gets the advice without it. */
export const REWRITE_MAX_LENGTH = 8_000;

/**
 * The gallery's shape, and only it: `SELECT <columns> FROM (SELECT …, row_number() … AS rn
 * FROM <snapshots> [WHERE sync_timestamp >= <bound>]) WHERE rn = 1 [AND …] <rest>`, the
 * outer columns among the inner ones. Anything else answers undefined.
 */
function rewriteToLatest(sql: string, snapshots: string, latest: string, alias: string): string | undefined {
  // The shape is a few hundred characters; matched against a long statement its lazy parts
  // backtrack in quadratic time (0.5 s at 100,000 characters, on every keystroke).
  if (sql.length > REWRITE_MAX_LENGTH) return undefined;
  const shape = new RegExp(
    String.raw`^\s*SELECT\s+([\s\S]+?)\s+FROM\s*\(\s*SELECT\s+([\s\S]+?),\s*row_number\s*\([\s\S]+?\)\s*(?:AS\s+)?${alias}\s+FROM\s+${snapshots.replace(".", String.raw`\.`)}(?:\s+WHERE\s+(sync_timestamp\s*>=?\s*[^()]*?(?:\([^()]*\)[^()]*?)*))?\s*\)\s*(?:AS\s+${NAME}\s+)?WHERE\s+${alias}\s*=\s*1\b([\s\S]*)$`,
    "i",
  );
  const match = shape.exec(sql);
  if (!match) return undefined;
  const [, outer, inner, bound, rest] = match as unknown as [string, string, string, string | undefined, string];
  // Every outer column must be one the window's subquery passes through (`*` would also show the row number).
  const innerColumns = new Set(inner.split(",").map((column) => column.trim()));
  const outerColumns = outer.split(",").map((column) => column.trim());
  if (!innerColumns.has("*") && !outerColumns.every((column) => innerColumns.has(column))) return undefined;
  if (outerColumns.includes("*")) return undefined;
  // `WHERE rn = 1 AND …`: the outer conditions apply to the newest row, as they will to the twin's.
  const andMore = /^\s*AND\s+/i.exec(rest);
  const tail = (andMore ? rest.slice(andMore[0].length) : rest).trim();
  // `rn = 1 AND a OR b` is `(rn = 1 AND a) OR b`: no longer the same once the bound joins it.
  if (andMore && /\bOR\b/i.test(tail)) return undefined;
  const where = andMore
    ? `WHERE ${bound ? `${bound.trim()} AND ` : ""}${tail}`
    : `${bound ? `WHERE ${bound.trim()}\n` : ""}${tail}`;
  return `SELECT ${outer.trim()}\nFROM ${latest} FINAL\n${where}`.trim();
}
