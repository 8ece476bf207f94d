/**
 * Admin → Cross-venue on real embedded stores: the matcher proposes pairs from markets in
 * the latest tables, an admin lists, confirms, rejects and pairs by hand through the API,
 * every change is logged with who made it, and the matcher's next runs keep each decision.
 */
import {
  type CrossVenuePair,
  ZCrossVenuePair,
  ZCrossVenuePairs,
  ZMatcherStatus,
  ZPairReviews,
} from "@epicenter/contracts";
import { recordMatcherRun, runClosedPassStep, runMatcher } from "@epicenter/ingest";
import { toDateTime64 } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let boss: string;
let bossId: string;
const MOJTABA = { polymarket: "p-mojtaba", kalshi: "KXIRANLEADER-MKHA" };
const BTC = { polymarket: "p-btc", kalshi: "KXBTCD-26JUN30-T120000" };

beforeAll(async () => {
  // User SQL's snapshot moves on only when told to (the server's is taken after each sync
  // run, at most a minute stale): an admin's decision must move it on by itself.
  t = await createTestApp({
    env: { ADMIN_EMAILS: "boss@example.com", ALLOWED_EMAILS: "user@example.com" },
    sandboxStalenessMs: 3_600_000,
  });
  const at = toDateTime64(Date.now() - 60_000);
  const leader = "Who will be the next Supreme Leader of Iran?";
  await t.stores.warehouse.insert("polymarket.events_latest", [
    {
      sync_timestamp: at,
      id: "e-iran",
      title: "Iran's next Supreme Leader",
      description: "Resolves to the person named.",
    },
    {
      sync_timestamp: at,
      id: "e-btc",
      title: "Bitcoin above ___ on June 30?",
      description: "Resolves by the Binance BTC/USDT 1 minute candle for 12:00 ET on June 30.",
    },
  ]);
  const polymarket = (id: string, event: string, question: string, group: string, end: string, yes: number) => ({
    sync_timestamp: at,
    id,
    event_id: event,
    question,
    groupItemTitle: group,
    outcomes: ["Yes", "No"],
    outcomePrices: [yes, 1 - yes],
    yes_probability: yes,
    closed: false,
    endDate: toDateTime64(Date.parse(end)),
  });
  await t.stores.warehouse.insert("polymarket.markets_latest", [
    polymarket(
      "p-mojtaba",
      "e-iran",
      "Will Mojtaba Khamenei be the next Supreme Leader of Iran?",
      "Mojtaba Khamenei",
      "2026-12-31T00:00:00Z",
      0.31,
    ),
    polymarket("p-btc", "e-btc", "Will Bitcoin be above $120,000 on June 30?", "120,000", "2026-06-30T16:00:00Z", 0.22),
    polymarket("p-lakers", "e-nba", "Will the Lakers win the 2026 NBA Finals?", "", "2026-06-30T00:00:00Z", 0.08),
  ]);
  await t.stores.warehouse.insert("kalshi.events_latest", [
    { sync_timestamp: at, event_ticker: "KXIRANLEADER", title: leader },
    { sync_timestamp: at, event_ticker: "KXBTCD-26JUN30", title: "Bitcoin price on Jun 30, 2026?" },
  ]);
  const kalshi = (ticker: string, event: string, title: string, yes: string, close: string, last: number) => ({
    sync_timestamp: at,
    ticker,
    event_ticker: event,
    title,
    yes_sub_title: yes,
    status: "active",
    close_time: toDateTime64(Date.parse(close)),
    last_price_dollars: last,
    rules_primary: event.startsWith("KXBTCD") ? "Resolves to the CF Benchmarks Bitcoin Real-Time Index (BRTI)." : "",
  });
  await t.stores.warehouse.insert("kalshi.markets_latest", [
    kalshi("KXIRANLEADER-MKHA", "KXIRANLEADER", leader, "Mojtaba Khamenei", "2026-12-31T15:00:00Z", 0.29),
    kalshi(
      "KXBTCD-26JUN30-T120000",
      "KXBTCD-26JUN30",
      "Bitcoin price above $120,000 on Jun 30, 2026?",
      "$120,000 or above",
      "2026-06-30T16:00:00Z",
      0.2,
    ),
    // Too few words in common with any Polymarket market for the matcher to propose them.
    kalshi("KXNBA-26-LAL", "KXNBA-26", "Pro Basketball Champion?", "Los Angeles L", "2026-06-30T00:00:00Z", 0.07),
    kalshi("KXTEHRAN-MOJ", "KXTEHRAN", "Successor in Tehran by 2027?", "Mojtaba", "2026-12-31T15:00:00Z", 0.3),
  ]);
  await runMatcher({ warehouse: t.stores.warehouse });
  boss = (await signIn(t, "boss@example.com")).access_token;
  const session = await t.app.request("/api/auth/session", bearer(boss));
  bossId = ((await session.json()) as { user: { id: string } }).user.id;
});
afterAll(async () => {
  await t.close();
});

const list = async (query = "") => {
  const response = await t.app.request(`/api/admin/crossvenue/pairs${query}`, bearer(boss));
  expect(response.status).toBe(200);
  return ZCrossVenuePairs.parse(await response.json());
};
const find = (pairs: CrossVenuePair[], pair: { polymarket: string; kalshi: string }) =>
  pairs.find((entry) => entry.polymarket_id === pair.polymarket && entry.kalshi_ticker === pair.kalshi);
const post = (path: string, body?: unknown) =>
  t.app.request(
    `/api/admin/crossvenue/pairs${path}`,
    body === undefined ? bearer(boss, "POST") : json(body, { token: boss }),
  );
const decide = (pair: { polymarket: string; kalshi: string }, action: "confirm" | "reject", body?: unknown) =>
  post(`/${pair.polymarket}/${pair.kalshi}/${action}`, body);
const stored = async (pair: { polymarket: string; kalshi: string }) => find((await list("?method=all")).pairs, pair);

describe("Admin → Cross-venue", () => {
  it("lists the matcher's candidates with both markets, prices, score and reasons, filtered and paged", async () => {
    const candidates = await list();
    expect(candidates.counts).toEqual({ auto: 2, model: 0, confirmed: 0, rejected: 0 });
    expect(candidates.total).toBe(2);
    // The same contract first.
    expect(candidates.pairs.map((pair) => pair.kalshi_ticker)).toEqual([MOJTABA.kalshi, BTC.kalshi]);
    expect(candidates.pairs[0]).toMatchObject({
      polymarket: {
        question: "Will Mojtaba Khamenei be the next Supreme Leader of Iran?",
        subtitle: "Mojtaba Khamenei",
        yes_price: 0.31,
      },
      kalshi: { title: "Who will be the next Supreme Leader of Iran?", subtitle: "Mojtaba Khamenei", yes_price: 0.29 },
      relation: "same_contract",
      orientation: "same",
      method: "auto",
      reviewed_by: null,
      reviewer_email: null,
    });
    expect(candidates.pairs[0]?.score).toBeGreaterThan(0.6);
    expect(candidates.pairs[0]?.reasons.join("; ")).toContain('same outcome: "Mojtaba Khamenei"');

    expect((await list("?relation=related")).pairs.map((pair) => pair.kalshi_ticker)).toEqual([BTC.kalshi]);
    expect((await list("?q=bitcoin%20120")).pairs.map((pair) => pair.kalshi_ticker)).toEqual([BTC.kalshi]);
    expect((await list("?q=KXIRANLEADER")).pairs.map((pair) => pair.polymarket_id)).toEqual([MOJTABA.polymarket]);
    const second = await list("?limit=1&offset=1");
    expect(second).toMatchObject({ total: 2, pairs: [{ kalshi_ticker: BTC.kalshi }] });
    expect((await list("?method=confirmed")).pairs).toEqual([]);
  });

  it("answers 401 without a session, 403 to a user who is not an admin, 400 for a filter it does not know", async () => {
    expect((await t.app.request("/api/admin/crossvenue/pairs")).status).toBe(401);
    const user = (await signIn(t, "user@example.com")).access_token;
    for (const [path, init] of [
      ["/api/admin/crossvenue/pairs", bearer(user)],
      ["/api/admin/crossvenue/reviews", bearer(user)],
      ["/api/admin/crossvenue/matcher", bearer(user)],
      [`/api/admin/crossvenue/pairs/${MOJTABA.polymarket}/${MOJTABA.kalshi}/reject`, bearer(user, "POST")],
      [
        "/api/admin/crossvenue/pairs",
        json(
          { polymarket_id: "p-lakers", kalshi_ticker: "KXNBA-26-LAL", relation: "related", orientation: "same" },
          { token: user },
        ),
      ],
    ] as const) {
      expect((await t.app.request(path, init)).status, path).toBe(403);
    }
    const badMethod = await t.app.request("/api/admin/crossvenue/pairs?method=maybe", bearer(boss));
    expect(badMethod.status).toBe(400);
    expect(((await badMethod.json()) as { error: { message: string } }).error.message).toContain("method");
    const badRelation = await decide(BTC, "confirm", { relation: "identical" });
    expect(badRelation.status).toBe(400);
    expect(await post("", { polymarket_id: "p-lakers", relation: "related", orientation: "same" })).toHaveProperty(
      "status",
      400,
    );
    expect((await decide({ polymarket: "p-lakers", kalshi: "KXNBA-26-LAL" }, "reject")).status).toBe(404);
  });

  it("confirms a pair with no body, keeping the matcher's relation, and the matcher keeps it confirmed", async () => {
    const response = await decide(BTC, "confirm");
    expect(response.status).toBe(200);
    const confirmed = ZCrossVenuePair.parse(await response.json());
    expect(confirmed).toMatchObject({
      method: "confirmed",
      relation: "related",
      reviewed_by: bossId,
      reviewer_email: "boss@example.com",
    });
    await runMatcher({ warehouse: t.stores.warehouse });
    expect(await stored(BTC)).toMatchObject({
      method: "confirmed",
      relation: "related",
      reviewer_email: "boss@example.com",
    });
    expect((await list("?method=confirmed")).pairs.map((pair) => pair.kalshi_ticker)).toEqual([BTC.kalshi]);
    // User SQL and the dashboards (the arbitrage monitor prices checked pairs) see it without a sync run.
    const method = async () => {
      const answer = await t.app.request(
        "/api/query",
        json(
          { query: `SELECT method FROM crossvenue.market_pairs FINAL WHERE polymarket_id = '${BTC.polymarket}'` },
          { token: boss },
        ),
      );
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { result: { data: Array<{ method: string }> } }).result.data[0]?.method;
    };
    await expect.poll(method, { timeout: 30_000, interval: 250 }).toBe("confirmed");
  });

  it("pairs two markets the matcher did not propose, with the matcher's reasons, and a run keeps the pair", async () => {
    const response = await post("", {
      polymarket_id: "p-lakers",
      kalshi_ticker: "KXNBA-26-LAL",
      relation: "same_contract",
      orientation: "same",
    });
    expect(response.status).toBe(201);
    expect(ZCrossVenuePair.parse(await response.json())).toMatchObject({
      polymarket: { question: "Will the Lakers win the 2026 NBA Finals?", yes_price: 0.08 },
      kalshi: { title: "Pro Basketball Champion?", subtitle: "Los Angeles L", yes_price: 0.07 },
      method: "confirmed",
      relation: "same_contract",
      reviewer_email: "boss@example.com",
    });
    await runMatcher({ warehouse: t.stores.warehouse });
    expect(await stored({ polymarket: "p-lakers", kalshi: "KXNBA-26-LAL" })).toMatchObject({
      method: "confirmed",
      relation: "same_contract",
    });
  });

  it("names the market that is not in the latest snapshot", async () => {
    const missingKalshi = await post("", {
      polymarket_id: "p-lakers",
      kalshi_ticker: "KXNOPE-1",
      relation: "related",
      orientation: "same",
    });
    expect(missingKalshi.status).toBe(404);
    expect(((await missingKalshi.json()) as { error: { message: string } }).error.message).toBe(
      "There is no Kalshi market KXNOPE-1 in the latest snapshot.",
    );
    const missingBoth = await post("", {
      polymarket_id: "999999",
      kalshi_ticker: "KXNOPE-1",
      relation: "related",
      orientation: "same",
    });
    expect(((await missingBoth.json()) as { error: { message: string } }).error.message).toBe(
      "There is no Polymarket market 999999 and no Kalshi market KXNOPE-1 in the latest snapshot.",
    );
  });

  it("lets a confirmed same contract take the matcher's place, and refuses a second confirmed one for a market", async () => {
    const response = await post("", {
      polymarket_id: MOJTABA.polymarket,
      kalshi_ticker: "KXTEHRAN-MOJ",
      relation: "same_contract",
      orientation: "same",
    });
    expect(response.status).toBe(201);
    const displaced = await stored(MOJTABA);
    expect(displaced).toMatchObject({ method: "auto", relation: "related" });
    expect(displaced?.reasons.at(-1)).toBe("differs: another market of the other venue matches it better");
    await runMatcher({ warehouse: t.stores.warehouse });
    expect(await stored(MOJTABA)).toMatchObject({ method: "auto", relation: "related" });

    const conflict = await decide(MOJTABA, "confirm", { relation: "same_contract" });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { message: string } }).error.message).toContain("KXTEHRAN-MOJ");
  });

  it("rejects a pair, and the matcher never proposes it again", async () => {
    const eventPairs = () =>
      t.stores.warehouse.query<{ market_pairs: number }>(
        "SELECT market_pairs FROM crossvenue.event_pairs FINAL WHERE polymarket_event_id = 'e-iran' AND kalshi_event_ticker = 'KXIRANLEADER'",
      );
    expect(await eventPairs()).toEqual([{ market_pairs: 1 }]);
    const response = await decide(MOJTABA, "reject");
    expect(response.status).toBe(200);
    expect(ZCrossVenuePair.parse(await response.json())).toMatchObject({
      method: "rejected",
      reviewer_email: "boss@example.com",
    });
    // The events' count leaves the rejected pair out.
    expect(await eventPairs()).toEqual([{ market_pairs: 0 }]);
    await runMatcher({ warehouse: t.stores.warehouse });
    await runMatcher({ warehouse: t.stores.warehouse });
    expect(await stored(MOJTABA)).toMatchObject({ method: "rejected" });
    const after = await list();
    expect(find(after.pairs, MOJTABA)).toBeUndefined();
    expect(after.counts).toEqual({ auto: 0, model: 0, confirmed: 3, rejected: 1 });
    expect((await list("?method=rejected")).pairs.map((pair) => pair.kalshi_ticker)).toEqual([MOJTABA.kalshi]);
  });

  it("logs every change with who made it and when, newest first, out of reach of user SQL", async () => {
    const response = await t.app.request("/api/admin/crossvenue/reviews", bearer(boss));
    expect(response.status).toBe(200);
    const { reviews, total } = ZPairReviews.parse(await response.json());
    expect(total).toBe(4);
    expect(reviews.map((review) => [review.action, review.polymarket_id, review.kalshi_ticker])).toEqual([
      ["reject", MOJTABA.polymarket, MOJTABA.kalshi],
      ["manual", MOJTABA.polymarket, "KXTEHRAN-MOJ"],
      ["manual", "p-lakers", "KXNBA-26-LAL"],
      ["confirm", BTC.polymarket, BTC.kalshi],
    ]);
    expect(reviews[2]).toMatchObject({
      polymarket_question: "Will the Lakers win the 2026 NBA Finals?",
      kalshi_title: "Pro Basketball Champion?",
      relation: "same_contract",
      reviewed_by: bossId,
      reviewer_email: "boss@example.com",
    });
    const sql = await t.app.request(
      "/api/query",
      json({ query: "SELECT * FROM internal.pair_reviews" }, { token: boss }),
    );
    expect(sql.status).toBe(400);
    const catalog = await (await t.app.request("/api/tables", bearer(boss))).text();
    expect(catalog).toContain("market_pairs");
    expect(catalog).not.toContain("pair_reviews");
  });

  it("says where the matcher stands: its last full pass, its last run, and the pass over closed markets", async () => {
    const status = async () => {
      const response = await t.app.request("/api/admin/crossvenue/matcher", bearer(boss));
      expect(response.status).toBe(200);
      return ZMatcherStatus.parse(await response.json());
    };
    // The runs above were the test's own calls, which the scheduler's log does not hold.
    expect(await status()).toEqual({
      last_full: null,
      last_run: null,
      closed_pass: { state: "waiting", paired_through: null, windows: 0 },
    });
    const warehouse = t.stores.warehouse;
    const full = await runMatcher({ warehouse });
    await recordMatcherRun(warehouse, { startedAt: new Date(Date.now() - 120_000), pass: "full", outcome: full });
    const since = await runMatcher({ warehouse }, { since: new Date(Date.now() - 3_600_000) });
    await recordMatcherRun(warehouse, { startedAt: new Date(Date.now() - 60_000), pass: "new", outcome: since });
    const step = await runClosedPassStep({ warehouse }, { stepDays: 3650 });
    const now = await status();
    expect(now.last_full).toMatchObject({ pass: "full", candidates: full.candidates, written: full.written });
    expect(now.last_run).toMatchObject({ pass: "new", candidates: since.candidates });
    // Nothing here is closed: the pass has nothing to pair and ends on its first window.
    expect(step?.done).toBe(true);
    expect(now.closed_pass).toMatchObject({ state: "done", windows: 1 });
  });

  it("leaves no setting of its reads on the warehouse's connections, where the matcher's joins run next", async () => {
    for (const path of ["/api/admin/crossvenue/pairs?method=all", "/api/admin/crossvenue/reviews"]) {
      expect((await t.app.request(path, bearer(boss))).status).toBe(200);
    }
    // Every pooled connection at once, each asked what it would join with.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.stores.warehouse.query<{ nulls: number }>("SELECT getSetting('join_use_nulls') AS nulls"),
      ),
    );
    expect(answers.map(([row]) => Number(row?.nulls))).toEqual(Array(8).fill(0));
  });
});
