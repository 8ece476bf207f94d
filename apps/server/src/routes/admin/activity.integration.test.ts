import { ZAdminSyncRuns } from "@epicenter/contracts";
import { toDateTime64 } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "boss@example.com" } });
});
afterAll(async () => {
  await t.close();
});

function run(id: string, kind: "snapshot" | "backfill", minute: number, outcome: Record<string, unknown>) {
  const at = Date.parse("2026-11-01T12:00:00Z") + minute * 60_000;
  return {
    run_id: id,
    source: "polymarket",
    kind,
    started_at: toDateTime64(at),
    sync_timestamp: toDateTime64(at),
    finished_at: toDateTime64(at + 1_000),
    duration_ms: 1_000,
    events_written: 0,
    markets_written: 0,
    objects_skipped: 0,
    success: true,
    error: null,
    revision: 1,
    ...outcome,
  };
}

describe("admin sync runs", () => {
  it("leaves out backfill steps that wrote nothing when asked, and keeps failed or productive ones", async () => {
    await t.stores.warehouse.insert("internal.sync_run_history", [
      run("snapshot", "snapshot", 0, { events_written: 100, markets_written: 291 }),
      run("idle-step", "backfill", 1, {}),
      run("productive-step", "backfill", 2, { events_written: 7, markets_written: 7 }),
      run("failed-step", "backfill", 3, { success: false, error: "upstream 500" }),
    ]);
    const boss = await signIn(t, "boss@example.com");
    const ids = async (path: string) => {
      const response = await t.app.request(path, bearer(boss.access_token));
      expect(response.status).toBe(200);
      return ZAdminSyncRuns.parse(await response.json()).runs.map((entry) => entry.run_id);
    };
    expect(await ids("/api/admin/sync-runs")).toEqual(["failed-step", "productive-step", "idle-step", "snapshot"]);
    expect(await ids("/api/admin/sync-runs?hide_idle_backfill=true")).toEqual([
      "failed-step",
      "productive-step",
      "snapshot",
    ]);
  });

  it("refuses a filter value it does not know", async () => {
    const boss = await signIn(t, "boss@example.com");
    const response = await t.app.request("/api/admin/sync-runs?hide_idle_backfill=maybe", bearer(boss.access_token));
    expect(response.status).toBe(400);
  });
});
