/** A user's own API keys: creating (the key shown once), listing and revoking, as the API shows them. */
import type { ApiKey as ApiKeyJson, CreatedApiKey } from "@epicenter/contracts";
import { type ApiKey, type AppDb, createApiKey, listApiKeys, revokeApiKey } from "@epicenter/db";
import { displayPrefix, hashSecret, newSecret } from "./secrets";

export interface ApiKeyDeps {
  db: AppDb;
  clock: () => Date;
}

export async function createKeyForUser(
  deps: Pick<ApiKeyDeps, "db">,
  userId: string,
  name: string,
): Promise<CreatedApiKey> {
  const key = newSecret("api_key");
  const apiKey = await createApiKey(deps.db, {
    userId,
    name: name.trim(),
    keyPrefix: displayPrefix(key),
    keyHash: hashSecret(key),
  });
  return { ...apiKeyJson(apiKey), key };
}

export async function listKeysOf(deps: Pick<ApiKeyDeps, "db">, userId: string): Promise<ApiKeyJson[]> {
  return (await listApiKeys(deps.db, userId)).map(apiKeyJson);
}

/** False when the user has no such key (another user's key reads the same as none). */
export function revokeKeyOf(deps: ApiKeyDeps, userId: string, keyId: string): Promise<boolean> {
  return revokeApiKey(deps.db, userId, keyId, deps.clock());
}

function apiKeyJson(key: ApiKey): ApiKeyJson {
  return {
    id: key.id,
    name: key.name,
    key_prefix: key.keyPrefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}
