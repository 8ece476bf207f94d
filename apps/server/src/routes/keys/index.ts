/** The caller's API keys. */
import type { AreaHandlers } from "../../http/mount";
import { deleteKey } from "./delete-key";
import { getKeys } from "./get-keys";
import { postKey } from "./post-key";

export interface KeysRouteDeps {
  keys: Parameters<typeof deleteKey>[0];
}

export function keysRoutes(deps: KeysRouteDeps): AreaHandlers<"listApiKeys" | "createApiKey" | "revokeApiKey"> {
  return {
    listApiKeys: getKeys(deps.keys),
    createApiKey: postKey(deps.keys),
    revokeApiKey: deleteKey(deps.keys),
  };
}
