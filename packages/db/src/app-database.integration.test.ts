import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openAppDatabase, queryRows } from "./client";
import {
  addToAllowList,
  isAllowListed,
  joinWaitlist,
  listAllowList,
  removeFromAllowList,
} from "./repositories/allow-list";
import { appDatabaseTargets } from "./testing";

// From nothing: this suite is the migrations' own.
const targets = await appDatabaseTargets({ fresh: true });
const journal = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "drizzle", "meta", "_journal.json"), "utf8"),
) as { entries: unknown[] };

describe.each(targets)("app database on $name", (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  async function fresh() {
    const store = await target.create();
    cleanups.push(store.cleanup);
    return store;
  }

  it("applies every migration and creates the tables the product needs", async () => {
    const store = await fresh();
    const database = await openAppDatabase(store);
    try {
      const tables = await queryRows<{ table_name: string }>(
        database.db,
        sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      expect(tables.map((row) => row.table_name)).toEqual([
        "api_keys",
        "magic_link_tokens",
        "query_runs",
        "saved_queries",
        "sessions",
        "users",
        "waitlist",
        "whitelist_emails",
      ]);
      expect(await database.ping()).toBe(true);
    } finally {
      await database.close();
    }
  });

  it("keeps a written row across a restart and runs migrations only once", async () => {
    const store = await fresh();
    const first = await openAppDatabase(store);
    await addToAllowList(first.db, "Ada@Example.COM", "ops@example.com");
    await first.close();

    const second = await openAppDatabase(store);
    try {
      const entries = await listAllowList(second.db);
      expect(entries.map((entry) => [entry.email, entry.addedBy, entry.isAdmin])).toEqual([
        ["ada@example.com", "ops@example.com", false],
      ]);
      const migrations = await queryRows<{ n: string }>(
        second.db,
        sql`SELECT count(*)::text AS n FROM drizzle.__drizzle_migrations`,
      );
      expect(migrations[0]?.n).toBe(String(journal.entries.length));
    } finally {
      await second.close();
    }
  });

  it("matches the allow-list case-insensitively and keeps one waitlist row per e-mail", async () => {
    const store = await fresh();
    const database = await openAppDatabase(store);
    try {
      await addToAllowList(database.db, "grace@example.com");
      await addToAllowList(database.db, "GRACE@example.com");
      expect(await isAllowListed(database.db, "Grace@Example.com")).toBe(true);
      expect(await isAllowListed(database.db, "someone@example.com")).toBe(false);
      expect(await isAllowListed(database.db, "")).toBe(false);
      expect(await listAllowList(database.db)).toHaveLength(1);

      expect(await removeFromAllowList(database.db, "GRACE@EXAMPLE.COM")).toBe(true);
      expect(await isAllowListed(database.db, "grace@example.com")).toBe(false);

      expect(await joinWaitlist(database.db, "Wait@Example.com")).toBe(true);
      expect(await joinWaitlist(database.db, "wait@example.com")).toBe(false);
      const waiting = await queryRows<{ n: string }>(database.db, sql`SELECT count(*)::text AS n FROM waitlist`);
      expect(waiting[0]?.n).toBe("1");
    } finally {
      await database.close();
    }
  });
});
