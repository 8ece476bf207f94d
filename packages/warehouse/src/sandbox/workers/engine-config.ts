/**
 * The engine configuration a sandbox worker starts with. The engine itself enforces what
 * the allow-list already checked, so a gap in the check is not a way out:
 * - one engine user, `default`, whose only grants are SELECT on the market databases and
 *   KILL QUERY (for stopping its own queries): table functions that reach files, URLs or
 *   other servers (`file`, `url`, `s3`, `remote`, …) fail for want of a grant;
 * - a settings profile with `readonly = 1` and the service's limits, each constant, so no
 *   statement's SETTINGS can change one (a subquery's SETTINGS escapes both on chDB 26.7,
 *   ClickHouse #116028: what it could raise is held below, by the memory cap of the
 *   whole worker and by the server's supervisor, which ends a query at its time limit);
 * - system tables readable only with a grant (`access_control_improvements`), which the
 *   user has only for the few the catalogue views read (`catalog-views.ts`);
 * - tables from a snapshot directory only (`custom_local_disks_base_directory`).
 * What grants cannot reach (the plain `file()` function, which chDB's local mode does not
 * check) is left to the process's confinement (`confinement.ts`).
 *
 * No `<logger>`: chDB ignores its level and logs every query at trace level, at a cost per
 * query (docs/BENCHMARKS.md, "Sandbox choices"). Query errors come back as exceptions all
 * the same.
 */
import type { ClickHouseSettings } from "@clickhouse/client";
import { SYSTEM_TABLES_READ } from "../catalog-views";

export interface WorkerEngineOptions {
  /** Where the worker's users file lives. */
  usersFile: string;
  /** Root under which snapshots are mounted; tables name their disk below it. */
  snapshotRoot: string;
  /** The most memory the whole worker may use. */
  maxServerMemoryBytes: number;
}

export function workerConfigXml(options: WorkerEngineOptions): string {
  return `<clickhouse>
  <custom_local_disks_base_directory>${xml(withSlash(options.snapshotRoot))}</custom_local_disks_base_directory>
  <max_server_memory_usage>${Math.round(options.maxServerMemoryBytes)}</max_server_memory_usage>
  <user_directories><users_xml><path>${xml(options.usersFile)}</path></users_xml></user_directories>
  <access_control_improvements>
    <select_from_system_db_requires_grant>true</select_from_system_db_requires_grant>
    <select_from_information_schema_requires_grant>true</select_from_information_schema_requires_grant>
  </access_control_improvements>
</clickhouse>
`;
}

export function workerUsersXml(settings: ClickHouseSettings, databases: readonly string[]): string {
  const entries = Object.entries({ ...settings, readonly: 1 });
  const profile = entries.map(([name, value]) => `      <${name}>${xml(String(value))}</${name}>`).join("\n");
  // Every setting of the profile is constant: a second word besides `readonly = 1`.
  const constraints = entries.map(([name]) => `        <${name}><const/></${name}>`).join("\n");
  const grants = [
    ...databases.map((database) => `GRANT SELECT ON ${database}.*`),
    // What the catalogue views read as this user; user SQL cannot name them (the allow-list).
    ...SYSTEM_TABLES_READ.map((table) => `GRANT SELECT ON system.${table}`),
    // Back to the empty default database after a statement that chose a market one.
    "GRANT SHOW DATABASES ON default.*",
    // Its own queries only: this engine runs nothing else.
    "GRANT KILL QUERY ON *.*",
  ]
    .map((grant) => `        <query>${xml(grant)}</query>`)
    .join("\n");
  return `<clickhouse>
  <profiles>
    <default></default>
    <sandbox>
${profile}
      <constraints>
${constraints}
      </constraints>
    </sandbox>
  </profiles>
  <users>
    <default>
      <password></password>
      <profile>sandbox</profile>
      <quota>default</quota>
      <grants>
${grants}
      </grants>
    </default>
  </users>
  <quotas><default></default></quotas>
</clickhouse>
`;
}

function withSlash(path: string): string {
  return path.endsWith("/") ? path : `${path}/`;
}

function xml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
