import { endpoints, type ManualPairRequest, type PairListQuery } from "@epicenter/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";

export const useAllowList = () =>
  useQuery({
    queryKey: ["admin", "allow-list"],
    queryFn: ({ signal }) => call(endpoints.adminListAllowList, {}, { signal }),
  });
export const useWaitlist = () =>
  useQuery({
    queryKey: ["admin", "waitlist"],
    queryFn: ({ signal }) => call(endpoints.adminListWaitlist, {}, { signal }),
  });
export const useAdminUsers = () =>
  useQuery({ queryKey: ["admin", "users"], queryFn: ({ signal }) => call(endpoints.adminListUsers, {}, { signal }) });
export const useSyncRuns = (hideIdleBackfill: boolean) =>
  useQuery({
    queryKey: ["admin", "sync-runs", hideIdleBackfill],
    queryFn: ({ signal }) =>
      call(endpoints.adminSyncRuns, { query: { hide_idle_backfill: hideIdleBackfill ? "true" : "false" } }, { signal }),
    refetchInterval: 30_000,
  });
export const useQueryRuns = (errorsOnly: boolean) =>
  useQuery({
    queryKey: ["admin", "query-runs", errorsOnly],
    queryFn: ({ signal }) =>
      call(endpoints.adminQueryRuns, { query: { errors_only: errorsOnly ? "true" : "false" } }, { signal }),
  });

export const useCrossVenuePairs = (query: PairListQuery) =>
  useQuery({
    queryKey: ["admin", "crossvenue-pairs", query],
    queryFn: ({ signal }) => call(endpoints.adminListPairs, { query }, { signal }),
    // The tabs' counts and the rows stay while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
export const useMatcherStatus = () =>
  useQuery({
    queryKey: ["admin", "crossvenue-matcher"],
    queryFn: ({ signal }) => call(endpoints.adminMatcherStatus, {}, { signal }),
    // The matcher runs after each snapshot: a minute is fresh enough.
    refetchInterval: 60_000,
  });
export const usePairReviews = () =>
  useQuery({
    queryKey: ["admin", "crossvenue-reviews"],
    queryFn: ({ signal }) => call(endpoints.adminPairReviews, { query: { limit: 200 } }, { signal }),
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
  useAdminMutation((email: string) => call(endpoints.adminAddAllowList, { body: { email } }));
export const useRemoveFromAllowList = () =>
  useAdminMutation((email: string) => call(endpoints.adminRemoveAllowList, { params: { email } }));
export const useApproveWaitlisted = () =>
  useAdminMutation((email: string) => call(endpoints.adminApproveWaitlist, { params: { email } }));
export const useRemoveFromWaitlist = () =>
  useAdminMutation((email: string) => call(endpoints.adminRemoveWaitlist, { params: { email } }));

export interface PairDecision {
  polymarketId: string;
  kalshiTicker: string;
  action: "confirm" | "reject";
}
export const useDecidePair = () =>
  useAdminMutation(({ polymarketId, kalshiTicker, action }: PairDecision) => {
    const params = { polymarket_id: polymarketId, kalshi_ticker: kalshiTicker };
    return action === "confirm"
      ? call(endpoints.adminConfirmPair, { params })
      : call(endpoints.adminRejectPair, { params });
  });
export const useAddPair = () =>
  useAdminMutation((request: ManualPairRequest) => call(endpoints.adminAddPair, { body: request }));
