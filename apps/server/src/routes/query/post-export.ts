import { Readable } from "node:stream";
import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type QueryServiceDeps, streamQuery } from "../../services/queries/run-query";

/** Streams a whole result in the engine's own CSV, JSON or Parquet, as a file download. */
export function postExport(deps: QueryServiceDeps): Handler<typeof endpoints.exportQuery> {
  return async ({ body, c }) => {
    const principal = principalOf(c);
    const file = await streamQuery(deps, {
      sql: body.query,
      format: body.format,
      maxRows: body.limit,
      userId: principal.user.id,
      apiKeyId: principal.apiKeyId ?? null,
      origin: principal.via === "api_key" ? "api" : "editor",
      signal: c.req.raw.signal,
      params: body.params,
    });
    const name = `${body.filename ?? "epicenter-query"}.${file.extension}`;
    return new Response(Readable.toWeb(file.stream) as ReadableStream, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      },
    });
  };
}
