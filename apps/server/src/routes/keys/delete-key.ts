import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { type ApiKeyDeps, revokeKeyOf } from "../../services/access/api-keys";

export function deleteKey(deps: ApiKeyDeps): Handler<typeof endpoints.revokeApiKey> {
  return async ({ params, c }) => {
    // Another user's key answers exactly like a key that does not exist.
    if (!(await revokeKeyOf(deps, principalOf(c).user.id, params.id))) {
      throw notFound("You have no API key with that id.");
    }
    return null;
  };
}
