import type { ApiKey as ApiKeyJson } from "@epicenter/contracts";
import type { ApiKey } from "@epicenter/db";

export function apiKeyJson(key: ApiKey): ApiKeyJson {
  return {
    id: key.id,
    name: key.name,
    key_prefix: key.keyPrefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}
