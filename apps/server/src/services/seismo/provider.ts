/**
 * Seismo's model: any OpenAI-compatible chat-completions endpoint (a hosted provider, or a
 * local server such as Ollama or vLLM) through the AI SDK, which speaks the protocol's
 * streaming and tool calls. Nothing here pretends: without a base URL and a model the
 * assistant is "not configured", and the message says exactly how to configure it.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { Config } from "../../config";

export type SeismoConfig = Config["seismo"];

export const NOT_CONFIGURED_MESSAGE =
  "Seismo is not configured on this server. Set SEISMO_BASE_URL to any OpenAI-compatible chat-completions endpoint and SEISMO_MODEL to a model that supports tool calling (plus SEISMO_API_KEY for hosted providers), then restart the server. For a local Ollama: SEISMO_BASE_URL=http://localhost:11434/v1 SEISMO_MODEL=qwen2.5-coder:14b.";

export function isSeismoConfigured(config: SeismoConfig): config is SeismoConfig & { baseUrl: string; model: string } {
  return Boolean(config.baseUrl && config.model);
}

/**
 * The configured model, or undefined when Seismo is not configured. `structuredOutputs`
 * asks the endpoint for answers that follow a JSON schema (`response_format` of type
 * `json_schema`), as the cross-venue adjudicator does.
 */
export function seismoModel(
  config: SeismoConfig,
  options: { structuredOutputs?: boolean } = {},
): LanguageModel | undefined {
  if (!isSeismoConfigured(config)) return undefined;
  const provider = createOpenAICompatible({
    name: "seismo",
    baseURL: config.baseUrl.replace(/\/+$/, ""),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    includeUsage: true,
    ...(options.structuredOutputs ? { supportsStructuredOutputs: true } : {}),
  });
  return provider.chatModel(config.model);
}
