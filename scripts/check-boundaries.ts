/**
 * The dependency rule of DESIGN.md, checked on every lint:
 * - apps import packages; packages never import apps;
 * - the web app imports only `@epicenter/contracts` from the packages;
 * - `@epicenter/contracts` imports only zod;
 * - an ingest source never imports the frame that runs it (`packages/ingest/src/sync`);
 * - a route holds no store logic: from the store packages (`@epicenter/warehouse`, `db`,
 *   `ingest`, drizzle) it imports types only; what it runs is a service's;
 * - a service knows no HTTP: it imports neither hono nor `apps/server/src/http`, and says
 *   what went wrong with `services/errors.ts`, which one handler maps to statuses.
 * Exits non-zero with one line per offending import.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const importPattern = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

interface Rule {
  folder: string;
  /** `statement` is the whole import, to tell `import type` from one of values. */
  allows(specifier: string, file: string, statement: string): boolean;
  why: string;
}

const STORES = /^(@epicenter\/(warehouse|db|ingest)|drizzle-orm)(\/|$)/;

const rules: Rule[] = [
  {
    folder: "packages",
    allows: (specifier, file) =>
      !specifier.startsWith("@epicenter/server") &&
      !specifier.startsWith("@epicenter/web") &&
      !resolve(file, "..", specifier).startsWith(join(root, "apps")),
    why: "packages never import apps",
  },
  {
    folder: "packages/contracts",
    allows: (specifier) => specifier === "zod" || specifier.startsWith("."),
    why: "contracts imports only zod",
  },
  {
    folder: "packages/ingest/src/sources",
    allows: (specifier, file) => !resolve(file, "..", specifier).startsWith(join(root, "packages/ingest/src/sync")),
    why: "a source knows the frame only through packages/ingest/src/source.ts",
  },
  {
    folder: "apps/server/src/routes",
    allows: (specifier, file, statement) =>
      /\.test\.ts$/.test(file) || !STORES.test(specifier) || /^\s*(import|export)\s+type\b/.test(statement),
    why: "a route holds no store logic: import the store packages' types only, and call a service",
  },
  {
    folder: "apps/server/src/services",
    allows: (specifier, file) =>
      /\.test\.ts$/.test(file) ||
      !(
        specifier === "hono" ||
        specifier.startsWith("hono/") ||
        resolve(file, "..", specifier).startsWith(join(root, "apps/server/src/http"))
      ),
    why: "a service knows no HTTP: throw a ServiceError (services/errors.ts) instead",
  },
  {
    folder: "apps/web/src",
    allows: (specifier) => !specifier.startsWith("@epicenter/") || specifier === "@epicenter/contracts",
    why: "the web app imports only @epicenter/contracts from the packages",
  },
];

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder)) {
    if (entry === "node_modules" || entry === "dist" || entry === "drizzle") continue;
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(entry)) yield path;
  }
}

const problems: string[] = [];
for (const rule of rules) {
  for (const file of sourceFiles(join(root, rule.folder))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      if (!specifier || (specifier.startsWith("node:") && rule.folder !== "packages/contracts")) continue;
      if (!rule.allows(specifier, file, match[0]))
        problems.push(`${relative(root, file)}: imports "${specifier}" (${rule.why})`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("boundaries: ok");
