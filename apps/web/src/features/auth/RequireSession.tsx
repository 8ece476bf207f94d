import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { LoadingScreen } from "../../ui/LoadingScreen";
import { AccessDenied } from "./AccessDenied";
import { useSession } from "./session";

/** Guards every page but /login: spinner while loading, /login when signed out, Access Denied when not allowed. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === "loading") return <LoadingScreen isFullScreen />;
  if (state.status === "signed-out") {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  if (!state.user.is_allowed) return <AccessDenied email={state.user.email} />;
  return children;
}
