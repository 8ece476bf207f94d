/**
 * The stores the app-database suites run against: PGlite always, and a real PostgreSQL
 * whenever one answers (`DATABASE_URL_TEST`, else 127.0.0.1:5432 database `test`). Each
 * PostgreSQL target gets a database of its own, dropped afterwards, so suites running in
 * parallel never see each other's rows.
 *
 * A fresh PGlite with the migrations takes about 5 s (its initdb), a copy of a migrated
 * one about 0.5 s to open: the suite's global setup builds one template per run
 * (`buildAppDatabaseTemplate`) and each PGlite starts as a copy of it (`seedAppDatabase`).
 * The migrations are still run from nothing by the suites that test them (`fresh: true`).
 */
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openAppDatabase } from "./client";

export interface TestStoreTarget {
  name: "pglite" | "postgres";
  /** Options for `openAppDatabase`; call `cleanup` when done. */
  create(): Promise<{ url?: string; path?: string; cleanup(): Promise<void> }>;
}

const DEFAULT_TEST_URL = "postgres://postgres@127.0.0.1:5432/test";

let announced = false;

/** The environment variable naming the folder of this run's templates (set by the global setup). */
export const TEST_TEMPLATES_ENV = "EPICENTER_TEST_TEMPLATES";

/** Creates and migrates a PGlite database at `path`, then closes it: the template. */
export async function buildAppDatabaseTemplate(path: string): Promise<void> {
  const database = await openAppDatabase({ path });
  await database.close();
}

/**
 * Copies the run's migrated PGlite template to `path` (which must not hold a database
 * yet); true when there was a template to copy. Without one (a file run outside Vitest)
 * `openAppDatabase` builds the database from nothing as it always does.
 */
export function seedAppDatabase(path: string): boolean {
  const root = process.env[TEST_TEMPLATES_ENV];
  const template = root ? join(root, "app") : undefined;
  if (!template || !existsSync(template)) return false;
  cpSync(template, path, { recursive: true });
  return true;
}

/**
 * PGlite (a copy of the run's migrated template unless `fresh`) and PostgreSQL when one
 * answers. `fresh` is for the suites that test the migrations themselves.
 */
export async function appDatabaseTargets(options: { fresh?: boolean } = {}): Promise<TestStoreTarget[]> {
  const targets: TestStoreTarget[] = [{ name: "pglite", create: async () => pgliteTarget(options.fresh ?? false) }];
  const baseUrl = process.env.DATABASE_URL_TEST ?? DEFAULT_TEST_URL;
  if (await answers(baseUrl)) {
    targets.push({ name: "postgres", create: () => postgresTarget(baseUrl) });
  } else if (!announced) {
    announced = true;
    console.log(`app-database suite: no PostgreSQL answers at ${redact(baseUrl)}; running on PGlite only`);
  }
  return targets;
}

function pgliteTarget(fresh: boolean) {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-app-"));
  if (!fresh) seedAppDatabase(join(dir, "app"));
  return {
    path: join(dir, "app"),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(baseUrl: string) {
  const name = `epicenter_test_${randomBytes(6).toString("hex")}`;
  await withClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    cleanup: async () => {
      await withClient(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    await withClient(url, (client) => client.query("SELECT 1"));
    return true;
  } catch {
    return false;
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the configured URL";
  }
}
