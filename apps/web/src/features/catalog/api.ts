import { ZSampleData, ZTable, ZTableList } from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api";

/** The catalog without row counts answers at once; the counts follow in a second call. */
export function useTables(withStats: boolean) {
  return useQuery({
    queryKey: ["catalog", "tables", withStats],
    queryFn: () => apiRequest(`/api/tables?with_stats=${withStats}`, ZTableList),
  });
}

export function useTable(namespace: string, table: string) {
  return useQuery({
    queryKey: ["catalog", "table", namespace, table],
    queryFn: () => apiRequest(`/api/table/${namespace}/${table}`, ZTable),
  });
}

/** The UI asks for 10 sample rows (SPEC §9). */
export const SAMPLE_ROWS = 10;

export function useSample(namespace: string, table: string, isEnabled: boolean) {
  return useQuery({
    queryKey: ["catalog", "sample", namespace, table],
    queryFn: () => apiRequest(`/api/table/${namespace}/${table}/sample?limit=${SAMPLE_ROWS}`, ZSampleData),
    enabled: isEnabled,
  });
}
