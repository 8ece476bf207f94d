/**
 * The history suites' world: a harness whose venues' snapshots and Kalshi's settled
 * markets are stored (so the history worker has markets to walk), the clock at `NOW`,
 * rate limits far above the venues' (the rate has its own suite), and helpers to drain a
 * venue's history, fingerprint what is stored and forget it as a fresh install would.
 * `history.integration.test.ts` walks a 60-event catalog; the failure and kill tests,
 * which forget some markets and walk them again, have a file and a smaller one of their own.
 */
import { expect } from "vitest";
import { createRateLimiter } from "../http/rate-limiter";
import { replayIngestConfig } from "../replay/server";
import { type SourceName, sourceNamed } from "../sources";
import { runBackfillStep } from "../sync/backfill";
import { runHistoryStep } from "../sync/history";
import { runSync } from "../sync/run-sync";
import { type Harness, startHarness } from "./harness";

export const NOW = Date.parse("2026-07-01T12:00:00Z");
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

const TABLES = {
  "polymarket.prices": "id, token_id, fidelity_minutes, ts",
  "polymarket.trades": "id, transaction_hash, trade_index",
  "kalshi.candles": "ticker, period_minutes, end_period_ts",
  "kalshi.trades": "trade_id",
} as const;

export type Contents = Record<string, { rows: number; keys: number; hash: string }>;

/** Limits far above the venues', for the tests that are not about the rate. */
const unlimited = () =>
  new Map(
    ["polymarket", "polymarket-clob", "polymarket-data", "kalshi"].map((name) => [
      name,
      createRateLimiter({ requests: 100_000, perMs: 1_000 }),
    ]),
  );

/** A harness over `catalogSize` events with both venues' snapshots and Kalshi's settled markets stored. */
export async function startHistoryHarness(catalogSize: number): Promise<Harness> {
  const h = await startHarness({
    catalogSize,
    now: () => NOW,
    historicalCutoff: NOW - 120 * DAY,
    historicalTradesCutoff: NOW - 40 * DAY,
  });
  h.deps = { ...h.deps, config: replayIngestConfig(h.replay), clock: () => new Date(NOW), rateLimiters: unlimited() };
  for (const source of ["polymarket", "kalshi"] as const)
    expect((await runSync(h.deps, { source })).success).toBe(true);
  // Kalshi's settled markets too, some settled before the cutoff: their candles are archived.
  for (let step = await runBackfillStep(h.deps, "kalshi"); !step.done; step = await runBackfillStep(h.deps, "kalshi")) {
    expect(step.run?.success).toBe(true);
  }
  return h;
}

/** Each history table's rows, distinct keys and a fingerprint of every value. */
export async function contents(h: Harness): Promise<Contents> {
  const result: Contents = {};
  for (const [table, key] of Object.entries(TABLES)) {
    const [row] = await h.warehouse.query<{ rows: string; keys: string; hash: string }>(
      `SELECT count() AS rows, uniqExact(${key}) AS keys, toString(sum(cityHash64(*))) AS hash FROM ${table}`,
    );
    result[table] = { rows: Number(row?.rows), keys: Number(row?.keys), hash: String(row?.hash) };
  }
  return result;
}

/** Runs `source`'s history steps until nothing is due; every step must succeed. */
export async function drain(h: Harness, source: SourceName): Promise<void> {
  for (;;) {
    const step = await runHistoryStep(h.deps, source, { markets: 200 });
    expect(step.run.error).toBeNull();
    if (!step.outcome?.more) return;
  }
}

/** The column that names a market in each venue's history tables. */
export const MARKET_COLUMN = { polymarket: "id", kalshi: "ticker" } as const;

/**
 * Forgets `source`'s history of `markets`, as if the worker had never reached them; every
 * other market keeps its history and its state. The failure tests walk a few markets
 * again this way; the kill tests forget `"all"`, as a fresh install starts.
 */
export async function forget(h: Harness, source: SourceName, markets: readonly string[] | "all"): Promise<void> {
  if (markets === "all") {
    // Everything, the trade tapes' state too: as a fresh install would start.
    for (const { table } of sourceNamed(source).history.tables) await h.warehouse.command(`TRUNCATE TABLE ${table}`);
    for (const state of ["internal.history_state", "internal.feed_state"])
      await h.warehouse.command(
        `ALTER TABLE ${state} DELETE WHERE source = {source:String} SETTINGS mutations_sync = 2`,
        { params: { source } },
      );
    return;
  }
  const params = { source, markets: [...markets] };
  for (const { table } of sourceNamed(source).history.tables)
    await h.warehouse.command(
      `ALTER TABLE ${table} DELETE WHERE ${MARKET_COLUMN[source]} IN {markets:Array(String)} SETTINGS mutations_sync = 2`,
      { params },
    );
  await h.warehouse.command(
    `ALTER TABLE internal.history_state DELETE WHERE source = {source:String} AND market IN {markets:Array(String)}
     SETTINGS mutations_sync = 2`,
    { params },
  );
}

/** `first` (when given) and markets of `source` the worker has finished, `count` in all, in a fixed order. */
export async function doneMarkets(h: Harness, source: SourceName, count: number, first?: string): Promise<string[]> {
  const rows = await h.warehouse.query<{ market: string }>(
    `SELECT market FROM internal.history_state FINAL
     WHERE source = {source:String} AND done AND market != {first:String}
     ORDER BY cityHash64(market), market LIMIT {count:UInt32}`,
    { params: { source, first: first ?? "", count: first ? count - 1 : count } },
  );
  return [...(first ? [first] : []), ...rows.map((row) => row.market)];
}
