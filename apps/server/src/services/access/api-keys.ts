/** Creating, listing and revoking a user's own API keys. */
import { type ApiKey, type AppDb, createApiKey, listApiKeys, revokeApiKey } from "@epicenter/db";
import { displayPrefix, hashSecret, newSecret } from "./secrets";

export async function createKeyForUser(
  db: AppDb,
  userId: string,
  name: string,
): Promise<{ apiKey: ApiKey; key: string }> {
  const key = newSecret("api_key");
  const apiKey = await createApiKey(db, {
    userId,
    name: name.trim(),
    keyPrefix: displayPrefix(key),
    keyHash: hashSecret(key),
  });
  return { apiKey, key };
}

export { listApiKeys, revokeApiKey };
