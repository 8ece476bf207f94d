/** What both assistant endpoints share: the checked request and the plain not-configured answer. */
import { ZAssistantRequest } from "@epicenter/contracts";
import type { Context } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { HttpError, readJson } from "../../http/errors";
import type { SeismoDeps, SeismoRequest } from "../../services/seismo/agent";
import { isSeismoConfigured, NOT_CONFIGURED_MESSAGE } from "../../services/seismo/provider";

export async function readSeismoRequest(
  c: Context<AppEnv>,
  deps: SeismoDeps,
  signal: AbortSignal,
): Promise<SeismoRequest> {
  const body = await readJson(c, ZAssistantRequest);
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
