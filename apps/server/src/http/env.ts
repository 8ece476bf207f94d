import type { EndpointAuth } from "@epicenter/contracts";
import type { Context } from "hono";
import type { Logger } from "pino";
import type { Principal } from "../services/access/principal";

/** Per-request values every handler can read with `c.get(…)`. */
export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    /** The caller behind the request's credential, resolved at most once (set by the access layer). */
    resolvePrincipal: () => Promise<Principal | undefined>;
    /** Checks the caller against an endpoint's auth level; throws 401/403 (set by the access layer). */
    authorize?: (
      c: Context<AppEnv>,
      level: Exclude<EndpointAuth, "public">,
      unauthenticatedMessage?: string,
    ) => Promise<void>;
    /** The authorized caller, once `authorize` passed. */
    principal?: Principal;
  };
}
