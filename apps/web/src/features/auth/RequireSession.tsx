import { type ReactNode, useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { LoadingScreen } from "../../ui/LoadingScreen";
import { AccessDenied } from "./AccessDenied";
import { recheckSession, useSession } from "./session";

/**
 * Guards every page but /login: spinner while loading, /login when signed out, Access
 * Denied when not allowed. The allow-list is asked again on every route change (SPEC §5:
 * "done for every guarded route"), and any call refused for it flips the page at once.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  const isSignedIn = state.status === "signed-in";
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per route, not per render
  useEffect(() => {
    if (isSignedIn) void recheckSession();
  }, [location.pathname]);
  if (state.status === "loading") return <LoadingScreen isFullScreen />;
  if (state.status === "signed-out") {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  if (!state.user.is_allowed) return <AccessDenied email={state.user.email} />;
  return children;
}
