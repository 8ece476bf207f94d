import {
  ZAdminQueryRuns,
  ZAdminSyncRuns,
  ZAdminUsers,
  ZAllowList,
  ZAllowListEntry,
  ZWaitlist,
} from "@epicenter/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall, apiRequest } from "../../lib/api";

const path = (email: string) => encodeURIComponent(email);

export const useAllowList = () =>
  useQuery({ queryKey: ["admin", "allow-list"], queryFn: () => apiRequest("/api/admin/allow-list", ZAllowList) });
export const useWaitlist = () =>
  useQuery({ queryKey: ["admin", "waitlist"], queryFn: () => apiRequest("/api/admin/waitlist", ZWaitlist) });
export const useAdminUsers = () =>
  useQuery({ queryKey: ["admin", "users"], queryFn: () => apiRequest("/api/admin/users", ZAdminUsers) });
export const useSyncRuns = (hideIdleBackfill: boolean) =>
  useQuery({
    queryKey: ["admin", "sync-runs", hideIdleBackfill],
    queryFn: () => apiRequest(`/api/admin/sync-runs?hide_idle_backfill=${hideIdleBackfill}`, ZAdminSyncRuns),
    refetchInterval: 30_000,
  });
export const useQueryRuns = (errorsOnly: boolean) =>
  useQuery({
    queryKey: ["admin", "query-runs", errorsOnly],
    queryFn: () => apiRequest(`/api/admin/query-runs?errors_only=${errorsOnly}`, ZAdminQueryRuns),
  });

/** Every admin change refreshes the admin views it may have touched. */
function useAdminMutation<Input>(mutationFn: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["admin"] }),
  });
}

export const useAddToAllowList = () =>
  useAdminMutation((email: string) =>
    apiRequest("/api/admin/allow-list", ZAllowListEntry, { method: "POST", body: { email } }),
  );
export const useRemoveFromAllowList = () =>
  useAdminMutation((email: string) => apiCall(`/api/admin/allow-list/${path(email)}`, { method: "DELETE" }));
export const useApproveWaitlisted = () =>
  useAdminMutation((email: string) =>
    apiRequest(`/api/admin/waitlist/${path(email)}/approve`, ZAllowListEntry, { method: "POST" }),
  );
export const useRemoveFromWaitlist = () =>
  useAdminMutation((email: string) => apiCall(`/api/admin/waitlist/${path(email)}`, { method: "DELETE" }));
