import { endpoints } from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";

export function useDashboards() {
  return useQuery({
    queryKey: ["dashboards"],
    queryFn: ({ signal }) => call(endpoints.listDashboards, {}, { signal }),
  });
}

export function useDashboard(id: string) {
  return useQuery({
    queryKey: ["dashboards", id],
    queryFn: ({ signal }) => call(endpoints.getDashboard, { params: { id } }, { signal }),
  });
}

export const tileQueryKey = (dashboardId: string) => ["dashboard-tile", dashboardId] as const;

/** One tile's rows, refetched on the dashboard's cadence (5 minutes for the Pulse dashboards). */
export function useTileResult(dashboardId: string, tileId: string, refreshSeconds: number | null) {
  return useQuery({
    queryKey: [...tileQueryKey(dashboardId), tileId],
    queryFn: ({ signal }) => call(endpoints.runDashboardTile, { params: { id: dashboardId, tileId } }, { signal }),
    refetchInterval: refreshSeconds ? refreshSeconds * 1000 : false,
    refetchIntervalInBackground: false,
    staleTime: refreshSeconds ? refreshSeconds * 1000 : 30_000,
    // A broken query stays broken until its SQL changes: show the error, do not retry.
    retry: false,
  });
}
