/**
 * Resolved callers kept in memory, on a real PGlite: a repeated call does not ask the store,
 * and every write that changes access is seen by the very next call.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AppDatabase,
  addToAllowList,
  createSession,
  openAppDatabase,
  removeFromAllowList,
  revokeApiKey,
  upsertUserByEmail,
} from "@epicenter/db";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyForUser } from "./api-keys";
import { type AccessDeps, resolvePrincipal } from "./principal";
import { createPrincipalCache, type PrincipalCache } from "./principal-cache";
import { issueSessionTokens, refreshSession, signOut } from "./sessions";

let dir: string;
let store: AppDatabase;
let now = new Date("2026-11-01T12:00:00Z");
let cache: PrincipalCache;
let deps: AccessDeps;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "epicenter-principals-"));
  store = await openAppDatabase({ path: join(dir, "app") });
  cache = createPrincipalCache(store.db);
  deps = { db: store.db, adminEmails: [], clock: () => now, principals: cache };
});
afterAll(async () => {
  cache.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function allowedUser(email: string) {
  await addToAllowList(store.db, email);
  return upsertUserByEmail(store.db, email);
}

async function signedIn(userId: string) {
  const tokens = issueSessionTokens(now);
  const sessionId = await createSession(store.db, userId, tokens.hashed);
  return { ...tokens.plain, sessionId };
}

describe("callers kept in memory", () => {
  it("answers a repeated key from memory: a change made behind the repositories' back is not seen", async () => {
    const user = await allowedUser("memory@example.com");
    const { key } = await createKeyForUser(store, user.id, "bot");
    expect((await resolvePrincipal(deps, key))?.user.email).toBe("memory@example.com");
    // Raw SQL announces nothing, so the cached caller stays: this is why the server keeps
    // callers in memory only on the embedded database, which no other process writes.
    await store.db.execute(sql`UPDATE api_keys SET revoked_at = now() WHERE user_id = ${user.id}`);
    expect((await resolvePrincipal(deps, key))?.apiKeyId).toBeDefined();
    expect((await resolvePrincipal({ ...deps, principals: undefined }, key))?.apiKeyId).toBeUndefined();
  });

  it("stops a revoked key at once", async () => {
    const user = await allowedUser("revoke@example.com");
    const { key, id: keyId } = await createKeyForUser(store, user.id, "bot");
    expect(await resolvePrincipal(deps, key)).toMatchObject({ via: "api_key", apiKeyId: keyId });
    expect(await revokeApiKey(store.db, user.id, keyId, now)).toBe(true);
    expect(await resolvePrincipal(deps, key)).toBeUndefined();
  });

  it("does not keep a lookup that raced a revocation", async () => {
    const user = await allowedUser("race@example.com");
    const { key, id: keyId } = await createKeyForUser(store, user.id, "bot");
    // The lookup reads the live key, then the revocation commits before the lookup ends.
    const racing = resolvePrincipal(deps, key);
    const revoking = revokeApiKey(store.db, user.id, keyId, now);
    expect((await racing)?.apiKeyId).toBe(keyId);
    await revoking;
    expect(await resolvePrincipal(deps, key)).toBeUndefined();
  });

  it("ends a session at sign-out, and the old access token at refresh", async () => {
    const user = await allowedUser("session@example.com");
    const first = await signedIn(user.id);
    expect((await resolvePrincipal(deps, first.accessToken))?.sessionId).toBe(first.sessionId);
    const refreshed = await refreshSession(deps, first.refreshToken);
    expect(refreshed).toBeDefined();
    expect(await resolvePrincipal(deps, first.accessToken)).toBeUndefined();
    const access = refreshed?.accessToken as string;
    expect((await resolvePrincipal(deps, access))?.sessionId).toBe(first.sessionId);
    await signOut(deps, first.sessionId);
    expect(await resolvePrincipal(deps, access)).toBeUndefined();
  });

  it("ends a session's entry with its access token", async () => {
    const user = await allowedUser("expiry@example.com");
    const session = await signedIn(user.id);
    expect(await resolvePrincipal(deps, session.accessToken)).toBeDefined();
    const before = now;
    now = new Date(session.accessExpiresAt.getTime() + 1);
    try {
      expect(await resolvePrincipal(deps, session.accessToken)).toBeUndefined();
    } finally {
      now = before;
    }
  });

  it("follows the allow-list at once: removed, added back, promoted", async () => {
    const user = await allowedUser("listed@example.com");
    const { key } = await createKeyForUser(store, user.id, "bot");
    expect(await resolvePrincipal(deps, key)).toMatchObject({ isAllowed: true, isAdmin: false });
    await removeFromAllowList(store.db, "Listed@Example.com");
    expect(await resolvePrincipal(deps, key)).toMatchObject({ isAllowed: false });
    await addToAllowList(store.db, "listed@example.com");
    expect(await resolvePrincipal(deps, key)).toMatchObject({ isAllowed: true, isAdmin: false });
    await addToAllowList(store.db, "listed@example.com", "cli", { isAdmin: true });
    expect(await resolvePrincipal(deps, key)).toMatchObject({ isAllowed: true, isAdmin: true });
  });

  it("touches last_used_at at most once a minute, from memory too", async () => {
    const user = await allowedUser("touch@example.com");
    const { key, id: keyId } = await createKeyForUser(store, user.id, "bot");
    const lastUsed = async () =>
      (
        (await store.db.execute(sql`SELECT last_used_at FROM api_keys WHERE id = ${keyId}`)) as unknown as {
          rows: Array<{ last_used_at: string | Date | null }>;
        }
      ).rows[0]?.last_used_at;
    const start = now;
    try {
      await resolvePrincipal(deps, key);
      expect(new Date((await lastUsed()) as string).getTime()).toBe(start.getTime());
      now = new Date(start.getTime() + 30_000);
      await resolvePrincipal(deps, key);
      expect(new Date((await lastUsed()) as string).getTime()).toBe(start.getTime());
      now = new Date(start.getTime() + 61_000);
      await resolvePrincipal(deps, key);
      expect(new Date((await lastUsed()) as string).getTime()).toBe(now.getTime());
    } finally {
      now = start;
    }
  });
});
