/**
 * The product server a browser test drives. The global setup starts one per lane, each
 * on its own copy of the seeded archive with its own replay and model; Vitest runs one
 * test file per lane at a time, and a file's worker number (`VITEST_POOL_ID`, unique
 * among the files running) names its lane, so no two files ever share a server at once.
 */
import { inject } from "vitest";

export interface E2eServer {
  baseUrl: string;
  dataDir: string;
  /** Base URL of the fake model server; its control endpoints are `/__script` and `/__requests`. */
  seismoLlmUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2eServers: E2eServer[];
  }
}

/** The server of this test file's lane. */
export function e2eServer(): E2eServer {
  const servers = inject("e2eServers");
  const lane = Number(process.env.VITEST_POOL_ID ?? "1") - 1;
  const server = servers[lane];
  if (!server) throw new Error(`no e2e server for worker ${lane + 1} of ${servers.length}`);
  return server;
}
