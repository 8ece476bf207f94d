import { Readable } from "node:stream";
import { endpoints, ZExportQueryRequest } from "@epicenter/contracts";
import { streamUserQuery } from "@epicenter/warehouse";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { readJson } from "../../http/errors";
import { mount } from "../../http/mount";
import { queryHttpError } from "../../http/query-errors";
import type { QueryServiceDeps } from "../../services/queries/run-query";

/** Streams a whole result in the engine's own CSV, JSON or Parquet, as a file download. */
export function postExport(app: Hono<AppEnv>, deps: QueryServiceDeps): void {
  mount(app, endpoints.exportQuery, async (c) => {
    const body = await readJson(c, ZExportQueryRequest);
    const principal = principalOf(c);
    const started = deps.clock();
    try {
      // Admitted for as long as it takes the engine to produce the first block.
      const file = await deps.admission.run(() =>
        streamUserQuery(deps.sandbox, body.query, {
          format: body.format,
          maxRows: body.limit,
          signal: c.req.raw.signal,
        }),
      );
      const name = `${body.filename ?? "epicenter-query"}.${file.extension}`;
      // Recorded once the download has started; its row count is not known up front.
      deps.queryRuns.record({
        queryId: null,
        userId: principal.user.id,
        apiKeyId: principal.apiKeyId ?? null,
        origin: principal.via === "api_key" ? "api" : "editor",
        sql: body.query,
        startedAt: started,
        durationMs: Date.now() - started.getTime(),
        rowCount: 0,
        error: null,
      });
      return new Response(Readable.toWeb(file.stream) as ReadableStream, {
        headers: {
          "content-type": file.contentType,
          "content-disposition": `attachment; filename="${name}"`,
          "cache-control": "no-store",
        },
      });
    } catch (error) {
      throw queryHttpError(error);
    }
  });
}
