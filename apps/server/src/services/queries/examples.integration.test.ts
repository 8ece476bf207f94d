/**
 * Every example of the gallery runs in the sandbox on an archive the way an install fills
 * it: snapshots, the closed-market backfill and the venues' history fetched from the
 * replay server. The examples only history makes possible return rows.
 */

import { queryParameters } from "@epicenter/contracts";
import {
  captureBooks,
  createRateLimiter,
  type ReplayServer,
  replayIngestConfig,
  runBackfillStep,
  runHistoryStep,
  runSync,
  SOURCES,
  silentLogger,
  startReplayServer,
} from "@epicenter/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { EXAMPLE_QUERIES } from "./examples";

let t: TestApp;
let replay: ReplayServer;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" } });
  token = (await signIn(t, "ada@example.com")).access_token;
  replay = await startReplayServer({ catalogSize: 60, historicalCutoff: Date.now() - 200 * 86_400_000 });
  const deps = {
    warehouse: t.stores.warehouse,
    config: replayIngestConfig(replay),
    logger: silentLogger,
    // Far above the venues' limits: this test is about the examples, not the rate.
    rateLimiters: new Map(
      ["polymarket", "polymarket-clob", "polymarket-data", "polymarket-clob-books", "kalshi"].map((name) => [
        name,
        createRateLimiter({ requests: 100_000, perMs: 1_000 }),
      ]),
    ),
  };
  for (const source of SOURCES) {
    const run = await runSync(deps, { source });
    expect(run.success).toBe(true);
    await captureBooks(deps, source, run.sync_timestamp, { intervalSeconds: 600 });
    while (!(await runBackfillStep(deps, source, { pagesPerStep: 20 })).done) {}
    for (;;) {
      const step = await runHistoryStep(deps, source, { markets: 200 });
      expect(step.run.error).toBeNull();
      if (!step.outcome?.more) break;
    }
  }
}, 600_000);

afterAll(async () => {
  await replay?.close();
  await t?.close();
});

/** Values for the examples' parameters, as a user would pick them: a market with history, the last month. */
async function paramsFor(sql: string): Promise<Record<string, string>> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const [market] = await t.stores.warehouse.query<{ id: string }>("SELECT id FROM polymarket.prices LIMIT 1");
  const id = market?.id ?? "";
  const [booked] = await t.stores.warehouse.query<{ ticker: string }>(
    "SELECT ticker FROM kalshi.books WHERE length(bid_price) > 0 LIMIT 1",
  );
  const known: Record<string, string> = {
    market_id: id,
    polymarket_id: id,
    ticker: booked?.ticker ?? "",
    from: day(-30),
    to: day(0),
    days: "3650",
  };
  return Object.fromEntries(queryParameters(sql).map(({ name }) => [name, known[name] ?? ""]));
}

describe("the example queries", () => {
  it("include parameterised ones: a market by id and a date window", () => {
    const names = EXAMPLE_QUERIES.map((example) =>
      queryParameters(example.sql)
        .map((p) => p.name)
        .join(","),
    );
    expect(names).toContain("market_id");
    expect(names).toContain("from,to");
  });

  for (const example of EXAMPLE_QUERIES) {
    it(`runs "${example.title}"`, async () => {
      const params = await paramsFor(example.sql);
      const response = await t.app.request(
        "/api/query/rows",
        json({ query: example.sql, limit: 1000, ...(Object.keys(params).length > 0 ? { params } : {}) }, { token }),
      );
      const body = (await response.json()) as { row_count?: number; error?: { message: string } };
      expect(body.error?.message).toBeUndefined();
      expect(response.status).toBe(200);
      if (
        /polymarket\.prices|polymarket\.daily_closes|kalshi\.candles|\.trades\b|\.books\b|\.resolutions\b/.test(
          example.sql,
        )
      ) {
        expect(body.row_count, "an example of the history returns rows").toBeGreaterThan(0);
      }
    });
  }

  it("the calibration over the daily closes answers what the same question over every point does", async () => {
    const calibration = EXAMPLE_QUERIES.find((example) => example.sql.includes("polymarket.daily_closes"));
    expect(calibration).toBeDefined();
    // The rollup's own rows equal each (id, outcome, day)'s last point.
    const [rollup] = await t.stores.warehouse.query<{ rollup: string; points: string }>(
      `SELECT
         (SELECT toString(groupArraySorted(1000000)((id, outcome, day, close)))
            FROM (SELECT id, outcome, day, argMax(close, last_ts) AS close FROM polymarket.daily_closes GROUP BY id, outcome, day)) AS rollup,
         (SELECT toString(groupArraySorted(1000000)((id, outcome, day, close)))
            FROM (SELECT id, outcome, toDate(ts) AS day, argMax(price, ts) AS close FROM polymarket.prices GROUP BY id, outcome, day)) AS points`,
    );
    expect(rollup?.rollup.length).toBeGreaterThan(10);
    expect(rollup?.rollup).toBe(rollup?.points);

    const fromPoints = (calibration?.sql ?? "").replace(
      /before AS \([\s\S]*?GROUP BY d\.id\n\)/,
      `before AS (
  SELECT p.id AS id, argMax(p.price, p.ts) AS price
  FROM polymarket.prices AS p
  INNER JOIN resolved AS r ON p.id = r.id AND p.outcome = r.yes_outcome
  WHERE toDate(p.ts) < toDate(r.asked_at) AND toDate(p.ts) >= toDate(r.asked_at) - 7
  GROUP BY p.id
)`,
    );
    expect(fromPoints).toContain("polymarket.prices");
    const run = async (sql: string) => {
      const response = await t.app.request("/api/query/rows", json({ query: sql, limit: 1000 }, { token }));
      expect(response.status).toBe(200);
      return ((await response.json()) as { rows: unknown[] }).rows;
    };
    const answer = await run(calibration?.sql ?? "");
    expect(answer.length).toBeGreaterThan(0);
    expect(answer).toEqual(await run(fromPoints));
  });
});
