/** `POST /assistant/generate`: the same loop as the stream, answered as one JSON document. */
import type { endpoints } from "@epicenter/contracts";
import { HttpError } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { runSeismo, type SeismoDeps, SeismoError } from "../../services/seismo/agent";
import { seismoRequest } from "./seismo-request";

export function postGenerate(deps: SeismoDeps): Handler<typeof endpoints.assistantGenerate> {
  return async ({ body, c }) => {
    const request = seismoRequest(body, c, deps, c.req.raw.signal);
    try {
      return await runSeismo(deps, request, () => {});
    } catch (error) {
      if (!(error instanceof SeismoError)) throw error;
      switch (error.code) {
        case "not_configured":
          throw new HttpError(503, "unavailable", error.message);
        case "provider":
          throw new HttpError(502, "unavailable", error.message);
        case "time_limit":
          throw new HttpError(504, "unavailable", error.message);
        case "aborted":
          // Nobody is listening any more; the status is for the log line.
          throw new HttpError(400, "bad_request", error.message);
        default: {
          const unknown: never = error.code;
          throw new Error(`unknown seismo error ${String(unknown)}`);
        }
      }
    }
  };
}
