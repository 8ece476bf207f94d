import { MAX_QUERY_ROW_LIMIT, type QueryResult } from "@epicenter/contracts";

/**
 * Why a result shows fewer rows than the query returned, and what to do (issue 24, defect
 * 4): raise the row limit while there is a higher one, else download the whole result;
 * a result cut by its bytes is not helped by more rows.
 */
export function truncationNotice(result: Pick<QueryResult, "row_count" | "truncated_by">, limit: number): string {
  const shown = `Showing the first ${result.row_count.toLocaleString("en-US")} rows`;
  if (result.truncated_by === "bytes") {
    return `${shown}: the result is larger than the 32 MiB one answer holds. Download the whole result (up to 1,000,000 rows) with the buttons above.`;
  }
  if (limit < MAX_QUERY_ROW_LIMIT) {
    return `${shown}; the query returned more. Raise the limit or download the whole result.`;
  }
  return `${shown}, the most one answer holds; the query returned more. Download the whole result (up to 1,000,000 rows) with the buttons above.`;
}
