/**
 * Seismo's calls from the page: the event stream (a POST with a bearer token, so read with
 * `fetch` rather than EventSource) and running a SQL block through `POST /api/query`.
 */
import { type AssistantEvent, type AssistantRequest, endpoints } from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { ApiRequestError, call, callEvents } from "../../lib/api";

export class SeismoUnavailableError extends Error {}

/** Streams Seismo's events into `onEvent`; resolves when the stream ends. */
export async function streamAssistant(
  body: AssistantRequest,
  onEvent: (event: AssistantEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  try {
    await callEvents(endpoints.assistantStream, { body }, onEvent, { signal });
  } catch (error) {
    // Not configured on this server: the page says so, with the server's words on how.
    if (error instanceof ApiRequestError && error.status === 503) throw new SeismoUnavailableError(error.message);
    throw error;
  }
}

export const runSql = (sql: string, signal?: AbortSignal) =>
  call(endpoints.runQueryRows, { body: { query: sql, limit: 100 } }, { signal });

export function useSeismoConfigured(): boolean | undefined {
  const { data } = useQuery({
    queryKey: ["client-config"],
    queryFn: ({ signal }) => call(endpoints.clientConfig, {}, { signal }),
    staleTime: 5 * 60_000,
  });
  return data?.seismo_configured;
}
