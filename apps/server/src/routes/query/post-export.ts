import { Readable } from "node:stream";
import { endpoints, ZExportQueryRequest } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { readJson } from "../../http/errors";
import { mount } from "../../http/mount";
import { queryHttpError } from "../../http/query-errors";
import { ownerOf, type QueryServiceDeps, runErrorText } from "../../services/queries/run-query";

/**
 * Streams a whole result in the engine's own CSV, JSON or Parquet, as a file download.
 * The run is recorded when the download ends, with the rows written and whatever cut it
 * short (the reader went away, it stalled, the time limit).
 */
export function postExport(app: Hono<AppEnv>, deps: QueryServiceDeps): void {
  mount(app, endpoints.exportQuery, async (c) => {
    const body = await readJson(c, ZExportQueryRequest);
    const principal = principalOf(c);
    const startedAt = deps.clock();
    const started = performance.now();
    const who = { userId: principal.user.id, apiKeyId: principal.apiKeyId ?? null };
    const owner = ownerOf(who);
    const record = (rowCount: number, error: unknown) =>
      deps.queryRuns.record({
        queryId: null,
        ...who,
        origin: principal.via === "api_key" ? "api" : "editor",
        sql: body.query,
        startedAt,
        durationMs: Math.round(performance.now() - started),
        rowCount,
        error: error ? runErrorText(error) : null,
      });
    try {
      // Admitted for as long as it takes the engine to produce the first chunk; the
      // sandbox's fair share holds the session until the download ends.
      const file = await deps.admission.run(owner, () =>
        deps.sandbox.stream(body.query, {
          format: body.format,
          maxRows: body.limit,
          owner,
          signal: c.req.raw.signal,
        }),
      );
      void file.finished.then(({ rows, error }) => record(rows ?? 0, error));
      const name = `${body.filename ?? "epicenter-query"}.${file.extension}`;
      return new Response(Readable.toWeb(file.stream) as ReadableStream, {
        headers: {
          "content-type": file.contentType,
          "content-disposition": `attachment; filename="${name}"`,
          "cache-control": "no-store",
        },
      });
    } catch (error) {
      record(0, error);
      throw queryHttpError(error);
    }
  });
}
