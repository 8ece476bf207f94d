/**
 * ClickHouse HTTP sessions (`session_id`), as far as a read-only interface keeps them: the
 * settings a client `SET`s in a session apply to that session's later requests, until it
 * has been idle for its `session_timeout` (60 s by default, as ClickHouse's; at most an
 * hour). A session belongs to the caller that opened it (its key, or its user): another
 * caller with the same id has a session of its own. Temporary tables are not kept; the
 * statement check says so. In memory: a restart ends every session, as it does ClickHouse's.
 */
import type { Clock } from "@epicenter/ingest";
import { refuse } from "./protocol";

export const DEFAULT_SESSION_TIMEOUT_SECONDS = 60;
export const MAX_SESSION_TIMEOUT_SECONDS = 3_600;
/** Past this many live sessions, the one idle longest is ended first. */
const MAX_SESSIONS = 10_000;
/** ClickHouse's clients send UUIDs or short names. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

interface Session {
  settings: Map<string, string>;
  timeoutMs: number;
  lastUsed: number;
}

export interface SessionStore {
  /** The session's settings, or undefined when there is no such live session; a read keeps it alive. */
  settings(owner: string, id: string, timeoutSeconds?: number): ReadonlyMap<string, string> | undefined;
  /** Sets `settings` in the session, opening it when it is not live. */
  set(owner: string, id: string, settings: ReadonlyArray<readonly [string, string]>, timeoutSeconds?: number): void;
}

export function createSessionStore(clock: Clock = () => new Date()): SessionStore {
  const sessions = new Map<string, Session>();
  const keyOf = (owner: string, id: string) => `${owner}\u0000${id}`;
  const live = (key: string, now: number): Session | undefined => {
    const session = sessions.get(key);
    if (session && now - session.lastUsed > session.timeoutMs) {
      sessions.delete(key);
      return undefined;
    }
    return session;
  };
  const touch = (key: string, session: Session, now: number, timeoutSeconds: number | undefined) => {
    session.lastUsed = now;
    if (timeoutSeconds !== undefined) session.timeoutMs = timeoutSeconds * 1000;
    // Map order is use order: the first entry is the one idle longest.
    sessions.delete(key);
    sessions.set(key, session);
  };
  return {
    settings(owner, id, timeoutSeconds) {
      const now = clock().getTime();
      const key = keyOf(owner, id);
      const session = live(key, now);
      if (!session) return undefined;
      touch(key, session, now, timeoutSeconds);
      return session.settings;
    },
    set(owner, id, settings, timeoutSeconds) {
      const now = clock().getTime();
      const key = keyOf(owner, id);
      const session = live(key, now) ?? {
        settings: new Map<string, string>(),
        timeoutMs: (timeoutSeconds ?? DEFAULT_SESSION_TIMEOUT_SECONDS) * 1000,
        lastUsed: now,
      };
      for (const [name, value] of settings) session.settings.set(name, value);
      touch(key, session, now, timeoutSeconds);
      while (sessions.size > MAX_SESSIONS) {
        const [oldest] = sessions.keys();
        if (oldest === undefined) break;
        sessions.delete(oldest);
      }
    },
  };
}

/**
 * The caller's session, when the request names one: its settings so far (none for a new
 * one), or a failure when `session_check=1` asks for a session that is not live, or the id
 * or timeout cannot be used.
 */
export function sessionOf(
  parameters: Map<string, string>,
  principal: { userId: string; apiKeyId?: string | null },
  sessions: SessionStore,
):
  | { owner: string; id: string; timeoutSeconds: number | undefined; settings: ReadonlyMap<string, string> | undefined }
  | undefined {
  const id = parameters.get("session_id");
  if (id === undefined || id === "") return undefined;
  if (!SESSION_ID.test(id)) {
    refuse(400, 36, "BAD_ARGUMENTS", "session_id must be 1 to 128 printable ASCII characters without spaces");
  }
  const timeout = parameters.get("session_timeout");
  const timeoutSeconds = timeout === undefined || timeout === "" ? undefined : Number(timeout);
  if (
    timeoutSeconds !== undefined &&
    !(Number.isInteger(timeoutSeconds) && timeoutSeconds > 0 && timeoutSeconds <= MAX_SESSION_TIMEOUT_SECONDS)
  ) {
    refuse(
      400,
      36,
      "BAD_ARGUMENTS",
      `session_timeout must be a whole number of seconds from 1 to ${MAX_SESSION_TIMEOUT_SECONDS}; got ${timeout}`,
    );
  }
  const owner = principal.apiKeyId ?? principal.userId;
  const settings = sessions.settings(owner, id, timeoutSeconds);
  if (!settings && parameters.get("session_check") === "1") {
    refuse(
      404,
      372,
      "SESSION_NOT_FOUND",
      `Session ${id} not found (sessions end after being idle for their session_timeout)`,
    );
  }
  return { owner, id, timeoutSeconds, settings };
}
