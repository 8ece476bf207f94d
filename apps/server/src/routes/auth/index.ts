/** Sign-in by magic link, sessions and sign-out. */
import type { AreaHandlers } from "../../http/mount";
import { getSession } from "./get-session";
import { postMagicLink } from "./post-magic-link";
import { postRefresh } from "./post-refresh";
import { postSignOut } from "./post-sign-out";
import { postVerify } from "./post-verify";

export interface AuthRouteDeps {
  magicLinks: Parameters<typeof postMagicLink>[0];
  access: Parameters<typeof postVerify>[0];
}

export function authRoutes(
  deps: AuthRouteDeps,
): AreaHandlers<"requestMagicLink" | "verifyMagicLink" | "refreshSession" | "getSession" | "signOut"> {
  return {
    requestMagicLink: postMagicLink(deps.magicLinks),
    verifyMagicLink: postVerify(deps.access),
    refreshSession: postRefresh(deps.access),
    getSession: getSession(),
    signOut: postSignOut(deps.access),
  };
}
