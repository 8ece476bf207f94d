/**
 * The live capture against the replay's feeds, into a real embedded warehouse: the books
 * read back from `<venue>.book_changes` equal the replay's own, and every fault injected
 * (a stall with heartbeats alive, an abrupt close, a lost sequence number, a refused
 * upgrade) is a row of `<venue>.stream_gaps` healed by the resubscription, with the
 * connections in `<venue>.stream_sessions`.
 */
import { generateKeyPairSync } from "node:crypto";
import { toDateTime64 } from "@epicenter/warehouse";
import { seededRandom } from "@epicenter/warehouse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveCapture, type LiveCaptureOptions, type LiveTarget } from "./live-capture";
import { silentLogger } from "./logger";
import { replayIngestConfig } from "./replay/server";
import { createScheduler } from "./scheduler";
import type { Source } from "./source";
import { kalshi } from "./sources/kalshi";
import { polymarket } from "./sources/polymarket";
import { getSyncStatus } from "./status";
import { runHistoryStep } from "./sync/history";
import { runSync } from "./sync/run-sync";
import { type Harness, startHarness } from "./testing/harness";
import { openKalshiTickers, openPolymarketMarkets } from "./testing/live-markets";

const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    live: {
      tickMs: 10,
      changesPerTick: 6,
      kalshiPublicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
  });
});
afterAll(() => harness?.close());

/** A source whose connections follow `perConnection` markets, so a few markets take several sockets. */
const narrow = (source: Source, perConnection: number): Source => ({
  ...source,
  live: { ...source.live, perConnection },
});

function capture(
  source: Source,
  targets: readonly LiveTarget[],
  signed = true,
  options: Partial<LiveCaptureOptions> = {},
) {
  const config = replayIngestConfig(harness.replay);
  if (signed) {
    config.kalshi.credentials = {
      keyId: "operator",
      privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    };
  }
  return new LiveCapture({
    warehouse: harness.warehouse,
    source,
    config,
    logger: silentLogger,
    targets,
    silenceMs: 400,
    watchEveryMs: 50,
    flushMs: 100,
    openEveryMs: 10,
    backoffMs: 20,
    ...options,
  });
}

async function until(done: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Holds the replay's books still, waits until no frame has arrived for 200 ms, then stops the capture. */
async function settled(live: LiveCapture) {
  harness.replay.live.hold(true);
  try {
    let seen = -1;
    while (seen !== live.stats().messages) {
      seen = live.stats().messages;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await live.stop();
  } finally {
    harness.replay.live.hold(false);
  }
}

/** Each market's book now, rebuilt from the stored changes: its last reset, each level's last size since. */
async function storedBooks(database: string, key: string) {
  const rows = await harness.warehouse.query<{ market: string; side: string; ticks: number; size: number }>(
    `WITH resets AS (SELECT ${key} AS market, max(received_at) AS reset_at FROM ${database}.book_changes
       WHERE kind = 'reset' GROUP BY market)
     SELECT market, toString(side) AS side, toUInt32(price * 10000) AS ticks, argMax(size, received_at) AS size
     FROM ${database}.book_changes AS c INNER JOIN resets AS r ON c.${key} = r.market
     WHERE c.received_at >= r.reset_at AND c.kind != 'reset'
     GROUP BY market, side, ticks HAVING size > 0
     ORDER BY market, side, ticks`,
  );
  const books = new Map<string, { bids: Array<[number, number]>; asks: Array<[number, number]> }>();
  for (const row of rows) {
    const book = books.get(row.market) ?? { bids: [], asks: [] };
    (row.side === "bid" ? book.bids : book.asks).push([Number(row.ticks), Number(row.size)]);
    books.set(row.market, book);
  }
  for (const book of books.values()) book.bids.reverse();
  return books;
}

function servedLevels(key: string) {
  const book = harness.replay.live.bookOf(key);
  const sorted = (levels: Map<number, number> | undefined, descending: boolean) =>
    [...(levels ?? [])]
      .map(([cents, size]): [number, number] => [cents * 100, size])
      .sort(([a], [b]) => (descending ? b - a : a - b));
  return { bids: sorted(book?.bids, true), asks: sorted(book?.asks, false) };
}

/** The ledger's gaps but those of a capture not running (a test's capture stops; the next heals them). */
async function gaps(database: string) {
  return harness.warehouse.query<{ market: string; cause: string; healed_by: string; healed: number }>(
    `SELECT ${database === "kalshi" ? "ticker" : "id"} AS market, cause, healed_by, to_ts IS NOT NULL AS healed
     FROM ${database}.stream_gaps FINAL WHERE cause != 'stopped' ORDER BY from_ts, market`,
  );
}

/** The `stopped` gaps of `markets`, oldest first. */
async function stoppedGaps(markets: readonly string[]) {
  return harness.warehouse.query<{ market: string; from_ts: string; healed_by: string; healed: number }>(
    `SELECT ticker AS market, from_ts, healed_by, to_ts IS NOT NULL AS healed FROM kalshi.stream_gaps FINAL
     WHERE cause = 'stopped' AND ticker IN {markets:Array(String)} ORDER BY from_ts, market`,
    { params: { markets: [...markets] } },
  );
}

describe("the live capture of Polymarket's market channel", () => {
  const markets = () => openPolymarketMarkets(harness.replay.polymarket, 6);

  it("stores each market's book change by change, so the books read back equal the replay's", async () => {
    const targets = markets().map(({ id, yes, no }) => ({ market: id, books: [yes, no] }));
    const live = capture(narrow(polymarket, 3), targets);
    await live.start();
    await until(() => live.stats().changes > 200);
    // The books held still: the capture's last word is the replay's.
    await settled(live);

    expect(live.stats()).toMatchObject({ connections: 2, gaps: 0, rejected: 0 });
    const books = await storedBooks("polymarket", "id");
    for (const { id, yes } of markets()) {
      expect(books.get(id) ?? { bids: [], asks: [] }, id).toEqual(servedLevels(yes));
    }
    const sessions = await harness.warehouse.query<{ why: string; markets: number; messages: number }>(
      "SELECT why, markets, messages FROM polymarket.stream_sessions FINAL ORDER BY session",
    );
    expect(sessions.map((s) => [s.why, Number(s.markets)])).toEqual([
      ["stopped", 3],
      ["stopped", 3],
    ]);
    expect(sessions.every((session) => Number(session.messages) > 0)).toBe(true);
  });

  it("stores the stream's trades in the one tape, and the Data API's tape heals what a stall lost: each once", async () => {
    // Listed in the archive, as the tape keys fills by the market their condition is.
    expect((await runSync(harness.deps, { source: "polymarket" })).success).toBe(true);
    const targets = markets().map(({ id, yes, no }) => ({ market: id, books: [yes, no] }));
    const yesTokens = markets().map((market) => market.yes);
    // The exchange-wide tape starts here (a minute behind the clock, where the Data API has every fill).
    await runHistoryStep(harness.deps, "polymarket", { markets: 0 });
    const [{ started } = { started: 0 }] = await harness.warehouse.query<{ started: number }>(
      "SELECT started FROM internal.feed_state FINAL WHERE source = 'polymarket' AND feed = 'trades'",
    );
    const live = capture(narrow(polymarket, 3), targets);
    await live.start();
    harness.replay.live.setLiveFault({ kind: "duplicate", venue: "polymarket", times: 20 });
    await until(() => live.stats().tradesStored > 20);
    harness.replay.live.setLiveFault({ kind: "stall", venue: "polymarket" });
    await until(async () => (await gaps("polymarket")).some((gap) => gap.cause === "silence" && gap.healed));
    await until(() => live.stats().tradesStored > 60);
    await settled(live);
    // The tape settles a minute behind its clock: walked as of two minutes on, it holds every fill served.
    const later = { ...harness.deps, clock: () => new Date(Date.now() + 120_000) };
    await runHistoryStep(later, "polymarket", { markets: 0 });

    const served = harness.replay.live
      .tape("polymarket")
      .filter((trade) => yesTokens.includes(trade.market) && trade.at >= Number(started) * 1000);
    const stored = await harness.warehouse.query<{ transaction_hash: string; source: string }>(
      `SELECT transaction_hash, source FROM polymarket.trades
       WHERE token_id IN {tokens:Array(String)} AND ts >= toDateTime({started:UInt32}, 'UTC')`,
      { params: { tokens: yesTokens, started: Number(started) } },
    );
    expect(stored.map((row) => row.transaction_hash).sort()).toEqual(served.map((trade) => trade.id).sort());
    const bySource = (source: string) => stored.filter((row) => row.source === source).length;
    expect(bySource("stream")).toBeGreaterThan(60);
    expect(bySource("rest")).toBeGreaterThan(0);
    expect(bySource("stream") + bySource("rest")).toBe(stored.length);
  });

  it("sees a stall with PONG alive and an abrupt close, each a gap of every market of the socket, healed", async () => {
    await harness.warehouse.command("TRUNCATE TABLE polymarket.stream_gaps");
    const targets = markets()
      .slice(0, 2)
      .map(({ id, yes, no }) => ({ market: id, books: [yes, no] }));
    const live = capture(polymarket, targets);
    await live.start();
    await until(() => live.stats().changes > 20);
    harness.replay.live.setLiveFault({ kind: "stall", venue: "polymarket" });
    await until(() => live.stats().gaps === 2);
    harness.replay.live.setLiveFault(null);
    await until(async () => (await gaps("polymarket")).filter((gap) => gap.healed).length === 2);
    harness.replay.live.setLiveFault({ kind: "close", venue: "polymarket" });
    await until(async () => (await gaps("polymarket")).filter((gap) => gap.healed).length === 4);
    // A close, then the next two upgrades refused: the capture backs off and tries again.
    harness.replay.live.setLiveFault({ kind: "close", venue: "polymarket" });
    harness.replay.live.setLiveFault({ kind: "refuse-upgrade", venue: "polymarket", times: 2 });
    await until(async () => (await gaps("polymarket")).filter((gap) => gap.healed).length === 6);
    await live.stop();

    const ledger = await gaps("polymarket");
    expect(ledger.map((gap) => [gap.cause, gap.healed_by])).toEqual([
      ["silence", "resubscribe"],
      ["silence", "resubscribe"],
      ["disconnect", "resubscribe"],
      ["disconnect", "resubscribe"],
      ["disconnect", "resubscribe"],
      ["disconnect", "resubscribe"],
    ]);
    const sessions = await harness.warehouse.query<{ why: string }>(
      "SELECT why FROM polymarket.stream_sessions FINAL WHERE why != 'stopped' OR closed_at > now() - INTERVAL 1 MINUTE ORDER BY session",
    );
    expect(sessions.map((s) => s.why)).toEqual(expect.arrayContaining(["silence", "closed 1006", "refused 429"]));
  });
});

describe("the live capture of Kalshi's WebSocket", () => {
  it("follows each book from its snapshot by signed deltas, and heals a lost sequence number", async () => {
    const tickers = openKalshiTickers(harness.replay.kalshi, 4);
    const live = capture(
      narrow(kalshi, 2),
      tickers.map((ticker) => ({ market: ticker, books: [ticker] })),
    );
    await live.start();
    await until(() => live.stats().changes > 100);
    harness.replay.live.setLiveFault({ kind: "gap", venue: "kalshi" });
    await until(async () => (await gaps("kalshi")).filter((gap) => gap.healed).length === 2);
    harness.replay.live.setLiveFault({ kind: "duplicate", venue: "kalshi", times: 5 });
    await until(() => live.stats().changes > 300);
    await settled(live);

    expect(live.stats()).toMatchObject({ signed: true, notCaptured: null, rejected: 0 });
    const ledger = await gaps("kalshi");
    expect(ledger.map((gap) => [gap.cause, gap.healed_by])).toEqual([
      ["sequence", "resubscribe"],
      ["sequence", "resubscribe"],
    ]);
    // The duplicates were dropped by their seq: the books still equal the replay's.
    const books = await storedBooks("kalshi", "ticker");
    for (const ticker of tickers)
      expect(books.get(ticker) ?? { bids: [], asks: [] }, ticker).toEqual(servedLevels(ticker));
  });

  it("adds the markets listed since and drops those that closed, closing a socket left with none", async () => {
    const [first, second, third] = openKalshiTickers(harness.replay.kalshi, 3) as [string, string, string];
    const follow = (tickers: string[]) => tickers.map((ticker) => ({ market: ticker, books: [ticker] }));
    const live = capture(narrow(kalshi, 1), follow([first, second]));
    await live.start();
    await until(() => live.bookOf(first)?.bids.length !== undefined && live.stats().changes > 20);
    expect(await live.retarget(follow([second, third]))).toEqual({ added: 1, dropped: 1 });
    const resetsOf = async (ticker: string) => {
      const [row] = await harness.warehouse.query<{ n: number }>(
        "SELECT count() AS n FROM kalshi.book_changes WHERE ticker = {ticker:String} AND kind = 'reset'",
        { params: { ticker } },
      );
      return Number(row?.n);
    };
    await until(async () => (await resetsOf(third)) > 0);
    await settled(live);
    expect(live.stats().connections).toBe(2);
    expect(live.bookOf(first)).toBeUndefined();
    expect(live.bookOf(third)).toEqual(servedLevels(third));
    const sessions = await harness.warehouse.query<{ why: string; markets: number }>(
      "SELECT why, markets FROM kalshi.stream_sessions FINAL WHERE why = 'markets closed'",
    );
    expect(sessions.map((session) => [session.why, Number(session.markets)])).toEqual([["markets closed", 1]]);
  });

  it("stores the stream's trades in the one tape, and the REST tape heals what a stall lost: each trade once", async () => {
    const tickers = openKalshiTickers(harness.replay.kalshi, 4);
    // The exchange-wide tape starts here: from this second on, it holds every trade.
    await runHistoryStep(harness.deps, "kalshi", { markets: 0 });
    const [{ started } = { started: 0 }] = await harness.warehouse.query<{ started: number }>(
      "SELECT started FROM internal.feed_state FINAL WHERE source = 'kalshi' AND feed = 'trades'",
    );
    const live = capture(
      kalshi,
      tickers.map((ticker) => ({ market: ticker, books: [ticker] })),
    );
    await live.start();
    await until(() => live.stats().tradesStored > 20);
    // Frames swallowed with the socket open: the trades served meanwhile never reach the stream.
    harness.replay.live.setLiveFault({ kind: "stall", venue: "kalshi" });
    await until(async () => (await gaps("kalshi")).some((gap) => gap.cause === "silence" && gap.healed));
    await until(() => live.stats().tradesStored > 60);
    await settled(live);
    // The tape is walked up to the last whole second: wait until the last trade is behind it.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await runHistoryStep(harness.deps, "kalshi", { markets: 0 });

    const served = harness.replay.live
      .tape("kalshi")
      .filter((trade) => tickers.includes(trade.market) && trade.at >= Number(started) * 1000);
    const stored = await harness.warehouse.query<{ trade_id: string; source: string }>(
      `SELECT trade_id, source FROM kalshi.trades
       WHERE ticker IN {tickers:Array(String)} AND created_time >= toDateTime64({started:UInt32}, 6, 'UTC')`,
      { params: { tickers, started: Number(started) } },
    );
    expect(stored.map((row) => row.trade_id).sort()).toEqual(served.map((trade) => trade.id).sort());
    const bySource = (source: string) => stored.filter((row) => row.source === source).length;
    expect(bySource("stream")).toBeGreaterThan(60);
    // Those the stall kept from the stream came from the REST tape.
    expect(bySource("rest")).toBeGreaterThan(0);
    expect(bySource("stream") + bySource("rest")).toBe(stored.length);
  });

  it("says, unsigned, that the books are not captured, and still counts the trades", async () => {
    const tickers = openKalshiTickers(harness.replay.kalshi, 3);
    const live = capture(
      kalshi,
      tickers.map((ticker) => ({ market: ticker, books: [ticker] })),
      false,
    );
    await live.start();
    await until(() => live.stats().trades > 3);
    await live.stop();
    expect(live.stats()).toMatchObject({ signed: false, changes: 0 });
    expect(live.stats().notCaptured).toMatch(/orderbook_delta channel needs a signed connection/);
  });
});

describe("the capture's own downtime", () => {
  it("leaves a stopped gap for every market when it stops, and the next capture heals each", async () => {
    const tickers = openKalshiTickers(harness.replay.kalshi, 3);
    const follow = tickers.map((ticker) => ({ market: ticker, books: [ticker] }));
    const first = capture(kalshi, follow);
    await first.start();
    // Every book in (and so any gap an earlier test's capture left, healed).
    await until(async () => first.stats().changes > 20 && (await stoppedGaps(tickers)).every((gap) => gap.healed));
    await first.stop();
    const before = (await stoppedGaps(tickers)).filter((gap) => !gap.healed);
    expect(before.map((gap) => gap.market).sort()).toEqual([...tickers].sort());

    const second = capture(kalshi, follow);
    await second.start();
    await until(async () => (await stoppedGaps(tickers)).every((gap) => gap.healed));
    await second.stop();
    const stoppedAt = new Set(before.map((gap) => `${gap.market} ${gap.from_ts}`));
    const healed = (await stoppedGaps(tickers)).filter((gap) => stoppedAt.has(`${gap.market} ${gap.from_ts}`));
    expect(healed.map((gap) => [gap.market, gap.healed_by]).sort()).toEqual(
      tickers.map((ticker) => [ticker, "resubscribe"]).sort(),
    );
  });

  it("closes the sessions a killed capture left open, and counts its markets' downtime as a gap from its last note", async () => {
    // A market no other test here follows.
    const ticker = openKalshiTickers(harness.replay.kalshi, 8)[7] as string;
    // What a capture killed with SIGKILL leaves: a session never closed, noted a while ago, and its changes.
    const noted = toDateTime64(Date.now() - 5 * 60_000);
    const session = 4_600_000_000_001;
    await harness.warehouse.insert("kalshi.stream_sessions", [
      {
        session,
        opened_at: noted,
        closed_at: null,
        why: "",
        markets: 1,
        messages: 9,
        changes: 3,
        trades: 0,
        updated_at: noted,
      },
    ]);
    await harness.warehouse.insert("kalshi.book_changes", [
      { ticker, received_at: noted, at: null, kind: "reset", side: "bid", price: "0", size: 0, session },
    ]);
    const live = capture(kalshi, [{ market: ticker, books: [ticker] }]);
    await live.start();
    await until(async () => (await stoppedGaps([ticker])).some((gap) => gap.healed && gap.from_ts.startsWith(noted)));
    await live.stop();
    const [closed] = await harness.warehouse.query<{ closed_at: string; why: string }>(
      "SELECT closed_at, why FROM kalshi.stream_sessions FINAL WHERE session = {session:UInt64}",
      { params: { session } },
    );
    expect(closed).toEqual({ closed_at: `${noted}000`, why: "not closed: the capture ended abruptly" });
    // book_asof does not take the dead session's book for the time it was down.
    const [during] = await harness.warehouse.query<{ n: number }>(
      `SELECT count() AS n FROM kalshi.book_asof(ts = {ts:DateTime64(3, 'UTC')}) WHERE ticker = {ticker:String} AND captured_by = 'stream'`,
      { params: { ts: toDateTime64(Date.now() - 2 * 60_000), ticker } },
    );
    expect(Number(during?.n)).toBe(0);
  });
});

describe("book_asof from the live stream", () => {
  /** Each market's book as `book_asof(ts)` answers it, and how each row was captured. */
  async function booksAsOf(tickers: readonly string[], ts: string) {
    const rows = await harness.warehouse.query<{
      ticker: string;
      side: string;
      level: number;
      ticks: number;
      size: number;
      captured_by: string;
    }>(
      `SELECT ticker, side, level, toUInt32(price * 10000) AS ticks, size, captured_by
       FROM kalshi.book_asof(ts = {ts:DateTime64(3, 'UTC')}) WHERE ticker IN {tickers:Array(String)}`,
      { params: { ts, tickers: [...tickers] } },
    );
    const books = new Map<string, { bids: Array<[number, number]>; asks: Array<[number, number]> }>();
    for (const row of rows) {
      const book = books.get(row.ticker) ?? { bids: [], asks: [] };
      (row.side === "bid" ? book.bids : book.asks).push([Number(row.ticks), Number(row.size)]);
      books.set(row.ticker, book);
    }
    return { books, capturedBy: new Set(rows.map((row) => row.captured_by)), levels: rows.map((row) => row.level) };
  }

  it("answers each followed book at random moments as the replay held it, checkpoints and all, and not during a gap", async () => {
    const tickers = openKalshiTickers(harness.replay.kalshi, 4);
    const live = capture(
      narrow(kalshi, 2),
      tickers.map((ticker) => ({ market: ticker, books: [ticker] })),
      true,
      { checkpointMs: 300 },
    );
    const random = seededRandom(46);
    const moments: Array<{ ts: string; served: Map<string, ReturnType<typeof servedLevels>> }> = [];
    await live.start();
    try {
      for (let moment = 0; moment < 4; moment += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200 + random() * 600));
        // The books held still and every frame in: the replay's books are the truth of this moment.
        harness.replay.live.hold(true);
        let seen = -1;
        while (seen !== live.stats().messages) {
          seen = live.stats().messages;
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
        await live.flush();
        moments.push({
          ts: toDateTime64(Date.now()),
          served: new Map(tickers.map((ticker) => [ticker, servedLevels(ticker)])),
        });
        // Clear of the moment on the capture's clock before the books move again.
        await new Promise((resolve) => setTimeout(resolve, 50));
        harness.replay.live.hold(false);
      }
      // The books move on before the stall: a silence gap starts at the last frame before it,
      // which the last moment's hold would otherwise be.
      const moved = live.stats().changes;
      await until(() => live.stats().changes > moved + 20);
      harness.replay.live.setLiveFault({ kind: "stall", venue: "kalshi" });
      await until(async () => (await gaps("kalshi")).filter((gap) => gap.cause === "silence" && gap.healed).length > 0);
    } finally {
      await live.stop();
    }

    const [checkpoints] = await harness.warehouse.query<{ n: number }>(
      `SELECT count() AS n FROM kalshi.book_changes
       WHERE kind = 'reset' AND ticker IN {tickers:Array(String)} AND received_at > {from:DateTime64(3, 'UTC')}`,
      { params: { tickers, from: moments[0]?.ts } },
    );
    // Written whole again every 300 ms, without a reconnect: the checkpoints are in the changes.
    expect(Number(checkpoints?.n)).toBeGreaterThan(tickers.length * 3);
    for (const { ts, served } of moments) {
      const asOf = await booksAsOf(tickers, ts);
      expect([...asOf.capturedBy], ts).toEqual(["stream"]);
      for (const ticker of tickers)
        expect(asOf.books.get(ticker) ?? { bids: [], asks: [] }, `${ticker} at ${ts}`).toEqual(served.get(ticker));
      expect(asOf.levels.every((level) => level >= 1)).toBe(true);
    }
    // Inside a silence gap the stream vouches for nothing: no book (no REST capture either).
    const [gap] = await harness.warehouse.query<{ inside: string }>(
      `SELECT toString(toDateTime64(from_ts, 3) + INTERVAL 1 MILLISECOND) AS inside FROM kalshi.stream_gaps FINAL
       WHERE cause = 'silence' AND ticker IN {tickers:Array(String)} ORDER BY from_ts DESC LIMIT 1`,
      { params: { tickers } },
    );
    expect((await booksAsOf(tickers, String(gap?.inside))).books.size).toBe(0);
  });
});

describe("the scheduler's live worker", () => {
  it("follows every open market of the source's first snapshot, and stops with the scheduler", async () => {
    const config = replayIngestConfig(harness.replay);
    config.kalshi.credentials = {
      keyId: "operator",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    const scheduler = createScheduler(
      { ...harness.deps, config },
      {
        intervalSeconds: 3600,
        sources: ["kalshi"],
        books: false,
        backfill: false,
        history: false,
        crossVenue: false,
        live: true,
      },
    );
    // The sessions of this test only: the ones before it followed a few markets each.
    const [{ since } = { since: "" }] = await harness.warehouse.query<{ since: string }>(
      "SELECT toString(now64(6)) AS since",
    );
    scheduler.start();
    await scheduler.nextRun("kalshi");
    await until(() => (scheduler.state().kalshi?.live?.changes ?? 0) > 50);
    const [row] = await harness.warehouse.query<{ open: number }>(
      "SELECT count() AS open FROM kalshi.markets_latest FINAL WHERE status IN ('active', 'open')",
    );
    const open = Number(row?.open);
    // The status says what the capture reads, and that Polymarket's (not scheduled here) runs not.
    const status = await getSyncStatus(harness.warehouse, scheduler.state());
    expect(status.sources.kalshi.live_feed).toMatchObject({ signed: true, not_captured: null });
    expect(status.sources.kalshi.live_feed?.book_changes).toBeGreaterThan(50);
    expect(status.sources.polymarket.live_feed).toBeNull();
    await scheduler.stop();
    const live = scheduler.state().kalshi?.live;
    expect(live).toMatchObject({ signed: true, connections: Math.ceil(open / kalshi.live.perConnection) });
    const [followed] = await harness.warehouse.query<{ markets: number }>(
      "SELECT sum(markets) AS markets FROM kalshi.stream_sessions FINAL WHERE why = 'stopped' AND opened_at >= {since:DateTime64(6, 'UTC')}",
      { params: { since } },
    );
    expect(Number(followed?.markets)).toBe(open);
  });
});
