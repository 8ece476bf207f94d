/**
 * Table DDL that works on the embedded engine, a single server and a cluster.
 *
 * Migrations describe a table once as a `TableSpec`; this module turns it into the
 * statements for where it runs. On a cluster a table becomes a replicated local table
 * (`<name>_local`) plus a Distributed table under the public name, and every statement
 * carries `ON CLUSTER`, which is what ClickHouse itself recommends rather than anything
 * home-made.
 */

export interface TableSpec {
  database: string;
  name: string;
  /** Column definitions, one per entry: `name Type [DEFAULT …] [CODEC(…)]`. */
  columns: readonly string[];
  /** Plain append-only MergeTree, or ReplacingMergeTree keeping the highest `version` (the last inserted without one). */
  engine: { kind: "MergeTree" } | { kind: "ReplacingMergeTree"; version?: string };
  orderBy: string;
  partitionBy?: string;
  /** Extra clauses inside the column list: projections, indexes. */
  extras?: readonly string[];
  /** Distributed sharding expression on a cluster; keep rows of one key on one shard. */
  shardBy?: string;
}

export interface DdlContext {
  cluster: string | undefined;
}

export function onCluster(ctx: DdlContext): string {
  return ctx.cluster ? ` ON CLUSTER ${quoteIdentifier(ctx.cluster)}` : "";
}

export function createDatabase(ctx: DdlContext, name: string): string {
  return `CREATE DATABASE IF NOT EXISTS ${name}${onCluster(ctx)}`;
}

export function createTable(ctx: DdlContext, spec: TableSpec): string[] {
  const body = [...spec.columns, ...(spec.extras ?? [])].join(",\n  ");
  const tail = [spec.partitionBy ? `PARTITION BY ${spec.partitionBy}` : "", `ORDER BY ${spec.orderBy}`]
    .filter(Boolean)
    .join("\n");

  if (!ctx.cluster) {
    return [
      `CREATE TABLE IF NOT EXISTS ${spec.database}.${spec.name}\n(\n  ${body}\n)\nENGINE = ${engine(spec, undefined)}\n${tail}`,
    ];
  }
  const local = `${spec.name}_local`;
  return [
    `CREATE TABLE IF NOT EXISTS ${spec.database}.${local}${onCluster(ctx)}\n(\n  ${body}\n)\nENGINE = ${engine(spec, `${spec.database}/${local}`)}\n${tail}`,
    `CREATE TABLE IF NOT EXISTS ${spec.database}.${spec.name}${onCluster(ctx)} AS ${spec.database}.${local}\nENGINE = Distributed(${quoteString(ctx.cluster)}, ${quoteString(spec.database)}, ${quoteString(local)}, ${spec.shardBy ?? "rand()"})`,
  ];
}

/** The physical table that owns the rows (for ALTER … DELETE, OPTIMIZE, parts). */
export function storageTable(ctx: DdlContext, database: string, name: string): string {
  return ctx.cluster ? `${database}.${name}_local` : `${database}.${name}`;
}

function engine(spec: TableSpec, replicaPath: string | undefined): string {
  const replicated = replicaPath ? "Replicated" : "";
  const replicaArgs = replicaPath ? [`'/clickhouse/tables/{shard}/${replicaPath}'`, "'{replica}'"] : [];
  switch (spec.engine.kind) {
    case "MergeTree":
      return `${replicated}MergeTree(${replicaArgs.join(", ")})`;
    case "ReplacingMergeTree":
      return `${replicated}ReplacingMergeTree(${[...replicaArgs, ...(spec.engine.version ? [spec.engine.version] : [])].join(", ")})`;
    default: {
      const unknown: never = spec.engine;
      throw new Error(`unknown engine ${JSON.stringify(unknown)}`);
    }
  }
}

export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll("\\", "\\\\").replaceAll("`", "\\`")}\``;
}

export function quoteString(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
