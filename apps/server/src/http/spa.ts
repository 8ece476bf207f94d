/**
 * Serves the built SPA on the API's origin. Hashed assets are cached for a year; every
 * other GET that is not an API path answers `index.html`, so client-side routes survive a
 * reload (history-API fallback).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Hono } from "hono";
import type { AppEnv } from "./env";

export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path === "/health" || path.startsWith("/assistant/");
}

export function serveSpa(app: Hono<AppEnv>, webRoot: string): void {
  const indexPath = join(webRoot, "index.html");
  if (!existsSync(indexPath)) return;
  // Re-read when the file changes, so a rebuild in place never serves pages that point at
  // hashed assets which no longer exist.
  let cached = { mtimeMs: -1, html: "" };
  const indexHtml = () => {
    const { mtimeMs } = statSync(indexPath);
    if (mtimeMs !== cached.mtimeMs) cached = { mtimeMs, html: readFileSync(indexPath, "utf8") };
    return cached.html;
  };
  const root = relative(process.cwd(), webRoot) || ".";

  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set("cache-control", "public, max-age=31536000, immutable");
  });
  app.use("/assets/*", serveStatic({ root }));
  app.use("*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    if (isApiPath(c.req.path) || c.req.path.startsWith("/assets/")) return next();
    return serveStatic({ root })(c, async () => {
      c.header("cache-control", "no-cache");
      c.res = c.html(indexHtml());
    });
  });
}
