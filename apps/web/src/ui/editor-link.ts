/**
 * The SQL editor's prefill contract: `/queries/new?sql=…&title=…` opens a new query with
 * that statement and title. Every "open in editor" in the product builds its link here.
 */
export function editorUrl(sql: string, title?: string): string {
  const params = [`sql=${encodeURIComponent(sql)}`];
  if (title) params.push(`title=${encodeURIComponent(title)}`);
  return `/queries/new?${params.join("&")}`;
}
