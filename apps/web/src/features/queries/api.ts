import {
  type ChartSpec,
  type ExportQueryRequest,
  ZQueryStats,
  ZRunQueryResponse,
  ZSavedQuery,
  ZSavedQueryList,
  ZSqlDialect,
  ZTableList,
} from "@epicenter/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError, apiCall, apiRequest } from "../../lib/api";
import { sessionStore } from "../../lib/session-store";

const SAVED = ["saved-queries"] as const;

export const useSavedQueries = () =>
  useQuery({ queryKey: SAVED, queryFn: () => apiRequest("/api/queries", ZSavedQueryList) });

/** Missing statistics are tolerated: a failure reads as "no runs yet". */
export const useQueryStats = () =>
  useQuery({
    queryKey: ["query-stats"],
    queryFn: () => apiRequest("/api/queries/stats", ZQueryStats).catch(() => ({ queries: [] })),
    staleTime: 10_000,
  });

export const useSavedQuery = (id: string | undefined) =>
  useQuery({
    queryKey: [...SAVED, id],
    queryFn: () => apiRequest(`/api/queries/${id}`, ZSavedQuery),
    enabled: Boolean(id),
  });

export const useSqlDialect = () =>
  useQuery({
    queryKey: ["sql-dialect"],
    queryFn: () => apiRequest("/api/sql/dialect", ZSqlDialect),
    staleTime: Infinity,
  });

export const useCatalogTables = () =>
  useQuery({
    queryKey: ["tables", false],
    queryFn: () => apiRequest("/api/tables", ZTableList),
    staleTime: 5 * 60_000,
  });

export interface SavedQueryDraft {
  title: string;
  sql: string;
  description: string | null;
  is_public: boolean;
  chart: ChartSpec | null;
}

export function useCreateSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: SavedQueryDraft) => apiRequest("/api/queries", ZSavedQuery, { method: "POST", body: draft }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED }),
  });
}

export function useUpdateSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: Partial<SavedQueryDraft> & { id: string }) =>
      apiRequest(`/api/queries/${id}`, ZSavedQuery, { method: "PATCH", body: changes }),
    onSuccess: (saved) => {
      queryClient.setQueryData([...SAVED, saved.id], saved);
      return queryClient.invalidateQueries({ queryKey: SAVED });
    },
  });
}

export function useDeleteSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(`/api/queries/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED }),
  });
}

export function runSql(request: { query: string; limit: number; queryId?: string | undefined }, signal: AbortSignal) {
  return apiRequest("/api/query", ZRunQueryResponse, {
    method: "POST",
    body: { query: request.query, limit: request.limit, ...(request.queryId ? { query_id: request.queryId } : {}) },
    signal,
  });
}

/** Downloads a whole result in the engine's format and hands it to the browser as a file. */
export async function downloadResult(request: ExportQueryRequest): Promise<void> {
  const token = sessionStore.get()?.accessToken;
  const response = await fetch("/api/query/export", {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(request),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string; code?: string } } | null;
    throw new ApiRequestError(response.status, "internal", body?.error?.message ?? "The download failed.");
  }
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

/** The editor's URL for a new query, prefilled (used by Fork, the catalog and dashboards). */
export function newQueryUrl(prefill: { sql: string; title?: string }): string {
  const params = new URLSearchParams({ sql: prefill.sql });
  if (prefill.title) params.set("title", prefill.title);
  return `/queries/new?${params.toString()}`;
}
