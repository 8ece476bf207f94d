/**
 * The matcher on a real warehouse: markets of both venues as the snapshots leave them in
 * the latest tables, paired into `crossvenue.market_pairs` with the reasons, the
 * same-contract rule (one per market, conflicts rule it out), an admin's decision kept,
 * and the event pairs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateWarehouse, openWarehouse, toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClosedPassStep } from "./closed-pass";
import { runMatcher } from "./matcher";

const dir = mkdtempSync(join(tmpdir(), "epicenter-crossvenue-"));
let warehouse: Warehouse;
const now = Date.parse("2026-03-01T12:00:00Z");
const at = toDateTime64(now);
const clock = () => new Date(now);

interface Pair {
  polymarket_id: string;
  kalshi_ticker: string;
  relation: string;
  orientation: string;
  method: string;
  reasons: string[];
}

const pairs = () =>
  warehouse.query<Pair>(
    "SELECT polymarket_id, kalshi_ticker, relation, orientation, method, reasons FROM crossvenue.market_pairs FINAL ORDER BY polymarket_id, kalshi_ticker",
  );

/** A Polymarket market as the latest table holds it; `extra` for a later snapshot or a closed one. */
const polymarket = (
  id: string,
  event: string,
  question: string,
  groupItemTitle: string,
  endDate: string,
  extra: Record<string, unknown> = {},
) => ({
  sync_timestamp: at,
  id,
  event_id: event,
  question,
  groupItemTitle,
  outcomes: ["Yes", "No"],
  outcomePrices: [0.4, 0.6],
  closed: false,
  endDate: toDateTime64(Date.parse(endDate)),
  ...extra,
});

beforeAll(async () => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  await migrateWarehouse(warehouse);
  const supremeLeader = "Who will be the next Supreme Leader of Iran?";
  await warehouse.insert("polymarket.events_latest", [
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
  await warehouse.insert("polymarket.markets_latest", [
    polymarket(
      "p-mojtaba",
      "e-iran",
      "Will Mojtaba Khamenei be the next Supreme Leader of Iran?",
      "Mojtaba Khamenei",
      "2026-12-31T00:00:00Z",
    ),
    polymarket(
      "p-pahlavi",
      "e-iran",
      "Will Reza Pahlavi be the next Supreme Leader of Iran?",
      "Reza Pahlavi",
      "2026-12-31T00:00:00Z",
    ),
    polymarket("p-btc", "e-btc", "Will Bitcoin be above $120,000 on June 30?", "120,000", "2026-06-30T16:00:00Z"),
    polymarket("p-lakers", "e-nba", "Will the Lakers win the 2026 NBA Finals?", "", "2026-06-30T00:00:00Z"),
  ]);
  await warehouse.insert("kalshi.events_latest", [
    { sync_timestamp: at, event_ticker: "KXIRANLEADER", title: supremeLeader },
    { sync_timestamp: at, event_ticker: "KXBTCD-26JUN30", title: "Bitcoin price on Jun 30, 2026?" },
  ]);
  const kalshi = (ticker: string, event: string, title: string, yes: string, close: string, rules: string) => ({
    sync_timestamp: at,
    ticker,
    event_ticker: event,
    title,
    yes_sub_title: yes,
    status: "active",
    close_time: toDateTime64(Date.parse(close)),
    rules_primary: rules,
  });
  await warehouse.insert("kalshi.markets_latest", [
    kalshi("KXIRANLEADER-MKHA", "KXIRANLEADER", supremeLeader, "Mojtaba Khamenei", "2026-12-31T15:00:00Z", ""),
    // As older nested event pages send it: no title of its own, the question in the event's (issue 25, #5).
    kalshi("KXIRANLEADER-AARA", "KXIRANLEADER", "", "Arafi", "2026-12-31T15:00:00Z", ""),
    kalshi(
      "KXBTCD-26JUN30-T120000",
      "KXBTCD-26JUN30",
      "Bitcoin price above $120,000 on Jun 30, 2026?",
      "$120,000 or above",
      "2026-06-30T16:00:00Z",
      "Resolves to the CF Benchmarks Bitcoin Real-Time Index (BRTI) at 12pm EDT.",
    ),
    kalshi(
      "KXBTCD-26JUN30-T125000",
      "KXBTCD-26JUN30",
      "Bitcoin price above $125,000 on Jun 30, 2026?",
      "$125,000 or above",
      "2026-06-30T16:00:00Z",
      "Resolves to the CF Benchmarks Bitcoin Real-Time Index (BRTI) at 12pm EDT.",
    ),
  ]);
});

afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("runMatcher", () => {
  it("pairs the same contract, explains it, and keeps different outcomes, strikes and sources apart", async () => {
    const outcome = await runMatcher({ warehouse, clock });
    expect(outcome.candidates).toBeGreaterThan(0);
    const found = await pairs();
    const mojtaba = found.find(
      (pair) => pair.polymarket_id === "p-mojtaba" && pair.kalshi_ticker === "KXIRANLEADER-MKHA",
    );
    expect(mojtaba).toMatchObject({ relation: "same_contract", orientation: "same", method: "auto" });
    expect(mojtaba?.reasons.join("; ")).toContain('same outcome: "Mojtaba Khamenei"');
    // Another candidate of the same question is never the same contract.
    for (const pair of found.filter(
      (p) => p.polymarket_id === "p-pahlavi" || p.kalshi_ticker === "KXIRANLEADER-AARA",
    )) {
      expect(pair.relation, `${pair.polymarket_id} ${pair.kalshi_ticker}`).not.toBe("same_contract");
    }
    // The same strike, resolved by another source (Binance vs CF Benchmarks): related, with why.
    const btc = found.find((pair) => pair.kalshi_ticker === "KXBTCD-26JUN30-T120000");
    expect(btc).toMatchObject({ polymarket_id: "p-btc", relation: "related" });
    expect(btc?.reasons.join("; ")).toContain("differs: resolution sources differ: Binance vs CF Benchmarks");
    const otherStrike = found.find((pair) => pair.kalshi_ticker === "KXBTCD-26JUN30-T125000");
    expect(otherStrike?.relation ?? "different").not.toBe("same_contract");
    expect(found.some((pair) => pair.polymarket_id === "p-lakers")).toBe(false);
    const events = await warehouse.query<{ kalshi_event_ticker: string; same_contract_pairs: number }>(
      "SELECT kalshi_event_ticker, same_contract_pairs FROM crossvenue.event_pairs FINAL WHERE polymarket_event_id = 'e-iran'",
    );
    expect(events).toEqual([{ kalshi_event_ticker: "KXIRANLEADER", same_contract_pairs: 1 }]);
  });

  it("never overwrites an admin's decision, and never proposes a rejected pair again", async () => {
    await warehouse.insert("crossvenue.market_pairs", [
      {
        polymarket_id: "p-mojtaba",
        kalshi_ticker: "KXIRANLEADER-MKHA",
        relation: "same_contract",
        orientation: "same",
        score: 0.9,
        method: "rejected",
        reasons: ["checked by hand"],
        matched_at: at,
        reviewed_by: "admin-1",
        updated_at: toDateTime64(now + 1_000),
      },
    ]);
    const outcome = await runMatcher({ warehouse, clock: () => new Date(now + 60_000) });
    expect(outcome.reviewed).toBe(1);
    const mojtaba = (await pairs()).find(
      (pair) => pair.polymarket_id === "p-mojtaba" && pair.kalshi_ticker === "KXIRANLEADER-MKHA",
    );
    expect(mojtaba).toMatchObject({ method: "rejected", reasons: ["checked by hand"] });
  });

  it("after a snapshot pairs only the markets created since its last run, and leaves the rest as they were", async () => {
    const later = now + 2 * 3_600_000;
    const before = await pairs();
    await warehouse.insert("polymarket.markets_latest", [
      polymarket(
        "p-arafi",
        "e-iran",
        "Will Alireza Arafi be the next Supreme Leader of Iran?",
        "Alireza Arafi",
        "2026-12-31T00:00:00Z",
        { sync_timestamp: toDateTime64(later), createdAt: toDateTime64(later - 60_000) },
      ),
    ]);
    const outcome = await runMatcher(
      { warehouse, clock: () => new Date(later) },
      { since: new Date(later - 3_600_000) },
    );
    // Only the new market met candidates: the Supreme Leader markets it shares words with.
    expect(outcome.candidates).toBeGreaterThan(0);
    expect(outcome.candidates).toBeLessThanOrEqual(2);
    const after = await pairs();
    // KXIRANLEADER-AARA has no title of its own (its question is its event's): a candidate all the same.
    expect(
      after.find((pair) => pair.polymarket_id === "p-arafi" && pair.kalshi_ticker === "KXIRANLEADER-AARA"),
    ).toMatchObject({
      relation: "same_contract",
      method: "auto",
    });
    expect(after.filter((pair) => pair.polymarket_id !== "p-arafi")).toEqual(before);
  });

  it("retires in a full pass a pair of its own that no longer matches, and its event pair holds none", async () => {
    // Polymarket renames a group's placeholder market: another candidate, another contract.
    const renamed = now + 4 * 3_600_000;
    await warehouse.insert("polymarket.markets_latest", [
      polymarket(
        "p-arafi",
        "e-iran",
        "Will Ali Larijani be the next Supreme Leader of Iran?",
        "Ali Larijani",
        "2026-12-31T00:00:00Z",
        { sync_timestamp: toDateTime64(renamed), createdAt: toDateTime64(now + 2 * 3_600_000 - 60_000) },
      ),
    ]);
    const outcome = await runMatcher({ warehouse, clock: () => new Date(renamed) });
    expect(outcome.retired).toBe(1);
    const after = await pairs();
    expect(after.some((pair) => pair.polymarket_id === "p-arafi" && pair.kalshi_ticker === "KXIRANLEADER-AARA")).toBe(
      false,
    );
    // An admin's decision is not the matcher's to retire.
    expect(after.find((pair) => pair.polymarket_id === "p-mojtaba")).toMatchObject({ method: "rejected" });
    const events = await warehouse.query<{ same_contract_pairs: number }>(
      "SELECT same_contract_pairs FROM crossvenue.event_pairs FINAL WHERE polymarket_event_id = 'e-iran' AND kalshi_event_ticker = 'KXIRANLEADER'",
    );
    expect(events).toEqual([{ same_contract_pairs: 0 }]);
    // Nothing left to retire: the next full pass writes nothing.
    expect(await runMatcher({ warehouse, clock: () => new Date(renamed + 60_000) })).toMatchObject({
      retired: 0,
      written: 0,
    });
  });

  it("pairs closed markets once, a window of close dates at a time, resuming where it stood", async () => {
    const question = "Who will be the next Prime Minister of Canada?";
    await warehouse.insert("polymarket.markets_latest", [
      polymarket(
        "p-carney",
        "e-canada",
        "Will Mark Carney be the next Prime Minister of Canada?",
        "Mark Carney",
        "2025-04-28T00:00:00Z",
        { outcomePrices: [1, 0], closed: true },
      ),
    ]);
    await warehouse.insert("kalshi.markets_latest", [
      {
        sync_timestamp: at,
        ticker: "KXNEXTCANPM-25-MCAR",
        event_ticker: "KXNEXTCANPM-25",
        title: question,
        yes_sub_title: "Mark Carney",
        status: "finalized",
        close_time: toDateTime64(Date.parse("2025-04-28T15:00:00Z")),
        rules_primary: "",
      },
    ]);
    // Open markets only: the closed pair is not the recurring passes' to make.
    await runMatcher({ warehouse, clock });
    const carney = () => pairs().then((found) => found.find((pair) => pair.polymarket_id === "p-carney"));
    expect(await carney()).toBeUndefined();

    const deps = { warehouse, clock };
    const first = await runClosedPassStep(deps, { stepDays: 120 });
    // From the oldest close on either venue, one window long.
    expect(first).toMatchObject({ from: new Date("2025-04-28T00:00:00Z"), done: false });
    expect(first?.to).toEqual(new Date(Date.parse("2025-04-28T00:00:00Z") + 120 * 86_400_000));
    expect(await carney()).toMatchObject({ kalshi_ticker: "KXNEXTCANPM-25-MCAR", relation: "same_contract" });
    // Each step starts where the recorded one ended, and the last one reaches the present.
    const second = await runClosedPassStep(deps, { stepDays: 120 });
    expect(second?.from).toEqual(first?.to);
    let last = second;
    for (let step = 0; step < 5 && last && !last.done; step++) last = await runClosedPassStep(deps, { stepDays: 120 });
    expect(last).toMatchObject({ to: new Date(now), done: true });
    // Once over, never again.
    expect(await runClosedPassStep(deps, { stepDays: 120 })).toBeUndefined();
    const runs = await warehouse.query<{ steps: number; done: number }>(
      "SELECT toUInt8(count()) AS steps, toUInt8(countIf(done)) AS done FROM internal.matcher_runs WHERE pass = 'closed'",
    );
    expect(runs).toEqual([{ steps: 3, done: 1 }]);
  });
});
