/**
 * The resolutions ledger on recorded objects of both venues (`fixtures/polymarket/
 * resolutions/`, the nested Kalshi events of 2026-03-01), written through the real
 * mappings into the snapshot tables at the times the archive would have captured them,
 * then read back from `<venue>.resolutions` and `crossvenue.resolutions`.
 *
 * Where a test needs a capture before the recorded one (open, proposed, disputed), it is
 * the recorded object with only its state fields set back; each says which.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoHistory } from "../demo-history";
import { sourceNamed } from "../sources";
import { mapKalshiEvent } from "../sources/kalshi/map";
import { fixture } from "../testing/fixtures";
import { type Json, mapInEngine } from "../testing/gamma-objects";
import { type Harness, startHarness } from "../testing/harness";
import { DEFAULT_WRITER_LIMITS, SnapshotWriter } from "../write/snapshot-writer";
import { rebuildResolutions, recordResolutions } from "./resolutions";
import { publishLatest } from "./run-history";
import { runSync } from "./run-sync";

const DIR = "polymarket/resolutions/";
const NYC = fixture<Json>(`${DIR}gamma_event_nyc_temperature_disputed_128661.json`);
const DISPUTED = fixture<Json>(`${DIR}gamma_market_resolved_after_dispute_1021160.json`);
const PLAIN_NO = fixture<Json>(`${DIR}gamma_market_resolved_842093_trimmed.json`);
const FIFTY_FIFTY = fixture<Json>(`${DIR}gamma_market_5050_5279716_trimmed.json`);
const AMM_PRICE = fixture<Json>(`${DIR}gamma_market_closed_with_a_price_40_trimmed.json`);
const KALSHI = fixture<Json[]>("kalshi/events/events_nested_iran_38ev_763mkts_2026-03-01.json");
const GAMMA_2025 = fixture<Json[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json");
const GAMMA_2021 = fixture<Json[]>("polymarket/events/gamma_events_default_order_old_2021.json");

type Row = Record<string, unknown>;

/**
 * Every settled market with its outcome type, written by hand over the objects as the
 * venues sent them (`raw`), not over the mapped columns: Polymarket's resolved status (or no
 * status and closed) with payouts for prices; Kalshi's result. The newest such capture wins.
 */
const SETTLED_BY_RAW = `
  SELECT 'polymarket' AS venue, id AS market_id,
    multiIf(prices = [1, 0], 'yes', prices = [0, 1], 'no', prices = [0.5, 0.5], 'split', '') AS outcome_type
  FROM (
    SELECT id, argMax(JSONExtractString(raw, 'umaResolutionStatus'), sync_timestamp) AS status,
      arrayMap(x -> toFloat64OrNull(x), JSONExtract(argMax(JSONExtractString(raw, 'outcomePrices'), sync_timestamp), 'Array(String)')) AS quoted,
      -- The oracle's resolved AMM markets quote the pool: 0.999999 stands for 1.
      if(status = 'resolved' AND arrayAll(x -> abs(x - round(x * 2) / 2) < 0.0001, quoted),
        arrayMap(x -> round(x * 2) / 2, quoted), quoted) AS prices
    FROM polymarket.markets
    WHERE JSONExtractString(raw, 'umaResolutionStatus') = 'resolved'
      OR (JSONExtractString(raw, 'umaResolutionStatus') = '' AND JSONExtractBool(raw, 'closed'))
    GROUP BY id
  ) WHERE outcome_type != ''
  UNION ALL
  SELECT 'kalshi', ticker, argMax(JSONExtractString(raw, 'result'), sync_timestamp)
  FROM kalshi.markets WHERE JSONExtractString(raw, 'result') != '' GROUP BY ticker`;

/** A market that Gamma served alone (`/markets/{id}`), in an event of its own as `/events` nests it. */
const alone = (market: Json): Json => ({ id: `solo-${String(market.id)}`, title: market.question, markets: [market] });

const withMarkets = (event: Json, change: (market: Json) => Json): Json => ({
  ...event,
  markets: (event.markets as Json[]).map(change),
});

/** The market as it was before its resolution began: open, trading at `yes`. */
const open = (market: Json, yes: number): Json => {
  const { umaResolutionStatus: _status, closedTime: _closed, umaEndDate: _end, ...rest } = market;
  return {
    ...rest,
    closed: false,
    umaResolutionStatuses: "[]",
    outcomePrices: JSON.stringify([String(yes), String(1 - yes)]),
  };
};

describe("the resolutions ledger", () => {
  let h: Harness;

  const polymarketRun = async (events: Json[], syncTimestamp: string) => {
    const rows = await mapInEngine(h.warehouse, events, { syncTimestamp });
    expect(rows.rejections).toEqual([]);
    await publishLatest(h.warehouse, sourceNamed("polymarket"), syncTimestamp);
    await recordResolutions(h.warehouse, "polymarket", syncTimestamp);
  };

  const kalshiRun = async (events: Json[], syncTimestamp: string) => {
    const writer = new SnapshotWriter(h.warehouse, DEFAULT_WRITER_LIMITS, "stream");
    for (const raw of events) {
      const mapped = mapKalshiEvent(raw, { syncTimestamp });
      if (mapped.event) await writer.add("kalshi.events", mapped.event.event_ticker, mapped.event);
      for (const market of mapped.markets) await writer.add("kalshi.markets", market.ticker, market);
    }
    await writer.flush();
    await publishLatest(h.warehouse, sourceNamed("kalshi"), syncTimestamp);
    await recordResolutions(h.warehouse, "kalshi", syncTimestamp);
  };

  const ledger = async (venue: string, id: string): Promise<Row | undefined> =>
    (
      await h.warehouse.query<Row>(`SELECT * FROM ${venue}.resolutions FINAL WHERE market_id = {id:String}`, {
        params: { id },
      })
    )[0];

  const kalshiEvent = (ticker: string) => {
    const event = KALSHI.find((candidate) => candidate.event_ticker === ticker);
    if (!event) throw new Error(`no recorded Kalshi event ${ticker}`);
    return event;
  };

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("follows a disputed Polymarket market from open through proposed and disputed to resolved, after its end date", async () => {
    const band = "1046096";
    const state = (market: Json, change: Json) => (market.id === band ? { ...open(market, 0), ...change } : market);
    // 29 Dec: every band open. 30 Dec, after the end date at noon: the winning band proposed,
    // then disputed, still trading; 27°F-or-below has resolved (its recorded closedTime is 09:09).
    await polymarketRun([withMarkets(NYC, (m) => open(m, m.id === band ? 0.41 : 0.05))], "2025-12-29 12:00:00.000");
    const proposed = { umaResolutionStatus: "proposed", umaResolutionStatuses: '["proposed"]' };
    await polymarketRun(
      [
        withMarkets(NYC, (m) =>
          m.id === "1046099" ? open(m, 0.02) : state(m, { ...proposed, outcomePrices: '["0.83", "0.17"]' }),
        ),
      ],
      "2025-12-30 14:00:00.000",
    );
    const disputed = { umaResolutionStatus: "disputed", umaResolutionStatuses: '["proposed", "disputed"]' };
    await polymarketRun(
      [
        withMarkets(NYC, (m) =>
          m.id === "1046099" ? open(m, 0.01) : state(m, { ...disputed, outcomePrices: '["0.88", "0.12"]' }),
        ),
      ],
      "2025-12-30 20:00:00.000",
    );
    expect(await ledger("polymarket", band)).toBeUndefined();
    // 31 Dec: the recorded objects, every band resolved.
    await polymarketRun([NYC], "2025-12-31 10:00:00.000");

    const row = await ledger("polymarket", band);
    expect(row).toMatchObject({
      venue: "polymarket",
      event_id: "128661",
      outcome_label: "32-33°F",
      outcome_type: "yes",
      outcomes: ["Yes", "No"],
      payouts: [1, 0],
      winning_index: 0,
      winning_outcome: "Yes",
      source: "UMA",
      source_detail: "https://www.wunderground.com/history/daily/us/ny/new-york-city/KLGA",
      status: "resolved",
      venue_statuses: ["proposed", "disputed", "proposed", "resolved"],
      disputed: true,
      flipped: false,
      end_date: "2025-12-30 12:00:00.000",
      closed_at: "2025-12-31 09:10:57.000",
      resolved_at: "2025-12-31 09:10:57.000",
      proposed_at: "2025-12-30 14:00:00.000",
      disputed_at: "2025-12-30 20:00:00.000",
      last_prices: [0.88, 0.12],
      last_price_at: "2025-12-30 20:00:00.000",
      last_price_from: "snapshot",
    });
    expect(row?.status_history).toEqual([
      { status: "proposed", seen_at: "2025-12-30 14:00:00.000" },
      { status: "disputed", seen_at: "2025-12-30 20:00:00.000" },
      { status: "resolved", seen_at: "2025-12-31 10:00:00.000" },
    ]);
    expect(Date.parse(`${String(row?.resolved_at)}Z`)).toBeGreaterThan(Date.parse(`${String(row?.end_date)}Z`));

    // The losing bands: their own outcome, each.
    expect(await ledger("polymarket", "1046093")).toMatchObject({
      outcome_type: "no",
      disputed: false,
      winning_outcome: "No",
    });
    expect(await ledger("polymarket", "1046099")).toMatchObject({
      outcome_type: "no",
      last_prices: [0.01, 0.99],
      last_price_from: "snapshot",
    });
  });

  it("names the event's winner across its markets", async () => {
    const [event] = await h.warehouse.query<Row>(
      "SELECT event_winner, event_markets FROM crossvenue.resolutions WHERE venue = 'polymarket' AND event_id = '128661' LIMIT 1",
    );
    expect(event).toEqual({ event_winner: "32-33°F", event_markets: "3" });
  });

  it("takes a later point of the price history over an earlier snapshot, before the close", async () => {
    await h.warehouse.command(`INSERT INTO polymarket.prices (id, token_id, outcome, ts, price, fidelity_minutes) VALUES
      ('1046096', 'yes-token', 'Yes', '2025-12-31 09:00:00', 0.97, 1),
      ('1046096', 'yes-token', 'Yes', '2025-12-31 09:30:00', 1, 1)`);
    // A new capture of the same state changes nothing; the next changed state derives the row again.
    await polymarketRun([NYC], "2025-12-31 10:10:00.000");
    expect(await ledger("polymarket", "1046096")).toMatchObject({ last_price_from: "snapshot" });

    const flipped = withMarkets(NYC, (m) => (m.id === "1046096" ? { ...m, outcomePrices: '["0", "1"]' } : m));
    await polymarketRun([flipped], "2026-01-02 10:00:00.000");
    const row = await ledger("polymarket", "1046096");
    expect(row).toMatchObject({
      outcome_type: "no",
      winning_outcome: "No",
      flipped: true,
      last_prices: [0.97, 0.03],
      last_price_at: "2025-12-31 09:00:00.000",
      last_price_from: "history",
    });
    // The earlier outcome is kept, with when each was first seen.
    expect(row?.states).toEqual([
      { seen_at: "2025-12-31 10:00:00.000", outcome_type: "yes", payouts: [1, 0] },
      { seen_at: "2026-01-02 10:00:00.000", outcome_type: "no", payouts: [0, 1] },
    ]);
    const versions = await h.warehouse.query<Row>(
      "SELECT count() AS rows FROM crossvenue.resolutions WHERE market_id = '1046096'",
    );
    expect(versions).toEqual([{ rows: "1" }]);
  });

  it("reads plain, disputed, 50-50 and AMM-era Polymarket objects as each settled", async () => {
    const markets = [DISPUTED, PLAIN_NO, FIFTY_FIFTY, AMM_PRICE];
    await polymarketRun(markets.map(alone), "2026-10-09 12:00:00.000");
    await polymarketRun(GAMMA_2025, "2026-10-09 12:10:00.000");
    await polymarketRun(GAMMA_2021, "2026-10-09 12:20:00.000");

    expect(await ledger("polymarket", "1021160")).toMatchObject({
      outcome_type: "no",
      disputed: true,
      venue_statuses: ["proposed", "disputed", "proposed", "resolved"],
      // Captured once, already resolved: no status was seen before, the venue's list says there was a dispute.
      status_history: [{ status: "resolved", seen_at: "2026-10-09 12:00:00.000" }],
      disputed_at: null,
      proposed_at: null,
      resolved_at: "2026-05-24 05:25:46.000",
      exclusive: true,
      last_prices: [],
      last_price_from: "",
    });
    expect(await ledger("polymarket", "842093")).toMatchObject({
      outcome_type: "no",
      outcome_label: "No IPO before 2028",
      disputed: false,
      resolved_at: "2026-06-12 20:41:49.000",
    });
    expect(await ledger("polymarket", "5279716")).toMatchObject({
      outcome_type: "split",
      payouts: [0.5, 0.5],
      winning_index: null,
      winning_outcome: "",
      closed_at: "2026-10-08 06:12:29.000",
    });
    // Closed at 0.00000004 / 0.99999996 with no resolution status: a price, not a payout.
    expect(await ledger("polymarket", "40")).toBeUndefined();
    expect(await ledger("polymarket", "239826")).toBeUndefined();
    // The same era resolved by the oracle: the pool's 0.000001 / 0.999999 read as the payouts they stand for.
    expect(await ledger("polymarket", "245948")).toMatchObject({
      outcome_type: "no",
      payouts: [0, 1],
      source: "UMA",
      closed_at: "2022-06-11 21:45:31.000",
    });
    // A plain yes (Bitcoin reached $110,000) from the recorded page of 2025-06-24.
    expect(await ledger("polymarket", "516867")).toMatchObject({
      outcome_type: "yes",
      winning_outcome: "Yes",
      source: "UMA",
    });
  });

  it("reads Kalshi's yes, no and scalar settlements, and a mutually exclusive event's winner", async () => {
    // The Cabinet event (closed early, 2026-02-04 02:58:09) the day before, open; hours after, closed
    // without a result; then the recording of 2026-03-01, finalized.
    const before = withMarkets(kalshiEvent("KXCABOUT-29"), (m) => ({
      ...m,
      status: "active",
      result: "",
      settlement_value_dollars: null,
      last_price_dollars: "0.4200",
    }));
    await kalshiRun([before], "2026-02-03 12:00:00.000");
    const closed = withMarkets(kalshiEvent("KXCABOUT-29"), (m) => ({ ...m, status: "closed", result: "" }));
    await kalshiRun([closed], "2026-02-04 06:00:00.000");
    await kalshiRun(KALSHI, "2026-03-01 12:00:00.000");

    const cabinet = kalshiEvent("KXCABOUT-29").markets as Json[];
    const winner = cabinet.find((m) => m.result === "yes") as Json;
    const row = await ledger("kalshi", String(winner.ticker));
    expect(row).toMatchObject({
      venue: "kalshi",
      event_id: "KXCABOUT-29",
      outcome_type: "yes",
      payouts: [1, 0],
      winning_outcome: "Yes",
      outcome_label: winner.yes_sub_title,
      source: "Kalshi",
      status: "finalized",
      exclusive: true,
      disputed: false,
      last_prices: [0.42, 0.58],
      closed_at: "2026-02-04 02:58:09.000",
      // The object carries no settlement_ts (and updated_time 0001-01-01): its close.
      resolved_at: "2026-02-04 02:58:09.000",
      last_price_at: "2026-02-03 12:00:00.000",
      last_price_from: "snapshot",
    });
    expect(row?.status_history).toEqual([
      { status: "closed", seen_at: "2026-02-04 06:00:00.000" },
      { status: "finalized", seen_at: "2026-03-01 12:00:00.000" },
    ]);
    const [event] = await h.warehouse.query<Row>(
      "SELECT any(event_winner) AS winner, count() AS markets, countIf(outcome_type = 'no') AS no FROM crossvenue.resolutions WHERE event_id = 'KXCABOUT-29'",
    );
    expect(event).toEqual({
      winner: winner.yes_sub_title,
      markets: String(cabinet.length),
      no: String(cabinet.length - 1),
    });

    expect(await ledger("kalshi", "KXKHAMENEIOUT-AKHA-26APR01")).toMatchObject({
      outcome_type: "scalar",
      scalar_value: 0.29,
      payouts: [0.29, 0.71],
      winning_index: null,
    });
    expect(await ledger("kalshi", "KXKHAMENEIOUT-AKHA-26FEB01")).toMatchObject({ outcome_type: "no", payouts: [0, 1] });
    expect(await ledger("kalshi", "KXWHVISIT-27-LLOO")).toMatchObject({ outcome_type: "yes", payouts: [1, 0] });
  });

  it("takes the last price before the close from history a later history step stored", async () => {
    const ticker = "KXCABOUT-29-BR";
    expect(await ledger("kalshi", ticker)).toMatchObject({ last_price_from: "snapshot", last_prices: [0.42, 0.58] });
    // The history worker reaches the settled market: hourly candles up to the early close, its coverage row.
    const candle = (end: string, close: number | null) => ({
      ticker,
      period_minutes: 60,
      end_period_ts: end,
      price_close: close,
      price_previous: 0.1,
      volume: close === null ? 0 : 5,
      open_interest: 10,
    });
    await h.warehouse.insert("kalshi.candles", [
      candle("2026-02-04 01:00:00", 0.07),
      candle("2026-02-04 02:00:00", null),
      candle("2026-02-04 03:00:00", 0.02),
      candle("2026-02-04 05:00:00", 0.01),
    ]);
    const step = "2026-03-02 08:00:00.000";
    await h.warehouse.insert("kalshi.coverage", [
      {
        ticker,
        is_open: false,
        state: "complete",
        history_until: "2026-02-04 05:00:00",
        venue_has_none: false,
        points: 3,
        refresh_minutes: 60,
        error: "",
        failures: 0,
        updated_at: step,
      },
    ]);
    await recordResolutions(h.warehouse, "kalshi", step, "history");
    // The candle ending 03:00 holds trades before the 02:58:09 close, later than the last
    // snapshot of the day before; the one ending 05:00 began after the close.
    expect(await ledger("kalshi", ticker)).toMatchObject({
      outcome_type: "no",
      last_prices: [0.02, 0.98],
      last_price_at: "2026-02-04 02:58:09.000",
      last_price_from: "history",
    });
  });

  it("has one row per settled market, by outcome type as the raw objects say", async () => {
    const byType = (rows: string) =>
      h.warehouse.query<Row>(
        `SELECT venue, outcome_type, count() AS n FROM (${rows}) GROUP BY venue, outcome_type ORDER BY venue, outcome_type`,
      );
    const byLedger = await byType("SELECT venue, outcome_type FROM crossvenue.resolutions");
    expect(byLedger).toEqual(await byType(SETTLED_BY_RAW));
    expect(byLedger.filter((row) => row.venue === "kalshi")).toHaveLength(3);
    const [duplicates] = await h.warehouse.query<Row>(
      "SELECT count() - uniqExact(venue, market_id) AS extra FROM crossvenue.resolutions",
    );
    expect(duplicates).toEqual({ extra: "0" });
  });

  it("derives the same rows from the whole archive as the runs did one by one", async () => {
    const current = () => h.warehouse.query<Row>("SELECT * FROM crossvenue.resolutions ORDER BY venue, market_id");
    const fed = await current();
    await rebuildResolutions(h.warehouse);
    expect(await current()).toEqual(fed);
    expect(fed.length).toBeGreaterThan(60);
  });
});

describe("the resolutions ledger of the demo archive", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await generateDemoHistory(h.warehouse, { days: 1, intervalMinutes: 60 });
    for (const source of ["polymarket", "kalshi"] as const)
      expect((await runSync(h.deps, { source })).success).toBe(true);
  }, 300_000);
  afterAll(async () => {
    await h.close();
  });

  it("has exactly the markets the raw objects show settled, each once, at the outcome they show", async () => {
    const byRaw = await h.warehouse.query<Row>(`SELECT * FROM (${SETTLED_BY_RAW}) ORDER BY venue, market_id`);
    const byLedger = await h.warehouse.query<Row>(
      "SELECT venue, market_id, outcome_type FROM crossvenue.resolutions ORDER BY venue, market_id",
    );
    expect(byLedger).toEqual(byRaw);
    const types = new Set(byLedger.map((row) => `${String(row.venue)} ${String(row.outcome_type)}`));
    expect(types).toEqual(new Set(["polymarket yes", "polymarket no", "kalshi yes", "kalshi no", "kalshi scalar"]));
    expect(byLedger.length).toBeGreaterThan(100);
  });
});
