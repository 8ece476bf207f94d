/**
 * Resolved callers kept in memory, keyed by the SHA-256 of their credential, so an API
 * call with a key or a session does not look its caller up in the app database every
 * time (on the embedded database that lookup runs on the server's main thread).
 *
 * "A revoked key stops working at once" still holds because every write that changes what
 * a credential resolves to announces itself (`onAccessChange` in `@epicenter/db`: key
 * revoked, session signed out or rotated, allow-list entry added, promoted or removed),
 * and the entries it concerns are dropped before the write's caller continues. A lookup
 * that was already under way when such a write happened is not kept (`generation`), so a
 * stale answer cannot slip in behind the invalidation. A session's entry also ends with
 * its access token.
 *
 * This is sound only where one process writes access state: the server therefore uses it
 * on the embedded app database only (see `createApp`). With PostgreSQL, the admin CLI or a
 * second server may change access from another process, so every request asks the store.
 */
import { type AccessChange, type AppDb, onAccessChange } from "@epicenter/db";
import type { Principal } from "./principal";

export interface CachedPrincipal {
  principal: Principal;
  /** When the credential stops working by itself (a session's access token); null: never. */
  expiresAt: Date | null;
  /** The last "last used / last seen" write for it, to keep those at once a minute. */
  touchedAt: Date | null;
}

export interface PrincipalCache {
  get(credentialHash: string, now: Date): CachedPrincipal | undefined;
  /** A marker taken before a lookup; `set` ignores the answer if access changed since. */
  generation(): number;
  set(credentialHash: string, entry: CachedPrincipal, generation: number): void;
  readonly size: number;
  /** Stops listening for changes (for apps built and dropped in tests). */
  close(): void;
}

const MAX_ENTRIES = 10_000;

export function createPrincipalCache(db: AppDb): PrincipalCache {
  // Insertion order is use order: a hit is moved to the end, the oldest is evicted first.
  const entries = new Map<string, CachedPrincipal>();
  let generation = 0;

  const concerns = (entry: CachedPrincipal, change: AccessChange): boolean => {
    switch (change.kind) {
      case "api_key":
        return entry.principal.apiKeyId === change.apiKeyId;
      case "session":
        return entry.principal.sessionId === change.sessionId;
      case "allow_list":
        return entry.principal.user.email === change.email;
      default: {
        const unknown: never = change;
        throw new Error(`unknown access change ${JSON.stringify(unknown)}`);
      }
    }
  };

  const unsubscribe = onAccessChange(db, (change) => {
    generation += 1;
    for (const [hash, entry] of entries) if (concerns(entry, change)) entries.delete(hash);
  });

  return {
    get(credentialHash, now) {
      const entry = entries.get(credentialHash);
      if (!entry) return undefined;
      entries.delete(credentialHash);
      if (entry.expiresAt && entry.expiresAt <= now) return undefined;
      entries.set(credentialHash, entry);
      return entry;
    },
    generation: () => generation,
    set(credentialHash, entry, since) {
      if (since !== generation) return;
      entries.delete(credentialHash);
      entries.set(credentialHash, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
    close: () => {
      unsubscribe();
      entries.clear();
    },
  };
}
