import { endpoints } from "@epicenter/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { track } from "../../lib/analytics";
import { call } from "../../lib/api";

const KEYS = ["api-keys"] as const;

export function useApiKeys() {
  return useQuery({ queryKey: KEYS, queryFn: ({ signal }) => call(endpoints.listApiKeys, {}, { signal }) });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; userId: string }) =>
      call(endpoints.createApiKey, { body: { name: input.name, user_id: input.userId } }),
    onSuccess: (key) => {
      track({ name: "api_key_created", properties: { key_name: key.name } });
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => call(endpoints.revokeApiKey, { params: { id: keyId } }),
    onSuccess: (_, keyId) => {
      track({ name: "api_key_revoked", properties: { key_id: keyId } });
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
}
