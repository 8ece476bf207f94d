/**
 * Secrets: magic-link tokens, session tokens and API keys. Each is 32 random bytes (256
 * bits) with a readable prefix that says what it is, and is stored only as its SHA-256
 * hash. A fast hash is right here: the secrets are random and long, so there is nothing
 * for a slow password hash to protect against, and every API call looks one up.
 */
import { createHash, randomBytes } from "node:crypto";

export type SecretKind = "magic_link" | "access" | "refresh" | "api_key";

const PREFIXES: Record<SecretKind, string> = {
  magic_link: "epm_",
  access: "epa_",
  refresh: "epr_",
  api_key: "ep_live_",
};

export function newSecret(kind: SecretKind): string {
  return PREFIXES[kind] + randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function isApiKey(secret: string): boolean {
  return secret.startsWith(PREFIXES.api_key);
}

/** What is shown in the key list to tell keys apart: the prefix and a few characters. */
export function displayPrefix(apiKey: string): string {
  return apiKey.slice(0, PREFIXES.api_key.length + 6);
}
