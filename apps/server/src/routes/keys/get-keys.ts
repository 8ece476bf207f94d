import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type ApiKeyDeps, listKeysOf } from "../../services/access/api-keys";

export function getKeys(deps: Pick<ApiKeyDeps, "db">): Handler<typeof endpoints.listApiKeys> {
  return async ({ c }) => ({ keys: await listKeysOf(deps, principalOf(c).user.id) });
}
