/**
 * Finding the SQL in a markdown answer: fenced blocks tagged `sql` (or `clickhouse`), or
 * untagged blocks that start like a query. The last block is the answer's SQL; earlier
 * ones are usually steps on the way.
 */
const FENCE = /```([A-Za-z]*)[^\n]*\n([\s\S]*?)```/g;
const LOOKS_LIKE_QUERY = /^\s*(?:--[^\n]*\n\s*)*(?:SELECT|WITH)\b/i;

export function sqlBlocksOf(markdown: string): string[] {
  const blocks: string[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const language = (match[1] ?? "").toLowerCase();
    const body = (match[2] ?? "").trim();
    if (!body) continue;
    if (language === "sql" || language === "clickhouse" || (language === "" && LOOKS_LIKE_QUERY.test(body))) {
      blocks.push(stripTrailingSemicolon(body));
    }
  }
  return blocks;
}

export function stripTrailingSemicolon(sql: string): string {
  return sql.trim().replace(/;\s*$/, "").trim();
}

/** A short title for the editor: the first heading or sentence of the answer, else the question. */
export function titleFor(answer: string, question: string): string {
  const heading = answer.match(/^#{1,4}\s+(.+)$/m)?.[1];
  const source = heading ?? question;
  const line =
    source
      .replace(/[`*_#]/g, "")
      .split(/\n|(?<=[.?!])\s/)[0]
      ?.trim() ?? "";
  return (line.length > 80 ? `${line.slice(0, 77).trimEnd()}…` : line) || "Seismo query";
}

/** Same statement, ignoring whitespace and a trailing semicolon. */
export function sameSql(a: string, b: string): boolean {
  const norm = (sql: string) => stripTrailingSemicolon(sql).replace(/\s+/g, " ").toLowerCase();
  return norm(a) === norm(b);
}
