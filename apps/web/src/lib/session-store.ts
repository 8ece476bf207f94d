/**
 * The signed-in session, kept in localStorage so a reload keeps the user signed in, and
 * readable outside React (the API client needs the token and a way to refresh it).
 */
import { endpoints, type SessionTokens, type SessionUser, ZSessionTokens } from "@epicenter/contracts";

const STORAGE_KEY = "epicenter.session";

export interface StoredSession {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  user: SessionUser;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: StoredSession | null = read();

function read(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as StoredSession) : null;
  } catch {
    return null;
  }
}

export const sessionStore = {
  get: (): StoredSession | null => current,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(next: StoredSession | null): void {
    current = next;
    if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    else localStorage.removeItem(STORAGE_KEY);
    for (const listener of listeners) listener();
  },
  /** Updates the signed-in user as the server now sees them (taken off the allow-list, made admin). */
  setUser(user: SessionUser): void {
    const session = current;
    if (!session) return;
    if (JSON.stringify(session.user) !== JSON.stringify(user)) this.set({ ...session, user });
  },
  fromTokens(tokens: SessionTokens): StoredSession {
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: tokens.expires_at,
      user: tokens.user,
    };
  },
};

let refreshing: Promise<boolean> | null = null;

/** Trades the refresh token for new tokens, once even when many calls ask at the same time. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const session = sessionStore.get();
    if (!session) return false;
    try {
      const response = await fetch(endpoints.refreshSession.path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ refresh_token: session.refreshToken }),
      });
      if (!response.ok) {
        if (response.status === 401) sessionStore.set(null);
        return false;
      }
      sessionStore.set(sessionStore.fromTokens(ZSessionTokens.parse(await response.json())));
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
