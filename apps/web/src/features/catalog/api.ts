import { endpoints } from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";

/** The catalog without row counts answers at once; the counts follow in a second call. */
export function useTables(withStats: boolean) {
  return useQuery({
    queryKey: ["catalog", "tables", withStats],
    queryFn: ({ signal }) =>
      call(endpoints.listTables, { query: { with_stats: withStats ? "true" : "false" } }, { signal }),
  });
}

export function useTable(namespace: string, table: string) {
  return useQuery({
    queryKey: ["catalog", "table", namespace, table],
    queryFn: ({ signal }) => call(endpoints.getTable, { params: { namespace, table } }, { signal }),
  });
}

/** The UI asks for 10 sample rows (SPEC §9). */
export const SAMPLE_ROWS = 10;

export function useSample(namespace: string, table: string, isEnabled: boolean) {
  return useQuery({
    queryKey: ["catalog", "sample", namespace, table],
    queryFn: ({ signal }) =>
      call(endpoints.sampleTable, { params: { namespace, table }, query: { limit: SAMPLE_ROWS } }, { signal }),
    enabled: isEnabled,
  });
}
