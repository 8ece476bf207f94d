/**
 * Who is signed in, for the whole SPA. On load a stored session is checked with the
 * server (it may have been revoked, or the user taken off the allow-list); sign-out
 * clears the user locally first, then tells the server, ignoring a missing session.
 */
import { endpoints, type SessionTokens, type SessionUser } from "@epicenter/contracts";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import { identify, initAnalytics, resetAnalytics } from "../../lib/analytics";
import { ApiRequestError, call } from "../../lib/api";
import { sessionStore } from "../../lib/session-store";

export type SessionState =
  | { status: "loading" }
  | { status: "signed-out" }
  | { status: "signed-in"; user: SessionUser };

interface SessionContextValue {
  state: SessionState;
  signInWithTokens(tokens: SessionTokens): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const stored = useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
  const [isChecking, setIsChecking] = useState(() => stored !== null);

  useEffect(() => {
    void call(endpoints.clientConfig)
      .then((config) => initAnalytics(config.analytics))
      .catch(() => {});
  }, []);

  // Check the stored session with the server once per page load (and again on every
  // route change, from `RequireSession`).
  useEffect(() => {
    if (!sessionStore.get()) return;
    void recheckSession().finally(() => setIsChecking(false));
  }, []);

  const user = stored?.user;
  useEffect(() => {
    if (user) identify(user);
  }, [user]);

  const signInWithTokens = useCallback((tokens: SessionTokens) => {
    sessionStore.set(sessionStore.fromTokens(tokens));
  }, []);

  const signOut = useCallback(async () => {
    const token = sessionStore.get()?.accessToken;
    sessionStore.set(null);
    resetAnalytics();
    if (!token) return;
    try {
      await call(endpoints.signOut, {}, { bearer: token });
    } catch (error) {
      // Already signed out on the server (401) is what was asked for.
      if (!(error instanceof ApiRequestError && error.status === 401))
        console.error("Sign-out failed on the server", error);
    }
  }, []);

  const state: SessionState = isChecking
    ? { status: "loading" }
    : user
      ? { status: "signed-in", user }
      : { status: "signed-out" };

  const value = useMemo(() => ({ state, signInWithTokens, signOut }), [state, signInWithTokens, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * Asks the server who is signed in and takes its answer: a revoked session signs out, a
 * user taken off the allow-list sees Access Denied. A failure to ask changes nothing.
 */
export async function recheckSession(): Promise<void> {
  if (!sessionStore.get()) return;
  try {
    const { user } = await call(endpoints.getSession);
    sessionStore.setUser(user);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) sessionStore.set(null);
  }
}

export function useSession(): SessionContextValue {
  const context = useContext(SessionContext);
  if (!context) throw new Error("useSession must be used inside a SessionProvider");
  return context;
}

/** The signed-in user; only for components rendered behind `RequireSession`. */
export function useCurrentUser(): SessionUser {
  const { state } = useSession();
  if (state.status !== "signed-in") throw new Error("useCurrentUser needs a signed-in user");
  return state.user;
}
