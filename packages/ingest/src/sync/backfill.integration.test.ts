import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { duplicateRows, type Harness, startHarness } from "../testing/harness";
import { readBackfillState, runBackfillStep } from "./backfill";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ catalogSize: 1_500, historicalCutoff: Date.parse("2026-02-01T00:00:00Z") });
});
afterAll(async () => {
  await h?.close();
});

describe("closed-history backfill", () => {
  it("resumes Polymarket from its persisted window and cursor after a restart", async () => {
    const first = await runBackfillStep(h.deps, "polymarket", { pagesPerStep: 3 });
    expect(first.run?.success).toBe(true);
    const saved = (await readBackfillState(h.warehouse, "polymarket"))[0];
    expect(saved?.position.windowStart).toBeGreaterThan(Date.parse("2020-01-01T00:00:00Z"));

    await h.reopen();
    const resumed = (await readBackfillState(h.warehouse, "polymarket"))[0];
    expect(resumed).toEqual(saved);
    h.replay.requests.length = 0;
    await runBackfillStep(h.deps, "polymarket", { pagesPerStep: 3 });
    const firstWindow = new URL(`http://x${h.replay.requests[0]}`).searchParams.get("end_date_min");
    expect(Date.parse(firstWindow ?? "")).toBe(saved?.position.windowStart);

    let step = await runBackfillStep(h.deps, "polymarket", { pagesPerStep: 200 });
    while (!step.done) step = await runBackfillStep(h.deps, "polymarket", { pagesPerStep: 200 });
    const [row] = await h.warehouse.query<{ events: string; distinct: string }>(
      "SELECT count() AS events, uniqExact(id) AS distinct FROM polymarket.events WHERE closed",
    );
    // The ten recorded 2021 events, each exactly once across all steps.
    expect(Number(row?.events)).toBe(10);
    expect(Number(row?.distinct)).toBe(10);
    expect(step.state[0]).toMatchObject({ event_type: "closed_events", offset: 20, done: true });
  });

  it("backfills Kalshi settled events and historical markets, never a combo", async () => {
    let step = await runBackfillStep(h.deps, "kalshi", { pagesPerStep: 1 });
    const offsets: number[] = [];
    while (!step.done) {
      offsets.push(step.state.reduce((total, state) => total + state.offset, 0));
      await h.reopen();
      step = await runBackfillStep(h.deps, "kalshi", { pagesPerStep: 1 });
    }
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    const byType = Object.fromEntries(step.state.map((state) => [state.event_type, state.offset]));
    expect(byType.settled_events).toBeGreaterThan(0);
    expect(byType.historical_markets).toBeGreaterThan(0);
    expect(
      h.replay.requests
        .filter((url) => url.includes("/historical/markets"))
        .every((url) => url.includes("mve_filter=exclude")),
    ).toBe(true);
    const [combos] = await h.warehouse.query<{ n: string }>(
      "SELECT count() AS n FROM kalshi.markets WHERE ticker LIKE 'KXMVE%'",
    );
    expect(Number(combos?.n)).toBe(0);
    expect(await duplicateRows(h.warehouse)).toMatchObject({ "kalshi.markets": 0, "kalshi.events": 0 });
  });

  it("does not advance the position when a step fails", async () => {
    const before = await readBackfillState(h.warehouse, "kalshi");
    await h.warehouse.command(
      "ALTER TABLE internal.backfill_state DELETE WHERE source = 'kalshi' SETTINGS mutations_sync = 2",
    );
    h.replay.setFault({ kind: "server-error", source: "kalshi" });
    const failed = await runBackfillStep(h.deps, "kalshi", { pagesPerStep: 1 });
    h.replay.setFault(null);
    expect(failed.run?.success).toBe(false);
    expect((await readBackfillState(h.warehouse, "kalshi")).map((state) => state.offset)).toEqual([0, 0]);
    expect(before.length).toBe(2);
  });
});
