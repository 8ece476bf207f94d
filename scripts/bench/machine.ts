/** What the figures were measured on: the machine, the versions, and how busy it was. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, totalmem } from "node:os";

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  chdb: string;
  clickhouse: string;
  duckdb: string;
  os: string;
}

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

export function describeMachine(engineVersion: string, duckdbVersion: string): Machine {
  let os: string = process.platform;
  try {
    os = /PRETTY_NAME="([^"]+)"/.exec(readFileSync("/etc/os-release", "utf8"))?.[1] ?? os;
  } catch {
    // not Linux
  }
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    chdb: packageVersion("chdb"),
    clickhouse: engineVersion,
    duckdb: `${duckdbVersion} (@duckdb/node-api ${packageVersion("@duckdb/node-api")})`,
    os,
  };
}

/** The 1-minute load average, sampled so each phase can say how busy the machine was. */
export function loadAverage(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}
