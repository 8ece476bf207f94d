/**
 * ClickHouse HTTP sessions (`session_id`), as far as a read-only interface keeps them: the
 * settings a client `SET`s in a session apply to that session's later requests, until it
 * has been idle for its `session_timeout` (60 s by default, as ClickHouse's; at most an
 * hour). A session belongs to the caller that opened it (its key, or its user): another
 * caller with the same id has a session of its own. Temporary tables are not kept; the
 * statement check says so. In memory: a restart ends every session, as it does ClickHouse's.
 *
 * What one key keeps is bounded (`SESSION_LIMITS`: sessions, settings per session, bytes
 * per value, bytes over all its sessions), and a `SET` past a bound is refused whole,
 * naming the bound: a key sending `SET param_<n> = '<95 KB>'` with a new name each time
 * grew this process by a third of a gigabyte in 3,000 requests. Over all keys, the store
 * holds at most `MAX_SESSIONS` sessions and `MAX_STORED_BYTES`, ending the ones idle
 * longest first, since keys are not counted per user.
 */
import type { Clock } from "@epicenter/ingest";
import { refuse } from "./protocol";

export const DEFAULT_SESSION_TIMEOUT_SECONDS = 60;
export const MAX_SESSION_TIMEOUT_SECONDS = 3_600;
/** What one key's sessions may keep. Clients SET a handful of short settings; these leave room for parameters. */
export const SESSION_LIMITS = {
  /** Live sessions holding settings. */
  sessionsPerKey: 32,
  /** Setting names (parameters included) in one session. */
  settingsPerSession: 64,
  /** UTF-8 bytes of one value. */
  valueBytes: 64 * 1024,
  /** UTF-8 bytes of names and values over all the key's sessions. */
  bytesPerKey: 1024 * 1024,
} as const;
/** Past this many live sessions over all keys, the one idle longest is ended first. */
const MAX_SESSIONS = 10_000;
/** Past this many bytes kept over all keys, likewise. */
const MAX_STORED_BYTES = 64 * 1024 * 1024;
/** ClickHouse's clients send UUIDs or short names. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

interface Session {
  owner: string;
  id: string;
  settings: Map<string, string>;
  /** UTF-8 bytes of its names and values. */
  bytes: number;
  timeoutMs: number;
  lastUsed: number;
}

/** One key's sessions, with what they hold together. */
interface Owner {
  sessions: Map<string, Session>;
  bytes: number;
}

export interface SessionStore {
  /** The session's settings, or undefined when there is no such live session; a read keeps it alive. */
  settings(owner: string, id: string, timeoutSeconds?: number): ReadonlyMap<string, string> | undefined;
  /**
   * Sets `settings` in the session, opening it when it is not live; refuses (LIMIT_EXCEEDED)
   * and keeps nothing of them when that would pass one of `SESSION_LIMITS`.
   */
  set(owner: string, id: string, settings: ReadonlyArray<readonly [string, string]>, timeoutSeconds?: number): void;
}

const LIMIT_EXCEEDED = 290;
const sizeOf = (name: string, value: string) => Buffer.byteLength(name) + Buffer.byteLength(value);

export function createSessionStore(clock: Clock = () => new Date()): SessionStore {
  // Map order is use order: the first entry is the one idle longest.
  const sessions = new Map<string, Session>();
  const owners = new Map<string, Owner>();
  let storedBytes = 0;
  const keyOf = (owner: string, id: string) => `${owner}\u0000${id}`;
  const isExpired = (session: Session, now: number) => now - session.lastUsed > session.timeoutMs;
  const end = (session: Session) => {
    sessions.delete(keyOf(session.owner, session.id));
    const owner = owners.get(session.owner);
    if (owner) {
      owner.sessions.delete(session.id);
      owner.bytes -= session.bytes;
      if (owner.sessions.size === 0) owners.delete(session.owner);
    }
    storedBytes -= session.bytes;
  };
  const live = (owner: string, id: string, now: number): Session | undefined => {
    const session = sessions.get(keyOf(owner, id));
    if (session && isExpired(session, now)) {
      end(session);
      return undefined;
    }
    return session;
  };
  const touch = (session: Session, now: number, timeoutSeconds: number | undefined) => {
    session.lastUsed = now;
    if (timeoutSeconds !== undefined) session.timeoutMs = timeoutSeconds * 1000;
    const key = keyOf(session.owner, session.id);
    sessions.delete(key);
    sessions.set(key, session);
  };
  return {
    settings(owner, id, timeoutSeconds) {
      const now = clock().getTime();
      const session = live(owner, id, now);
      if (!session) return undefined;
      touch(session, now, timeoutSeconds);
      return session.settings;
    },
    set(ownerName, id, settings, timeoutSeconds) {
      const now = clock().getTime();
      // A key's expired sessions count against none of its bounds (at most 32 to look at).
      for (const session of [...(owners.get(ownerName)?.sessions.values() ?? [])]) {
        if (isExpired(session, now)) end(session);
      }
      const existing = live(ownerName, id, now);
      const owner = owners.get(ownerName) ?? { sessions: new Map<string, Session>(), bytes: 0 };
      if (!existing && owner.sessions.size >= SESSION_LIMITS.sessionsPerKey) {
        refuse(
          400,
          LIMIT_EXCEEDED,
          "LIMIT_EXCEEDED",
          `This key already keeps ${SESSION_LIMITS.sessionsPerKey} sessions with settings, the most it may: SET in one of them, or wait for one to end (a session ends after being idle for its session_timeout)`,
        );
      }
      const next = new Map(existing?.settings);
      for (const [name, value] of settings) {
        const bytes = Buffer.byteLength(value);
        if (bytes > SESSION_LIMITS.valueBytes) {
          refuse(
            400,
            LIMIT_EXCEEDED,
            "LIMIT_EXCEEDED",
            `The value of ${name} is ${bytes} bytes; a session keeps values of at most ${SESSION_LIMITS.valueBytes} bytes`,
          );
        }
        next.set(name, value);
      }
      if (next.size > SESSION_LIMITS.settingsPerSession) {
        refuse(
          400,
          LIMIT_EXCEEDED,
          "LIMIT_EXCEEDED",
          `A session keeps at most ${SESSION_LIMITS.settingsPerSession} settings (parameters included); this SET would make ${next.size} in session ${id}`,
        );
      }
      let bytes = 0;
      for (const [name, value] of next) bytes += sizeOf(name, value);
      const ownerBytes = owner.bytes - (existing?.bytes ?? 0) + bytes;
      if (ownerBytes > SESSION_LIMITS.bytesPerKey) {
        refuse(
          400,
          LIMIT_EXCEEDED,
          "LIMIT_EXCEEDED",
          `The sessions of one key keep at most ${SESSION_LIMITS.bytesPerKey} bytes of settings; this SET would make ${ownerBytes}. End sessions you no longer use, or bind large values in the request (param_<name> in the URL or a form) instead`,
        );
      }
      const session: Session = existing ?? {
        owner: ownerName,
        id,
        settings: next,
        bytes: 0,
        timeoutMs: (timeoutSeconds ?? DEFAULT_SESSION_TIMEOUT_SECONDS) * 1000,
        lastUsed: now,
      };
      session.settings = next;
      owner.bytes += bytes - session.bytes;
      storedBytes += bytes - session.bytes;
      session.bytes = bytes;
      owner.sessions.set(id, session);
      owners.set(ownerName, owner);
      touch(session, now, timeoutSeconds);
      while (sessions.size > MAX_SESSIONS || storedBytes > MAX_STORED_BYTES) {
        const [oldest] = sessions.values();
        if (oldest === undefined || oldest === session) break;
        end(oldest);
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
