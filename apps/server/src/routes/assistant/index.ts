/** Seismo, streamed and whole. */
import type { AreaHandlers } from "../../http/mount";
import { postGenerate } from "./post-generate";
import { postGenerateStream } from "./post-generate-stream";

export interface AssistantRouteDeps {
  seismo: Parameters<typeof postGenerateStream>[0];
}

export function assistantRoutes(deps: AssistantRouteDeps): AreaHandlers<"assistantStream" | "assistantGenerate"> {
  return {
    assistantStream: postGenerateStream(deps.seismo),
    assistantGenerate: postGenerate(deps.seismo),
  };
}
