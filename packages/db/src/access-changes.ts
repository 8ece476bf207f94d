/**
 * Writes that change what a credential resolves to — a key revoked, a session ended or
 * rotated, an allow-list entry added, promoted or removed — announce themselves here once
 * the statement has returned, so a process that keeps resolved callers in memory forgets
 * them before the next request is looked up. The repositories below call
 * `announceAccessChange`; nothing else needs to.
 *
 * Only writes made through this handle in this process are seen: another process writing
 * to the same PostgreSQL database (the admin CLI, a second server) is not. That is why the
 * server keeps callers in memory only on the embedded app database, which one process
 * owns (ARCHITECTURE.md, "Access").
 */
import type { AppDb } from "./client";

export type AccessChange =
  | { kind: "api_key"; apiKeyId: string }
  | { kind: "session"; sessionId: string }
  | { kind: "allow_list"; email: string };

type Listener = (change: AccessChange) => void;

const listeners = new WeakMap<AppDb, Set<Listener>>();

/** Calls `listener` after every access-changing write on `db`; returns the unsubscribe. */
export function onAccessChange(db: AppDb, listener: Listener): () => void {
  const set = listeners.get(db) ?? new Set<Listener>();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Runs `write` and announces `change` afterwards — also when it failed, since a statement
 * that threw may still have committed, and forgetting a caller too many is harmless.
 */
export async function announcingAccessChange<T>(db: AppDb, change: AccessChange, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    for (const listener of listeners.get(db) ?? []) listener(change);
  }
}
