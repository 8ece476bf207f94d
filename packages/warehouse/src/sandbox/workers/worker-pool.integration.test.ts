/**
 * The depth under the allow-list: what user SQL could reach if a check above it missed
 * something. These statements go to the workers unchecked, as a bypass would.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../../client";
import { migrateWarehouse } from "../../migrate";
import { MARKET_DATABASES } from "../allow-list";
import { sandboxSettings } from "../sandbox";
import { chooseConfinement } from "./confinement";
import { WorkerPool } from "./worker-pool";

const dir = mkdtempSync(join(tmpdir(), "epicenter-workers-"));
// Traversable, as the sandbox leaves a worker's parents when it runs as another user.
chmodSync(dir, 0o711);
const path = join(dir, "warehouse");
const secretFile = join(dir, "app", "secret.txt");
let warehouse: Warehouse;
let pool: WorkerPool;
let isConfined = false;

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.insert("polymarket.markets", [{ sync_timestamp: "2026-01-01 00:00:00.000", id: "a" }]);
  mkdirSync(join(dir, "app"), { mode: 0o700 });
  writeFileSync(secretFile, "another user's private saved query", { mode: 0o600 });
  const confinement = await chooseConfinement("auto");
  isConfined = confinement.kind === "bubblewrap";
  pool = await WorkerPool.open({
    warehouse,
    warehousePath: path,
    workDirectory: join(dir, "sandbox"),
    databases: MARKET_DATABASES,
    settings: sandboxSettings({ maxExecutionSeconds: 5 }) as Record<string, string | number>,
    size: 2,
    perOwner: 1,
    maxServerMemoryBytes: 1024 ** 3,
    maxStalenessMs: 0,
    confinement,
    log: () => {},
  });
});

afterAll(async () => {
  await pool?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `sql` on a worker as a bypass of the allow-list would, and answers its output or its error. */
const raw = (sql: string) =>
  pool
    .lease("test", (session) => session.queryText(sql))
    .then(
      (text) => text.trim(),
      (error: Error) => `error: ${error.message}`,
    );

describe("a sandbox worker", () => {
  it("reads the market tables of its snapshot", async () => {
    expect(await raw("SELECT count() FROM polymarket.markets")).toBe("1");
  });

  it("cannot use table functions that reach files, URLs or other servers: it has no grant for them", async () => {
    expect(await raw("SELECT * FROM file('/etc/passwd', 'LineAsString')")).toMatch(/READ ON FILE/);
    expect(await raw("SELECT * FROM url('http://127.0.0.1:9/x', CSV, 'a String')")).toMatch(/READ ON URL/);
  });

  it("cannot write, set or create anything", async () => {
    expect(await raw("INSERT INTO polymarket.markets (id) VALUES ('x')")).toMatch(/readonly|privileges/i);
    expect(await raw("CREATE TABLE polymarket.t (a UInt8) ENGINE = Memory")).toMatch(/readonly|privileges/i);
    expect(await raw("SELECT 1 SETTINGS max_threads = 64")).toMatch(/readonly/i);
  });

  it.runIf(process.platform === "linux")(
    "finds no system files, no app database, no environment and no network",
    async () => {
      if (!isConfined) {
        // Only bubblewrap hides the file system; CI installs it (.ci/run).
        expect.soft(isConfined, "bubblewrap is not installed: user SQL is not confined here").toBe(true);
        return;
      }
      expect(await raw("SELECT file('/etc/passwd')")).toMatch(/No such file/);
      expect(await raw("SELECT file('/etc/shadow')")).toMatch(/No such file/);
      expect(await raw(`SELECT file('${secretFile}')`)).toMatch(/No such file/);
      expect(await raw(`SELECT file('${join(path, "metadata", "internal.sql")}')`)).toMatch(/No such file/);
      // Its environment holds only what it was started with: no secret of the server's.
      const environment = await raw("SELECT replaceAll(file('/proc/self/environ'), '\\0', ' ')");
      expect(environment).not.toMatch(/SMTP_URL|SEISMO_API_KEY|DATABASE_URL/);
      expect(environment).toMatch(/PATH=/);
      // Its own namespaces: its own hostname, only its own processes, no network.
      expect(await raw("SELECT hostName()")).toBe("epicenter-sandbox");
      expect(await raw("SELECT file('/proc/1/cmdline')")).toMatch(/node|bwrap/);
      expect(await raw("SELECT file('/proc/net/route')")).not.toMatch(/eth|ens|enp/);
    },
  );

  it.runIf(process.getuid?.() === 0)("runs as an unprivileged user when the server is root", async () => {
    const status = await raw("SELECT file('/proc/self/status')");
    expect(status).toMatch(/Uid:\s+65534/);
    expect(status).toMatch(/CapEff:\s+0000000000000000/);
  });
});
