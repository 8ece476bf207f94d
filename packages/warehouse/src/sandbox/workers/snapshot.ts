/**
 * Snapshots of the market tables for the sandbox workers.
 *
 * chDB admits one process per data directory, so a worker cannot open the warehouse
 * itself; and attaching the live table directories from a second engine is not safe
 * (measured: the second engine's start-up removed the writer's in-flight `tmp_insert_*`
 * directory and broke its insert, even on a disk declared read-only). Instead the writer
 * freezes each market table (`ALTER TABLE … FREEZE WITH NAME`), which hard-links its
 * active parts under `shadow/<name>/` in milliseconds and without copying data; parts are
 * immutable, so the links are a consistent, private copy that later merges and deletes
 * by the writer cannot disturb. A worker then starts on a directory of its own whose
 * metadata attaches those tables (same UUIDs, so the same relative paths) from a disk
 * rooted at the snapshot. The metadata files are written here, as the engine itself
 * writes them, so the worker never needs the right to run DDL.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Warehouse } from "../../client";
import { quoteString } from "../../ddl";

export interface SnapshotTable {
  database: string;
  name: string;
  uuid: string;
  /** `(columns…) ENGINE = …` as the engine prints it, without the `CREATE TABLE db.name` head. */
  definition: string;
  engineFull: string;
}

/** A view of the catalogue (`catalog-views.ts`): no data, only its definition. */
export interface SnapshotView {
  database: string;
  name: string;
  uuid: string;
  /** `(columns…) AS SELECT …` as the engine prints it, without the `CREATE VIEW db.name` head. */
  definition: string;
}

export interface Snapshot {
  name: string;
  /** `<warehouse>/shadow/<name>/`: the disk the worker's tables read from. */
  directory: string;
  tables: SnapshotTable[];
  views: SnapshotView[];
  /** The warehouse's write count when the snapshot was taken. */
  writes: number;
  /** When it was taken (ms since the epoch). */
  takenAt: number;
}

export const SNAPSHOT_PREFIX = "epicenter_sandbox_";
const SAFE_NAME = /^[A-Za-z0-9_]+$/;

/**
 * Freezes every MergeTree-family table of `databases` under one snapshot name, and reads
 * the definitions of the views of `viewDatabases` (the catalogue views), which hold no data.
 */
export async function takeSnapshot(
  warehouse: Warehouse,
  warehousePath: string,
  databases: readonly string[],
  viewDatabases: readonly string[] = [],
): Promise<Snapshot> {
  const writesBefore = warehouse.writes;
  const takenAt = Date.now();
  const name = `${SNAPSHOT_PREFIX}${takenAt}_${randomUUID().slice(0, 8)}`;
  const rows = await warehouse.query<{
    database: string;
    name: string;
    uuid: string;
    engine_full: string;
    create_table_query: string;
  }>(
    `SELECT database, name, toString(uuid) AS uuid, engine_full, create_table_query
     FROM system.tables
     WHERE database IN {databases:Array(String)} AND engine LIKE '%MergeTree' AND NOT is_temporary
     ORDER BY database, name`,
    { params: { databases } },
  );
  const directory = join(warehousePath, "shadow", name);
  const tables: SnapshotTable[] = [];
  try {
    for (const row of rows) {
      if (!SAFE_NAME.test(row.database) || !SAFE_NAME.test(row.name)) continue;
      await warehouse.command(`ALTER TABLE ${row.database}.${row.name} FREEZE WITH NAME ${quoteString(name)}`);
      // A table with no parts freezes nothing; its directory must exist all the same, and
      // the engine insists on a `detached/` folder, which it cannot make on a read-only mount.
      const tableDir = join(directory, tableDirectory(row.uuid));
      await mkdir(join(tableDir, "detached"), { recursive: true });
      // …and on the format marker of the table directory, which FREEZE does not copy.
      await writeFile(join(tableDir, "format_version.txt"), "1");
      tables.push({
        database: row.database,
        name: row.name,
        uuid: row.uuid,
        definition: definitionOf(row.create_table_query, row.database, row.name, row.engine_full),
        engineFull: row.engine_full,
      });
    }
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const views = await snapshotViews(warehouse, viewDatabases);
  // FREEZE is a command, so it counts as a write; the snapshot is as fresh as the last
  // write before it unless someone else wrote meanwhile.
  const writesAfter = warehouse.writes;
  const writes = writesAfter - writesBefore === tables.length ? writesAfter : writesBefore;
  return { name, directory, tables, views, writes, takenAt };
}

async function snapshotViews(warehouse: Warehouse, databases: readonly string[]): Promise<SnapshotView[]> {
  if (databases.length === 0) return [];
  const rows = await warehouse.query<{ database: string; name: string; uuid: string; create_table_query: string }>(
    `SELECT database, name, toString(uuid) AS uuid, create_table_query
     FROM system.tables
     WHERE database IN {databases:Array(String)} AND engine = 'View'
     ORDER BY database, name`,
    { params: { databases } },
  );
  return rows
    .filter((row) => SAFE_NAME.test(row.database) && SAFE_NAME.test(row.name))
    .map((row) => {
      const head = `CREATE VIEW ${row.database}.${row.name} `;
      if (!row.create_table_query.startsWith(head)) {
        throw new Error(`cannot read the definition of ${row.database}.${row.name}`);
      }
      return { ...row, definition: row.create_table_query.slice(head.length) };
    });
}

export async function dropSnapshot(snapshot: Pick<Snapshot, "directory">): Promise<void> {
  await rm(snapshot.directory, { recursive: true, force: true });
}

/**
 * Removes snapshots left behind by a process that did not stop cleanly, and mends what such
 * a stop can leave half-written: the engine's FREEZE counter (`shadow/increment.txt`), which
 * it truncates before writing. Killed in between, it is empty, and the engine then refuses
 * every FREEZE ("File …/increment.txt is empty. You must fill it manually"), so the sandbox
 * could not open again. Snapshots are frozen by name, so the counter's value is not used.
 */
export async function dropStaleSnapshots(warehousePath: string): Promise<void> {
  const shadow = join(warehousePath, "shadow");
  const names = await readdir(shadow).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((entry) => entry.startsWith(SNAPSHOT_PREFIX))
      .map((entry) => rm(join(shadow, entry), { recursive: true, force: true })),
  );
  const counter = join(shadow, "increment.txt");
  const count = await readFile(counter, "utf8").catch(() => undefined);
  if (count !== undefined && !/^\d+\s*$/.test(count)) await writeFile(counter, "0\n");
}

/**
 * Writes a worker's engine directory: for each database an Atomic database file, for
 * each table its ATTACH statement with the snapshot as its disk, and for each view its own. What the engine would
 * write itself after `ATTACH TABLE … UUID`; it creates the symlinks on start.
 */
export async function writeWorkerTables(workerPath: string, snapshot: Snapshot): Promise<void> {
  await mkdir(join(workerPath, "metadata"), { recursive: true });
  const byDatabase = new Map<string, { name: string; statement: string }[]>();
  const add = (database: string, name: string, statement: string) =>
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), { name, statement }]);
  for (const table of snapshot.tables) add(table.database, table.name, attachStatement(table, snapshot.directory));
  for (const view of snapshot.views)
    add(view.database, view.name, `ATTACH VIEW _ UUID '${view.uuid}' ${view.definition}\n`);
  for (const [database, files] of byDatabase) {
    const databaseUuid = randomUUID();
    await writeFile(
      join(workerPath, "metadata", `${database}.sql`),
      `ATTACH DATABASE _ UUID '${databaseUuid}'\nENGINE = Atomic\n`,
    );
    const tableDir = join(workerPath, "store", databaseUuid.slice(0, 3), databaseUuid);
    await mkdir(tableDir, { recursive: true });
    for (const { name, statement } of files) await writeFile(join(tableDir, `${name}.sql`), statement);
  }
}

export function attachStatement(table: SnapshotTable, snapshotDirectory: string): string {
  const disk = `disk = disk(type = 'local', path = ${quoteString(`${snapshotDirectory.replace(/\/+$/, "")}/`)})`;
  // The engine prints SETTINGS last in `engine_full`, so the disk joins its list.
  const separator = table.engineFull.includes(" SETTINGS ") ? ", " : " SETTINGS ";
  return `ATTACH TABLE _ UUID '${table.uuid}' ${table.definition}${separator}${disk}\n`;
}

function tableDirectory(uuid: string): string {
  return join("store", uuid.slice(0, 3), uuid);
}

/**
 * `CREATE TABLE db.name (…) ENGINE = <engine_full>[ COMMENT '…']` → `(…) ENGINE = <engine_full>`.
 * The comment is left out: the worker's catalog is not read.
 */
function definitionOf(createQuery: string, database: string, name: string, engineFull: string): string {
  const head = `CREATE TABLE ${database}.${name} `;
  const engineAt = createQuery.indexOf(` ENGINE = ${engineFull}`);
  if (!createQuery.startsWith(head) || engineAt === -1) {
    throw new Error(`cannot read the definition of ${database}.${name} from: ${createQuery.slice(0, 200)}`);
  }
  return `${createQuery.slice(head.length, engineAt)} ENGINE = ${engineFull}`;
}
