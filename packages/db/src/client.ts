/**
 * Opens the app database: embedded PGlite in `DATA_DIR/app` by default, a PostgreSQL
 * server when a connection string is given. Both come back as the same Drizzle handle
 * and both are migrated by the same SQL files in `packages/db/drizzle`, applied at
 * start-up and recorded by Drizzle in `drizzle.__drizzle_migrations`.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

export type AppSchema = typeof schema;
export type AppDb = PgDatabase<PgQueryResultHKT, AppSchema>;

export interface AppDatabase {
  readonly kind: "pglite" | "postgres";
  readonly db: AppDb;
  /** True when the store answers and still holds the app's schema (see `ping` below). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface AppDatabaseOptions {
  /** PostgreSQL connection string; when unset, PGlite at `path`. */
  url?: string;
  /** Directory of the embedded database (`DATA_DIR/app`). */
  path?: string;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "..", "drizzle");

export async function openAppDatabase(options: AppDatabaseOptions): Promise<AppDatabase> {
  if (options.url) return openPostgres(options.url);
  if (!options.path) throw new Error("openAppDatabase needs either a PostgreSQL url or an embedded path");
  return openPglite(options.path);
}

async function openPglite(path: string): Promise<AppDatabase> {
  mkdirSync(path, { recursive: true });
  const client = await PGlite.create(path);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    kind: "pglite",
    db: db as unknown as AppDb,
    ping: () => ping(db as unknown as AppDb),
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<AppDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server must not take the process down with it.
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema });
  await migratePg(db, { migrationsFolder });
  return {
    kind: "postgres",
    db: db as unknown as AppDb,
    ping: () => ping(db as unknown as AppDb),
    close: () => pool.end(),
  };
}

/** Rows of a raw SQL statement; both drivers answer `{ rows }`. */
export async function queryRows<Row>(db: AppDb, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/**
 * Reads from a table of the app's schema rather than `SELECT 1`: a PostgreSQL database
 * that was dropped and re-created empty answers `SELECT 1` while every request of the app
 * fails on a missing relation, and health must not call that healthy (found by the fault
 * suite). Zero rows are read; a missing table is the failure.
 */
async function ping(db: AppDb): Promise<boolean> {
  try {
    await db.execute(sql`SELECT 1 FROM users LIMIT 0`);
    return true;
  } catch {
    return false;
  }
}
