import { ZApiKeyList, ZCreatedApiKey } from "@epicenter/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { track } from "../../lib/analytics";
import { apiCall, apiRequest } from "../../lib/api";

const KEYS = ["api-keys"] as const;

export function useApiKeys() {
  return useQuery({ queryKey: KEYS, queryFn: () => apiRequest("/api/keys/list", ZApiKeyList) });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; userId: string }) =>
      apiRequest("/api/keys/create", ZCreatedApiKey, {
        method: "POST",
        body: { name: input.name, user_id: input.userId },
      }),
    onSuccess: (key) => {
      track({ name: "api_key_created", properties: { key_name: key.name } });
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiCall(`/api/keys/${keyId}`, { method: "DELETE" }),
    onSuccess: (_, keyId) => {
      track({ name: "api_key_revoked", properties: { key_id: keyId } });
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
}
