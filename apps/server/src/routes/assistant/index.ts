/** Seismo's routes (`POST /api/assistant/generate/stream`, `POST /assistant/generate`). */
import type { Hono } from "hono";
import type { AppDeps } from "../../app";
import type { AppEnv } from "../../http/env";
import type { SeismoDeps } from "../../services/seismo/agent";
import { postGenerate } from "./post-generate";
import { postGenerateStream } from "./post-generate-stream";

export function assistantRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const seismo: SeismoDeps = {
    config: deps.config,
    warehouse: deps.warehouse,
    sandbox: deps.sandbox,
    admission: deps.queryAdmission,
    db: deps.appDatabase.db,
    queryRuns: deps.queryRuns,
    logger: deps.logger,
    clock: deps.clock,
  };
  postGenerateStream(app, seismo);
  postGenerate(app, seismo);
}
