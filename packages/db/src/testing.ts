/**
 * The stores the app-database suites run against: PGlite always, and a real PostgreSQL
 * whenever one answers (`DATABASE_URL_TEST`, else 127.0.0.1:5432 database `test`). Each
 * PostgreSQL target gets a database of its own, dropped afterwards, so suites running in
 * parallel never see each other's rows.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface TestStoreTarget {
  name: "pglite" | "postgres";
  /** Options for `openAppDatabase`; call `cleanup` when done. */
  create(): Promise<{ url?: string; path?: string; cleanup(): Promise<void> }>;
}

const DEFAULT_TEST_URL = "postgres://postgres@127.0.0.1:5432/test";

let announced = false;

export async function appDatabaseTargets(): Promise<TestStoreTarget[]> {
  const targets: TestStoreTarget[] = [{ name: "pglite", create: async () => pgliteTarget() }];
  const baseUrl = process.env.DATABASE_URL_TEST ?? DEFAULT_TEST_URL;
  if (await answers(baseUrl)) {
    targets.push({ name: "postgres", create: () => postgresTarget(baseUrl) });
  } else if (!announced) {
    announced = true;
    console.log(`app-database suite: no PostgreSQL answers at ${redact(baseUrl)}; running on PGlite only`);
  }
  return targets;
}

function pgliteTarget() {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-app-"));
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
