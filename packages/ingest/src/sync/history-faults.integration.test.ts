/**
 * The history worker when one market fails and when a step is killed, on a small catalog:
 * the failure tests forget some markets' history (the failing one among them) and walk
 * them again, the kill tests a venue's whole history; the catalog is drained once first. What a whole pass stores, the limits and the schedule:
 * `history.integration.test.ts`.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SourceName, sourceNamed } from "../sources";
import { countRows, type Harness } from "../testing/harness";
import {
  type Contents,
  contents,
  doneMarkets,
  drain,
  forget,
  MARKET_COLUMN,
  NOW,
  startHistoryHarness,
} from "../testing/history-world";
import { runHistoryStep } from "./history";

let h: Harness;
/** Both venues' whole history, drained once: what every test must get back to. */
let reference: Contents;
beforeAll(async () => {
  h = await startHistoryHarness(30);
  for (const source of ["polymarket", "kalshi"] as const) await drain(h, source);
  reference = await contents(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe("one market's failure", () => {
  /** Markets walked again beside the failing one: more than one batch of each venue's requests. */
  const WALKED_AGAIN = 24;

  /** Every history table of `source` without `market`'s rows. */
  async function othersOf(source: SourceName, market: string) {
    const result: Record<string, string> = {};
    for (const { table } of sourceNamed(source).history.tables) {
      const [row] = await h.warehouse.query<{ hash: string }>(
        `SELECT concat(toString(count()), ' ', toString(sum(cityHash64(*)))) AS hash FROM ${table} WHERE ${MARKET_COLUMN[source]} != {market:String}`,
        { params: { market } },
      );
      result[table] = String(row?.hash);
    }
    return result;
  }

  for (const source of ["polymarket", "kalshi"] as const) {
    it(`${source}: a market whose trades answer 404 is recorded and tried again later, the others stored`, async () => {
      // A closed market with trades: its whole life is in the reference, whatever the clock.
      const [picked] = await h.warehouse.query<{ market: string; condition: string }>(
        source === "polymarket"
          ? `SELECT t.id AS market, any(t.condition_id) AS condition FROM polymarket.trades AS t
             WHERE t.id IN (SELECT market FROM internal.history_state FINAL WHERE source = 'polymarket' AND done)
             GROUP BY t.id ORDER BY count() DESC LIMIT 1`
          : `SELECT ticker AS market, '' AS condition FROM kalshi.trades
             WHERE ticker IN (SELECT market FROM internal.history_state FINAL WHERE source = 'kalshi' AND done)
             GROUP BY ticker ORDER BY count() DESC LIMIT 1`,
      );
      expect(picked, "a closed market with trades").toBeDefined();
      const market = picked?.market as string;
      const others = await othersOf(source, market);

      await forget(h, source, await doneMarkets(h, source, WALKED_AGAIN, market));
      h.replay.setFault({
        kind: "not-found",
        source,
        match: source === "polymarket" ? `condition=${picked?.condition}&` : `ticker=${market}&`,
      });
      try {
        await drain(h, source);
      } finally {
        h.replay.setFault(null);
      }
      expect(await othersOf(source, market), "every other market's history is stored").toEqual(others);
      const [state] = await h.warehouse.query<{ error: string; failures: number; retry_at: number; done: boolean }>(
        `SELECT error, failures, toUnixTimestamp(retry_at) AS retry_at, done FROM internal.history_state FINAL
         WHERE source = {source:String} AND market = {market:String}`,
        { params: { source, market } },
      );
      expect(state?.error).toContain("HTTP 404");
      expect(state?.done).toBe(false);
      expect(Number(state?.failures)).toBe(1);
      expect(Number(state?.retry_at)).toBe(NOW / 1000 + 600);
      const [ledger] = await h.warehouse.query<{ state: string; error: string }>(
        `SELECT state, error FROM ${source}.coverage FINAL WHERE ${MARKET_COLUMN[source]} = {market:String}`,
        { params: { market } },
      );
      expect(ledger).toMatchObject({ state: "upstream error" });
      // The route it failed on, never the host or the venue's body: every user reads the ledger.
      expect(ledger?.error).toMatch(/^HTTP 404 from \/[\w/-]+\/trades$/);
      expect(ledger?.error).not.toContain(new URL(h.replay.url.kalshi).host);

      // Not before its retry time; after it, its history is fetched whole.
      expect((await runHistoryStep(h.deps, source, { markets: 200 })).outcome?.markets).toBe(0);
      const later = { ...h.deps, clock: () => new Date(NOW + 11 * 60_000) };
      const retried = await runHistoryStep(later, source, { markets: 200 });
      expect(retried.run.error).toBeNull();
      expect(retried.outcome).toMatchObject({ markets: 1, failed: 0 });
      expect(await contents(h)).toEqual(reference);
    }, 300_000);
  }

  it("polymarket: a token the CLOB answers 404 for fails its own market only, its batch asked again token by token", async () => {
    const [picked] = await h.warehouse.query<{ market: string; token: string }>(
      `SELECT id AS market, any(token_id) AS token FROM polymarket.prices
       WHERE id IN (SELECT id FROM polymarket.markets_latest FINAL WHERE NOT closed)
       GROUP BY id ORDER BY id LIMIT 1`,
    );
    const market = picked?.market as string;
    const others = await othersOf("polymarket", market);
    await forget(h, "polymarket", await doneMarkets(h, "polymarket", 24, market));
    h.replay.requests.length = 0;
    h.replay.setFault({ kind: "not-found", source: "polymarket", match: picked?.token as string });
    try {
      await drain(h, "polymarket");
    } finally {
      h.replay.setFault(null);
    }
    // Its batch was refused, then asked again one token at a time.
    const refused = h.replay.requests.filter(
      (path) => path.includes("/batch-prices-history#") && path.includes(picked?.token as string),
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(h.replay.requests.some((path) => path.includes(`/prices-history?market=${picked?.token}&`))).toBe(true);
    expect(await othersOf("polymarket", market), "every other market's history is stored").toEqual(others);
    const [ledger] = await h.warehouse.query<{ state: string; error: string }>(
      "SELECT state, error FROM polymarket.coverage FINAL WHERE id = {market:String}",
      { params: { market } },
    );
    expect(ledger).toMatchObject({ state: "upstream error" });
    const retried = await runHistoryStep({ ...h.deps, clock: () => new Date(NOW + 11 * 60_000) }, "polymarket", {
      markets: 200,
    });
    expect(retried.run.error).toBeNull();
    // An open market fetched later than the others: its own minutes start later, so only
    // that it is in now, and that nothing else moved.
    const [after] = await h.warehouse.query<{ state: string; points: string }>(
      "SELECT state, toString(points) AS points FROM polymarket.coverage FINAL WHERE id = {market:String}",
      { params: { market } },
    );
    expect(after?.state).toBe("current");
    expect(Number(after?.points)).toBeGreaterThan(0);
    expect(await othersOf("polymarket", market)).toEqual(others);
  }, 300_000);
});

describe("a history step killed with SIGKILL", () => {
  /** Requests the child gets answered before every later one stalls. */
  const STALL_AFTER = 40;
  const child = fileURLToPath(new URL("../testing/killable-history.ts", import.meta.url));

  for (const source of ["polymarket", "kalshi"] as const) {
    it(`${source}: resumes without duplicates or gaps`, async () => {
      await forget(h, source, "all");
      await h.warehouse.close();
      // Stall after a while, so the child has written batches and cannot finish.
      h.replay.setFault({ kind: "stall", source, after: STALL_AFTER });
      h.replay.requests.length = 0;
      const proc = spawn(
        process.execPath,
        ["--import", "tsx", child, h.path, JSON.stringify(h.deps.config), source, String(NOW)],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let gone = false;
      const exited = new Promise((resolve) => proc.on("exit", resolve)).then(() => {
        gone = true;
      });
      while (h.replay.requests.length < STALL_AFTER && !gone) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(gone, "the child was still walking when it was killed").toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      proc.kill("SIGKILL");
      await exited;
      h.replay.setFault(null);
      await h.reopen();
      const [table] = sourceNamed(source).history.tables;
      expect(await countRows(h.warehouse, table?.table as string), "the killed step stored some").toBeGreaterThan(0);

      await drain(h, source);
      // The same history as the uninterrupted worker fetched.
      const resumed = await contents(h);
      for (const { table } of sourceNamed(source).history.tables)
        expect(resumed[table], table).toEqual(reference[table]);
    }, 300_000);
  }
});
