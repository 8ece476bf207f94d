/**
 * The adjudicator end to end: the matcher on a real warehouse (chDB), the pairs it cannot
 * settle alone put to a model speaking the OpenAI protocol (the fake LLM, scripted) through
 * the same transport the server builds from Seismo's configuration, and the answers stored,
 * checked against the rules, used or not, and never over an admin's decision.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMatcher } from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlm, startFakeLlm } from "../../testing/fake-llm";
import { seismoAdjudicator } from "./adjudicator";

const dir = mkdtempSync(join(tmpdir(), "epicenter-adjudicator-"));
let warehouse: Warehouse;
let llm: FakeLlm;
const now = Date.parse("2026-03-01T12:00:00Z");
const at = toDateTime64(now);

const PM_RULES =
  'This market will resolve to "Yes" if the listed individual is named Supreme Leader of Iran by December 31, 2026, 11:59 PM ET. The resolution source will be official statements of the Iranian government only.';
const KALSHI_RULES = (name: string) =>
  `If ${name} is named Supreme Leader of Iran before Jan 1, 2027, then the market resolves to Yes.`;
const KALSHI_SECONDARY = "Official statements of the Iranian government or a consensus of media reporting.";

const pairs = () =>
  warehouse.query<{
    polymarket_id: string;
    kalshi_ticker: string;
    relation: string;
    method: string;
    reasons: string[];
  }>(
    "SELECT polymarket_id, kalshi_ticker, relation, method, reasons FROM crossvenue.market_pairs FINAL ORDER BY polymarket_id",
  );
const judgements = () =>
  warehouse.query<{ polymarket_id: string; relation: string; accepted: boolean; error: string; model: string }>(
    "SELECT polymarket_id, relation, accepted, error, model FROM internal.pair_judgements FINAL ORDER BY polymarket_id",
  );

async function addCandidate(name: string, polymarketId: string, ticker: string): Promise<void> {
  await warehouse.insert("polymarket.markets_latest", [
    {
      sync_timestamp: at,
      id: polymarketId,
      event_id: "e-iran",
      question: `Will ${name} be the next Supreme Leader of Iran in 2026?`,
      groupItemTitle: name,
      outcomes: ["Yes", "No"],
      outcomePrices: [0.4, 0.6],
      closed: false,
      endDate: toDateTime64(Date.parse("2026-12-31T12:00:00Z")),
    },
  ]);
  await warehouse.insert("kalshi.markets_latest", [
    {
      sync_timestamp: at,
      ticker,
      event_ticker: "KXIRANLEADER",
      title: `Will ${name} be the next Supreme Leader of Iran before Jan 1, 2027?`,
      yes_sub_title: name,
      status: "active",
      close_time: toDateTime64(Date.parse("2026-12-31T15:00:00Z")),
      rules_primary: KALSHI_RULES(name),
      rules_secondary: KALSHI_SECONDARY,
    },
  ]);
}

const answer = (judgement: Record<string, unknown>) => ({ text: JSON.stringify(judgement) });

/** The model's answer for a pair whose rules name different sources, quoting both. */
const SOURCE_DIFFERS = answer({
  relation: "related",
  orientation: "same",
  differing_part: "the resolution source",
  polymarket_quote: "official statements of the Iranian government only",
  kalshi_quote: "a consensus of media reporting",
});

beforeAll(async () => {
  llm = await startFakeLlm();
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.insert("polymarket.events_latest", [
    { sync_timestamp: at, id: "e-iran", title: "Iran's next Supreme Leader in 2026?", description: PM_RULES },
  ]);
  await warehouse.insert("kalshi.events_latest", [
    { sync_timestamp: at, event_ticker: "KXIRANLEADER", title: "Next Supreme Leader of Iran?" },
  ]);
});

afterAll(async () => {
  await warehouse?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the adjudicator", () => {
  it("is there only where Seismo's endpoint is configured", () => {
    expect(seismoAdjudicator({})).toBeUndefined();
    expect(seismoAdjudicator({ baseUrl: llm.url, model: "judge" })?.model).toBe("judge");
  });

  it("reads a pair the rules call the same contract, and its answer, quoted from both rules, settles it", async () => {
    await addCandidate("Mojtaba Khamenei", "p-mojtaba", "KXIRANLEADER-MKHA");
    const adjudicator = seismoAdjudicator({ baseUrl: llm.url, model: "judge" });
    // The rules alone: the same contract.
    await runMatcher({ warehouse, clock: () => new Date(now) });
    expect((await pairs())[0]).toMatchObject({ relation: "same_contract", method: "auto" });

    llm.script([SOURCE_DIFFERS]);
    await runMatcher({ warehouse, clock: () => new Date(now + 60_000), ...(adjudicator ? { adjudicator } : {}) });
    const [pair] = await pairs();
    expect(pair).toMatchObject({ relation: "related", method: "model" });
    expect(pair?.reasons).toContain("model (judge): related, differs in the resolution source");
    expect(pair?.reasons).toContain(`Kalshi's rules: "a consensus of media reporting"`);
    // Both rules went to the model, with a strict answer schema.
    const request = llm.requests.at(-1)?.body as unknown as {
      messages: Array<{ content: string }>;
      response_format?: { type: string; json_schema?: { name: string; strict?: boolean } };
    };
    expect(JSON.stringify(request.messages)).toContain("official statements of the Iranian government only");
    expect(JSON.stringify(request.messages)).toContain(KALSHI_SECONDARY);
    expect(request.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "pair_judgement" } });
    expect(await judgements()).toEqual([
      { polymarket_id: "p-mojtaba", relation: "related", accepted: true, error: "", model: "judge" },
    ]);

    // Asked once per version of the texts: the next run reads the stored answer.
    const asked = llm.requests.length;
    await runMatcher({ warehouse, clock: () => new Date(now + 120_000), ...(adjudicator ? { adjudicator } : {}) });
    expect(llm.requests.length).toBe(asked);
    expect((await pairs())[0]).toMatchObject({ relation: "related", method: "model" });
  });

  it("does not use an answer whose quote is not in the rules, nor a failed call", async () => {
    await addCandidate("Reza Pahlavi", "p-pahlavi", "KXIRANLEADER-RPAH");
    const adjudicator = seismoAdjudicator({ baseUrl: llm.url, model: "judge" });
    llm.script([{ status: 500 }, { status: 500 }]);
    await runMatcher({ warehouse, clock: () => new Date(now + 180_000), ...(adjudicator ? { adjudicator } : {}) });
    // A failed call is not stored: the pair stays the matcher's own and is asked again.
    expect((await judgements()).map((row) => row.polymarket_id)).toEqual(["p-mojtaba"]);
    expect((await pairs()).find((pair) => pair.polymarket_id === "p-pahlavi")).toMatchObject({ method: "auto" });

    llm.script([
      answer({
        relation: "different",
        orientation: null,
        differing_part: "the person",
        polymarket_quote: "Pahlavi is the rightful heir.",
        kalshi_quote: KALSHI_RULES("Reza Pahlavi"),
      }),
    ]);
    await runMatcher({ warehouse, clock: () => new Date(now + 240_000), ...(adjudicator ? { adjudicator } : {}) });
    const pahlavi = (await pairs()).find((pair) => pair.polymarket_id === "p-pahlavi");
    expect(pahlavi).toMatchObject({ relation: "same_contract", method: "auto" });
    expect((await judgements()).find((row) => row.polymarket_id === "p-pahlavi")).toMatchObject({
      accepted: false,
      error: "the Polymarket quote is not in its rules",
    });
  });

  it("never asks about a pair an admin decided", async () => {
    await warehouse.insert("crossvenue.market_pairs", [
      {
        polymarket_id: "p-pahlavi",
        kalshi_ticker: "KXIRANLEADER-RPAH",
        polymarket_event_id: "e-iran",
        kalshi_event_ticker: "KXIRANLEADER",
        relation: "same_contract",
        orientation: "same",
        score: 0.9,
        method: "confirmed",
        reasons: ["checked by hand"],
        matched_at: at,
        reviewed_by: "admin-1",
        updated_at: toDateTime64(now + 300_000),
      },
    ]);
    await warehouse.command("TRUNCATE TABLE internal.pair_judgements");
    const asked = llm.requests.length;
    const adjudicator = seismoAdjudicator({ baseUrl: llm.url, model: "judge" });
    llm.script([SOURCE_DIFFERS]);
    await runMatcher({ warehouse, clock: () => new Date(now + 360_000), ...(adjudicator ? { adjudicator } : {}) });
    // Only the model's own pair was asked again (its stored answer gone); the confirmed one never.
    const sent = llm.requests.slice(asked).map((request) => JSON.stringify(request.body.messages));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("Mojtaba Khamenei");
    expect((await pairs()).find((pair) => pair.polymarket_id === "p-pahlavi")).toMatchObject({
      method: "confirmed",
      reasons: ["checked by hand"],
    });
  });
});
