/**
 * Seismo's calls from the page: the event stream (fetch + our SSE parser, since the
 * stream is a POST with a bearer token) and running a SQL block through `POST /api/query`.
 */
import {
  type AssistantEvent,
  type AssistantMode,
  type ConversationMessage,
  ZApiError,
  ZAssistantEvent,
  ZClientConfig,
  ZRunQueryResponse,
} from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { ApiRequestError, apiRequest } from "../../lib/api";
import { refreshSession, sessionStore } from "../../lib/session-store";
import { createSseParser } from "./sse";

export class SeismoUnavailableError extends Error {}

export interface StreamRequest {
  message: string;
  mode: AssistantMode;
  conversation_history: ConversationMessage[];
}

async function post(body: StreamRequest, signal: AbortSignal): Promise<Response> {
  const token = sessionStore.get()?.accessToken;
  return fetch("/api/assistant/generate/stream", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal,
  });
}

/** Streams Seismo's events into `onEvent`; resolves when the stream ends. */
export async function streamAssistant(
  body: StreamRequest,
  onEvent: (event: AssistantEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let response = await post(body, signal);
  if (response.status === 401 && sessionStore.get() && (await refreshSession())) response = await post(body, signal);
  if (!response.ok) {
    const parsed = ZApiError.safeParse(await response.json().catch(() => null));
    const message = parsed.success ? parsed.data.error.message : `The server answered ${response.status}.`;
    if (response.status === 503) throw new SeismoUnavailableError(message);
    throw new ApiRequestError(response.status, parsed.success ? parsed.data.error.code : "internal", message);
  }
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new Error("The server sent no stream.");
  const parser = createSseParser(({ data }) => {
    const parsed = ZAssistantEvent.safeParse(JSON.parse(data));
    if (parsed.success) onEvent(parsed.data);
  });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  parser.end();
}

export const runSql = (sql: string, signal?: AbortSignal) =>
  apiRequest("/api/query", ZRunQueryResponse, {
    method: "POST",
    body: { query: sql, limit: 100 },
    ...(signal ? { signal } : {}),
  });

export function useSeismoConfigured(): boolean | undefined {
  const { data } = useQuery({
    queryKey: ["client-config"],
    queryFn: () => apiRequest("/api/config", ZClientConfig),
    staleTime: 5 * 60_000,
  });
  return data?.seismo_configured;
}

/** The editor's prefill contract. */
export function editorUrl(sql: string, title: string): string {
  return `/queries/new?sql=${encodeURIComponent(sql)}&title=${encodeURIComponent(title)}`;
}
