/** Seismo's routes (`POST /api/assistant/generate/stream`, `POST /assistant/generate`). */
import type { Hono } from "hono";
import type { AppDeps } from "../../app";
import type { AppEnv } from "../../http/env";

export function assistantRoutes(_app: Hono<AppEnv>, _deps: AppDeps): void {}
