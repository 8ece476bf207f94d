/**
 * `POST /api/assistant/generate/stream`: Seismo's answer as server-sent events, each named
 * by its type (SPEC §3). The request is checked before the stream opens, so a bad body or
 * an unconfigured server is an ordinary JSON error; once streaming, a failure is an
 * `error` event with a sentence a person can read. The client going away aborts the
 * model call and any running query; so does a client that stops reading: an event that
 * cannot be written for `IDLE_WRITE_MS` ends the stream. The whole answer is bounded by
 * the agent's own `totalTimeMs`.
 */
import type { AssistantEvent, endpoints } from "@epicenter/contracts";
import { streamSSE } from "hono/streaming";
import type { Handler } from "../../http/mount";
import { runSeismo, type SeismoDeps, SeismoError } from "../../services/seismo/agent";
import { seismoRequest } from "./seismo-request";

/** How long one event may wait for the client to take the previous ones. */
export const IDLE_WRITE_MS = 20_000;

export function postGenerateStream(deps: SeismoDeps): Handler<typeof endpoints.assistantStream> {
  return async ({ body, c }) => {
    const gone = new AbortController();
    const onClientGone = () => gone.abort();
    c.req.raw.signal.addEventListener("abort", onClientGone, { once: true });
    const request = seismoRequest(body, c, deps, gone.signal);
    c.header("cache-control", "no-cache, no-transform");
    c.header("x-accel-buffering", "no");
    return streamSSE(c, async (stream) => {
      stream.onAbort(onClientGone);
      const send = async (event: AssistantEvent) => {
        if (gone.signal.aborted) return;
        let timer: NodeJS.Timeout | undefined;
        const isStalled = await Promise.race([
          stream.writeSSE({ event: event.type, data: JSON.stringify(event) }).then(() => false),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), IDLE_WRITE_MS);
          }),
        ]);
        clearTimeout(timer);
        if (isStalled) {
          c.get("logger").warn("seismo stream stopped: the client stopped reading");
          gone.abort();
          stream.abort();
        }
      };
      try {
        const answer = await runSeismo(deps, request, send);
        await send({ type: "complete", ...answer });
      } catch (error) {
        if (error instanceof SeismoError) {
          const code = error.code;
          if (code !== "aborted") await send({ type: "error", code, message: error.message });
          return;
        }
        c.get("logger").error({ err: error }, "seismo stream failed");
        await send({ type: "error", code: "internal", message: "Seismo failed on our side. It has been logged." });
      } finally {
        c.req.raw.signal.removeEventListener("abort", onClientGone);
      }
    });
  };
}
