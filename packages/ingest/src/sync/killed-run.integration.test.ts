import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows, duplicateRows, type Harness, startHarness } from "../testing/harness";
import { runSync } from "./run-sync";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ catalogSize: 3_000 });
});
afterAll(async () => {
  await h?.close();
});

const child = fileURLToPath(new URL("../testing/killable-run.ts", import.meta.url));

describe("a run killed mid-way", () => {
  it("leaves nothing behind once the next run has started", async () => {
    const first = await runSync(h.deps, { source: "polymarket" });
    expect(first.success).toBe(true);
    const latest = await countRows(h.warehouse, "polymarket.markets_latest FINAL");
    await h.warehouse.close();

    // The third page stalls forever, so the child has written batches and cannot finish.
    h.replay.setFault({ kind: "stall", source: "polymarket", after: 2 });
    h.replay.requests.length = 0;
    const proc = spawn(process.execPath, ["--import", "tsx", child, h.path, h.replay.url.polymarket], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => proc.on("exit", resolve));
    // Killed once it has asked for the stalled page and some batch has landed: rows on disk, run unfinished.
    let wrote = false;
    proc.stdout.on("data", (chunk: Buffer) => {
      wrote ||= chunk.toString().includes("wrote");
    });
    await expect.poll(() => wrote && h.replay.requests.length >= 3, { timeout: 30_000, interval: 20 }).toBe(true);
    proc.kill("SIGKILL");
    await exited;
    h.replay.setFault(null);

    await h.reopen();
    const [killed] = await h.warehouse.query<{ run_id: string; ts: string }>(
      "SELECT run_id, toString(sync_timestamp) AS ts FROM internal.sync_run_history FINAL WHERE revision = 0",
    );
    expect(killed).toBeDefined();
    const orphaned = await countRows(h.warehouse, "polymarket.markets", killed?.ts);
    expect(orphaned).toBeGreaterThan(0);

    const rerun = await runSync(h.deps, { source: "polymarket" });
    expect(rerun.success).toBe(true);
    expect(await countRows(h.warehouse, "polymarket.markets", killed?.ts)).toBe(0);
    expect(await countRows(h.warehouse, "polymarket.events", killed?.ts)).toBe(0);
    expect(await countRows(h.warehouse, "polymarket.markets")).toBe(first.markets_written + rerun.markets_written);
    expect(await countRows(h.warehouse, "polymarket.markets_latest FINAL")).toBe(latest);
    expect(await duplicateRows(h.warehouse)).toMatchObject({ "polymarket.markets": 0, "polymarket.events": 0 });
    const [record] = await h.warehouse.query<{ success: boolean; error: string }>(
      "SELECT success, error FROM internal.sync_run_history FINAL WHERE run_id = {id:String}",
      { params: { id: killed?.run_id } },
    );
    expect(record?.error).toMatch(/interrupted/);
  });
});
