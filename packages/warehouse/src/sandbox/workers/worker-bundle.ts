/**
 * The sandbox worker as one plain JavaScript file. A worker started through tsx compiles
 * its TypeScript at every start (it runs confined, with nowhere to keep tsx's cache),
 * which cost each of the pool's starts about a second of a core. The pool bundles
 * `worker.ts` and the frame codec once when it opens, into its own work directory, and
 * every worker runs that file with plain node. The bundle keeps `chdb` as an import of
 * its installed absolute path, so a worker sees chDB's folder and the bundle, nothing else
 * of the project.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
const WORKER_SOURCE = join(dirname(fileURLToPath(import.meta.url)), "worker.ts");

/** The node_modules folder chDB was installed in: what a worker must be able to read. */
export const CHDB_MODULES = dirname(dirname(require.resolve("chdb/package.json")));

/** Writes the worker bundle into `directory` and returns its path. */
export async function bundleWorker(directory: string): Promise<string> {
  const outfile = join(directory, "worker.mjs");
  const chdb = pathToFileURL(require.resolve("chdb")).href;
  await build({
    entryPoints: [WORKER_SOURCE],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    logLevel: "silent",
    plugins: [
      {
        name: "chdb-by-path",
        setup(plugin) {
          plugin.onResolve({ filter: /^chdb$/ }, () => ({ path: chdb, external: true }));
        },
      },
    ],
  });
  return outfile;
}
