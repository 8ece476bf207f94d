import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import { forbidden } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { type ApiKeyDeps, createKeyForUser } from "../../services/access/api-keys";

export function postKey(deps: Pick<ApiKeyDeps, "db">): Handler<typeof endpoints.createApiKey> {
  return async ({ body, c }) => {
    const { user } = principalOf(c);
    if (body.user_id !== user.id) throw forbidden("You can only create API keys for yourself.");
    return createKeyForUser(deps, user.id, body.name);
  };
}
