import {
  type ChartSpec,
  type ExportQueryRequest,
  endpoints,
  type QueryParams,
  type QueryResult,
  ZQueryResult,
} from "@epicenter/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, open } from "../../lib/api";

const SAVED = ["saved-queries"] as const;

export const useSavedQueries = () =>
  useQuery({ queryKey: SAVED, queryFn: ({ signal }) => call(endpoints.listSavedQueries, {}, { signal }) });

/** Missing statistics are tolerated: a failure reads as "no runs yet". */
export const useQueryStats = () =>
  useQuery({
    queryKey: ["query-stats"],
    queryFn: ({ signal }) => call(endpoints.queryStats, {}, { signal }).catch(() => ({ queries: [] })),
    staleTime: 10_000,
  });

export const useSavedQuery = (id: string | undefined) =>
  useQuery({
    queryKey: [...SAVED, id],
    queryFn: ({ signal }) => call(endpoints.getSavedQuery, { params: { id: id ?? "" } }, { signal }),
    enabled: Boolean(id),
  });

export const useSqlDialect = () =>
  useQuery({
    queryKey: ["sql-dialect"],
    queryFn: ({ signal }) => call(endpoints.sqlDialect, {}, { signal }),
    staleTime: Infinity,
  });

export const useCatalogTables = () =>
  useQuery({
    queryKey: ["tables", false],
    queryFn: ({ signal }) => call(endpoints.listTables, {}, { signal }),
    staleTime: 5 * 60_000,
  });

export const RUN_HISTORY = ["run-history"] as const;

/** The user's last runs (the editor's History panel); refetched after each run. */
export const useRunHistory = (isEnabled: boolean) =>
  useQuery({
    queryKey: RUN_HISTORY,
    queryFn: ({ signal }) => call(endpoints.runHistory, {}, { signal }),
    enabled: isEnabled,
  });

export interface SavedQueryDraft {
  title: string;
  sql: string;
  description: string | null;
  is_public: boolean;
  chart: ChartSpec | null;
  /** The values of its parameters as the editor holds them, kept so it reopens with them. */
  params: Record<string, string>;
}

export function useCreateSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: SavedQueryDraft) => call(endpoints.createSavedQuery, { body: draft }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED }),
  });
}

export function useUpdateSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: Partial<SavedQueryDraft> & { id: string }) =>
      call(endpoints.updateSavedQuery, { params: { id }, body: changes }),
    onSuccess: (saved) => {
      queryClient.setQueryData([...SAVED, saved.id], saved);
      return queryClient.invalidateQueries({ queryKey: SAVED });
    },
  });
}

export function useDeleteSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.deleteSavedQuery, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED }),
  });
}

/**
 * Runs one statement for the editor; `params` are the values of its `{name:Type}`
 * parameters. The answer is checked field by field except its rows, which are only
 * checked to be arrays: copying 10,000 rows through the schema cost more than the run.
 */
export async function runSql(
  request: { query: string; limit: number; queryId?: string | undefined; params?: QueryParams | undefined },
  signal: AbortSignal,
): Promise<QueryResult> {
  const response = await open(
    endpoints.runQueryRows,
    {
      body: {
        query: request.query,
        limit: request.limit,
        ...(request.queryId ? { query_id: request.queryId } : {}),
        ...(request.params ? { params: request.params } : {}),
      },
    },
    { signal },
  );
  const body = (await response.json()) as { rows?: unknown };
  const rows = body.rows;
  if (!Array.isArray(rows) || !rows.every(Array.isArray)) throw new Error("The server's answer had no rows.");
  return { ...ZQueryResultWithoutRows.parse(body), rows };
}

const ZQueryResultWithoutRows = ZQueryResult.omit({ rows: true });

/** Downloads a whole result in the engine's format and hands it to the browser as a file. */
export async function downloadResult(request: ExportQueryRequest): Promise<void> {
  const response = await open(endpoints.exportQuery, { body: request });
  const name =
    response.headers.get("content-disposition")?.match(/filename="([^"]+)"/)?.[1] ?? `result.${request.format}`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
