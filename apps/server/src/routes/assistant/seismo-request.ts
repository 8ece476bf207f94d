/** What both assistant endpoints share: the checked request and the plain not-configured answer. */
import type { ZAssistantRequest } from "@epicenter/contracts";
import type { Context } from "hono";
import type { z } from "zod";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { HttpError } from "../../http/errors";
import type { SeismoDeps, SeismoRequest } from "../../services/seismo/agent";
import { isSeismoConfigured, NOT_CONFIGURED_MESSAGE } from "../../services/seismo/provider";

export function seismoRequest(
  body: z.output<typeof ZAssistantRequest>,
  c: Context<AppEnv>,
  deps: SeismoDeps,
  signal: AbortSignal,
): SeismoRequest {
  if (!isSeismoConfigured(deps.config.seismo)) throw new HttpError(503, "unavailable", NOT_CONFIGURED_MESSAGE);
  const principal = principalOf(c);
  return {
    message: body.message,
    mode: body.mode,
    history: body.conversation_history,
    userId: principal.user.id,
    apiKeyId: principal.apiKeyId ?? null,
    signal,
  };
}
