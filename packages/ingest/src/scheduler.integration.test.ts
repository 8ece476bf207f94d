import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZSyncStatusResponse } from "../../contracts/src/sync";
import { generateDemoHistory } from "./demo-history";
import { createScheduler } from "./scheduler";
import { getSyncStatus } from "./status";
import { type Harness, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ historicalCutoff: Date.parse("2026-02-01T00:00:00Z") });
});
afterAll(async () => {
  await h?.close();
});

describe("scheduler", () => {
  it("runs each source every interval, one run at a time, backfill and history in between", async () => {
    const scheduler = createScheduler(h.deps, {
      intervalSeconds: 1,
      sources: ["polymarket", "kalshi"],
      backfillPagesPerStep: 2,
      historyMarketsPerStep: 2,
    });
    // The status and the flag say the same thing at every moment (issue 24: a history step
    // read "backfilling" with is_backfilling false).
    const disagreements: string[] = [];
    let backfillingSeen = 0;
    const sampler = setInterval(() => {
      for (const [source, state] of Object.entries(scheduler.state())) {
        if (state.status === "backfilling") backfillingSeen += 1;
        if ((state.status === "backfilling") !== state.isBackfilling) {
          disagreements.push(`${source}: ${state.status}, isBackfilling ${state.isBackfilling}`);
        }
      }
    }, 2);
    scheduler.start();
    await scheduler.nextRun("polymarket");
    await scheduler.nextRun("polymarket");
    await scheduler.nextRun("kalshi");
    clearInterval(sampler);
    expect(backfillingSeen).toBeGreaterThan(0);
    expect(disagreements).toEqual([]);
    const live = scheduler.state();
    const status = await getSyncStatus(h.warehouse, live);
    await scheduler.stop();

    expect(ZSyncStatusResponse.parse(status)).toEqual(status);
    expect(status.sources.polymarket.recent_runs.length).toBeGreaterThanOrEqual(2);
    expect(status.sources.polymarket.last_sync).not.toBeNull();
    expect(status.sources.kalshi.markets_count).toBeGreaterThan(0);
    expect(status.table_counts["polymarket.markets"]).toBeGreaterThan(0);
    // Each venue's limits as measured at the client: some use in the last minute, inside the limit.
    for (const source of ["polymarket", "kalshi"] as const) {
      const used = status.sources[source].limits_used;
      expect(used[source], source).toBeGreaterThan(0);
      expect(Math.max(...Object.values(used)), source).toBeLessThan(0.9);
    }

    const runs = await h.warehouse.query<{ source: string; started: number; finished: number }>(
      `SELECT source, toUnixTimestamp64Milli(started_at) AS started, toUnixTimestamp64Milli(finished_at) AS finished
       FROM internal.sync_run_history FINAL WHERE revision = 1 ORDER BY source, started_at`,
    );
    for (const source of ["polymarket", "kalshi"]) {
      const mine = runs.filter((run) => run.source === source);
      for (let i = 1; i < mine.length; i += 1) {
        expect(Number(mine[i]?.started)).toBeGreaterThanOrEqual(Number(mine[i - 1]?.finished));
      }
    }
    const kinds = await h.warehouse.query<{ source: string; kind: string; n: string }>(
      "SELECT source, kind, count() AS n FROM internal.sync_run_history FINAL WHERE revision = 1 GROUP BY source, kind",
    );
    const ran = (source: string, kind: string) => kinds.some((row) => row.source === source && row.kind === kind);
    expect(ran("kalshi", "backfill")).toBe(true);
    expect(ran("polymarket", "history") || ran("kalshi", "history")).toBe(true);
    // The books of each snapshot, captured beside the loop; stop() waited for the last capture.
    for (const source of ["polymarket", "kalshi"] as const) {
      const [books] = await h.warehouse.query<{ captures: string; failed: string; open: string }>(
        `SELECT count() AS captures, sum(failed) AS failed, countIf(captured > 0) AS open FROM ${source}.book_coverage
         WHERE sync_timestamp IN (SELECT sync_timestamp FROM internal.sync_run_history FINAL WHERE source = '${source}' AND kind = 'snapshot' AND success)`,
      );
      expect(Number(books?.captures), source).toBeGreaterThanOrEqual(1);
      expect(Number(books?.open), source).toBeGreaterThanOrEqual(1);
      expect(books?.failed, source).toBe("0");
    }
    const after = await getSyncStatus(h.warehouse);
    expect(Object.values(after.sources.kalshi.backfill_offsets).some((offset) => offset > 0)).toBe(true);
    // The matcher ran after the snapshots: a full pass first, then only what was new.
    const passes = await h.warehouse.query<{ pass: string }>(
      "SELECT pass FROM internal.matcher_runs ORDER BY started_at",
    );
    expect(passes[0]?.pass).toBe("full");
    expect(passes.slice(1).every((run) => run.pass === "new")).toBe(true);
  });
});

describe("demo history", () => {
  // A week of the recorded catalog is 1.4 million snapshot rows with their objects: about
  // 33 s on two idle cores, and a CI run on a busy machine once took past the default 60 s.
  it("writes 7 days of 10-minute snapshots so 1-day and 7-day queries have data", { timeout: 150_000 }, async () => {
    const result = await generateDemoHistory(h.warehouse, { days: 7, intervalMinutes: 10 });
    expect(result.steps).toBe(1008);
    const [week] = await h.warehouse.query<{ days: string; snapshots: string; avg_yes: number }>(
      `SELECT uniqExact(toDate(sync_timestamp)) AS days, uniqExact(sync_timestamp) AS snapshots, avg(yes_probability) AS avg_yes
       FROM polymarket.markets WHERE sync_timestamp >= now() - INTERVAL 7 DAY`,
    );
    expect(Number(week?.days)).toBeGreaterThanOrEqual(7);
    expect(Number(week?.snapshots)).toBeGreaterThanOrEqual(1008);
    expect(week?.avg_yes).toBeGreaterThan(0);
    const [day] = await h.warehouse.query<{ n: string }>(
      "SELECT count() AS n FROM kalshi.markets WHERE sync_timestamp >= now() - INTERVAL 1 DAY",
    );
    expect(Number(day?.n)).toBeGreaterThan(100_000);
    const [latest] = await h.warehouse.query<{ latest: string; keys: string }>(
      `SELECT (SELECT count() FROM polymarket.markets_latest FINAL) AS latest,
              (SELECT uniqExact(id) FROM polymarket.markets) AS keys`,
    );
    expect(latest?.latest).toBe(latest?.keys);
    // Books for the generated week: as of any moment in it, every venue answers with levels.
    for (const venue of ["polymarket", "kalshi"]) {
      const [book] = await h.warehouse.query<{ markets: string; levels: string; crossed: string }>(
        `SELECT uniqExact(${venue === "kalshi" ? "ticker" : "id"}) AS markets, count() AS levels,
                countIf(side = 'bid' AND level = 1 AND price >= 0.97) AS crossed
         FROM ${venue}.book_asof(ts = now() - INTERVAL 3 DAY)`,
      );
      expect(Number(book?.markets)).toBeGreaterThan(100);
      expect(Number(book?.levels)).toBeGreaterThan(Number(book?.markets) * 4);
      expect(book?.crossed).toBe("0");
    }
  });
});
