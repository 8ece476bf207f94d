/**
 * The live capture (issue 46): one source's feed followed over as many sockets as its open
 * markets need (`SourceLive.perConnection`), every change of each market's yes book
 * written to `<venue>.book_changes`, its trades to the venue's one tape (`<venue>.trades`,
 * `source = 'stream'`, through `SourceLive.storeTrades`: a trade is stored once whichever
 * path brings it first, and the REST tape fills what the stream missed), and every moment
 * the capture could not vouch for a
 * book written to `<venue>.stream_gaps`, with the connection it came by in
 * `<venue>.stream_sessions`. It works through the source's `live` and never asks which
 * venue it runs.
 *
 * What is detected, and how each is healed:
 * - a lost message (a `seq` that skips on a subscription, where the venue numbers them):
 *   every market of the connection gets a `sequence` gap, and the connection is replaced;
 * - a stall (no data frame for `silenceMs`, heartbeats or not: a socket whose `PONG`s go
 *   on while no book moves is the failure users report): `silence` gaps, replaced;
 * - a close, an error, a refused upgrade: `disconnect` gaps, and a new socket after a
 *   back-off that doubles up to `maxBackoffMs` (a refused upgrade is often a 429 for a
 *   burst);
 * A new socket's subscription brings every book whole (the venues send a book on each
 * subscribe), which closes each of its markets' gaps (`healed_by = 'resubscribe'`).
 * Sockets are opened one at a time, `openEveryMs` apart, so a capture of hundreds of them
 * does not burst. Each book a socket keeps is written whole again every `checkpointMs`, a
 * share at each write, so `book_asof` (migration 22) finds its start within its look-back.
 *
 * Rows are buffered and written every `flushMs`; `stop()` writes what is left, closes the
 * sessions (`why = 'stopped'`), opens a `stopped` gap for every market it followed and
 * leaves every gap open with no end, so the ledger says what was not seen; the next capture
 * takes them up (`resume`). One capture writes a venue's ledger at a time: a capture that
 * starts closes the sessions it finds open as those of one that was killed.
 */
import {
  STREAM_CHECKPOINT_MINUTES,
  STREAM_SESSION_SLACK_SECONDS,
  toDateTime64,
  type Warehouse,
} from "@epicenter/warehouse";
import WebSocket from "ws";
import { LiveBook, type LiveEvent, type LiveTrade, SequenceCheck } from "./live";
import type { Logger } from "./logger";
import type { IngestConfig, Source } from "./source";

export interface LiveCaptureOptions {
  warehouse: Warehouse;
  source: Source;
  config: IngestConfig;
  logger: Logger;
  /** The markets to follow; the source's open markets (`targetsSql`) when absent. */
  targets?: readonly LiveTarget[];
  /** A connection with no data frame for this long is stalled. */
  silenceMs?: number;
  /** How often the watchdog looks. */
  watchEveryMs?: number;
  flushMs?: number;
  /**
   * How often each followed book is written whole again (a `reset` and its levels), so
   * `book_asof` finds a recent start for every book a healthy socket keeps.
   */
  checkpointMs?: number;
  /** Between two socket openings. */
  openEveryMs?: number;
  /** The first wait before a socket is opened again, doubled at each failure in a row. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export interface LiveTarget {
  market: string;
  /** What the venue knows its books by; the first is the Yes book. */
  books: readonly string[];
}

export interface LiveCaptureStats {
  connections: number;
  open: number;
  messages: number;
  changes: number;
  /** Trades the stream brought, and those of them stored (the others were in the tape already). */
  trades: number;
  tradesStored: number;
  gaps: number;
  reconnects: number;
  rejected: number;
  /** Whether the connections are signed, and what an unsigned one does not capture. */
  signed: boolean;
  notCaptured: string | null;
}

interface OpenGap {
  from: number;
  cause: string;
  session: number;
  /** Other gaps of the market an earlier capture left open, ended with this one. */
  also?: OpenGap[];
}

interface Connection {
  index: number;
  targets: readonly LiveTarget[];
  ws: WebSocket | null;
  /** Closed for good: every market it followed left the feed. */
  retired: boolean;
  session: number;
  openedAt: number;
  lastData: number;
  messages: number;
  changes: number;
  trades: number;
  failures: number;
  sequence: SequenceCheck;
  ping: ReturnType<typeof setInterval> | null;
  retry: ReturnType<typeof setTimeout> | null;
}

/** The capture's clock in microseconds: the wall clock, made finer by the monotonic one. */
function microsNow(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** `DateTime64(6)` text as microseconds. */
function microsOf(text: string): number {
  const [whole = "", fraction = ""] = text.split(".");
  return Date.parse(`${whole.replace(" ", "T")}Z`) * 1000 + Number(fraction.padEnd(6, "0").slice(0, 6));
}

/** Microseconds as `DateTime64(6)` text. */
function microText(micros: number): string {
  const ms = Math.floor(micros / 1000);
  return `${toDateTime64(ms)}${String(micros % 1000).padStart(3, "0")}`;
}

/**
 * How often an open connection notes itself in `stream_sessions`: within the slack
 * `book_asof` allows (`STREAM_SESSION_SLACK_SECONDS`), so a connection whose process died
 * stops vouching for its books soon after.
 */
const SESSION_NOTE_MS = Math.min(60_000, (STREAM_SESSION_SLACK_SECONDS * 1000) / 1.5);

let sessionCounter = 0;

/** A session id unique across restarts: the opening microsecond, made distinct within one. */
function newSession(): number {
  sessionCounter = (sessionCounter + 1) % 1000;
  return Math.floor(microsNow() / 1000) * 1000 + sessionCounter;
}

export class LiveCapture {
  private readonly live;
  private readonly database: string;
  private readonly key: string;
  private readonly connections: Connection[] = [];
  /** Book id → the market it is a book of, and whether it is the Yes book. */
  private readonly bookIds = new Map<string, { market: string; yes: boolean; connection: Connection }>();
  private readonly books = new Map<string, LiveBook>();
  /** When each market's book was last written whole (capture microseconds). */
  private readonly written = new Map<string, number>();
  /** The markets followed now. */
  private readonly targets = new Map<string, LiveTarget>();
  private readonly gaps = new Map<string, OpenGap>();
  private changeRows: Record<string, unknown>[] = [];
  private tradeRows: LiveTrade[] = [];
  private gapRows: Record<string, unknown>[] = [];
  private sessionRows = new Map<number, Record<string, unknown>>();
  private readonly totals = {
    messages: 0,
    changes: 0,
    trades: 0,
    tradesStored: 0,
    gaps: 0,
    reconnects: 0,
    rejected: 0,
  };
  private signed = false;
  private received = 0;
  private stopping = false;
  private timers: Array<ReturnType<typeof setInterval>> = [];
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly options: LiveCaptureOptions) {
    this.live = options.source.live;
    this.database = options.source.name;
    this.key = options.source.tables.find((table) => table.name === "markets")?.key ?? "id";
  }

  /** Reads the targets, then opens the sockets one after another. */
  async start(): Promise<void> {
    const targets =
      this.options.targets ??
      (await this.options.warehouse.query<{ market: string; books: string[] }>(this.live.targetsSql));
    const connections = this.addConnections(targets);
    await this.resume();
    this.timers.push(setInterval(() => this.watch(), this.options.watchEveryMs ?? 1_000));
    this.timers.push(setInterval(() => void this.flush(), this.options.flushMs ?? 1_000));
    this.timers.push(setInterval(() => this.noteSessions(), SESSION_NOTE_MS));
    for (const timer of this.timers) timer.unref();
    await this.openAll(connections);
  }

  /**
   * Takes up what an earlier capture left in the ledger, so the time it was not running is
   * a gap and each is healed by this one's subscriptions:
   * - the gaps it left open (a clean `stop()` opens a `stopped` gap for every market it
   *   followed) of markets followed now;
   * - its sessions never closed (its process was killed): each closed as of its last note,
   *   and every market it may have followed (one with a change since a look-back before
   *   that note) gets a `stopped` gap from the earliest such note.
   */
  private async resume() {
    const { warehouse } = this.options;
    const db = this.database;
    const key = this.key;
    for (const gap of await warehouse.query<{ market: string; from_ts: string; cause: string; session: number }>(
      `SELECT ${key} AS market, from_ts, cause, session FROM ${db}.stream_gaps FINAL WHERE to_ts IS NULL
       ORDER BY from_ts`,
    )) {
      if (!this.targets.has(gap.market)) continue;
      const open = { from: microsOf(gap.from_ts), cause: gap.cause, session: Number(gap.session) };
      const first = this.gaps.get(gap.market);
      if (first) first.also = [...(first.also ?? []), open];
      else this.gaps.set(gap.market, open);
    }
    const unclosed = await warehouse.query<{ session: number; noted_at: string } & Record<string, unknown>>(
      `SELECT session, opened_at, noted_at, markets, messages, changes, trades FROM (
         SELECT session, argMax(opened_at, updated_at) AS opened_at, argMax(closed_at, updated_at) AS closed_at,
                max(updated_at) AS noted_at, argMax(markets, updated_at) AS markets,
                argMax(messages, updated_at) AS messages, argMax(changes, updated_at) AS changes,
                argMax(trades, updated_at) AS trades
         FROM ${db}.stream_sessions GROUP BY session)
       WHERE closed_at IS NULL`,
    );
    if (unclosed.length === 0) return;
    const updated = microText(microsNow());
    for (const { noted_at, ...row } of unclosed) {
      this.sessionRows.set(Number(row.session), {
        ...row,
        closed_at: noted_at,
        why: "not closed: the capture ended abruptly",
        updated_at: updated,
      });
    }
    const from = Math.min(...unclosed.map((row) => microsOf(row.noted_at)));
    const followed = await warehouse.query<{ market: string }>(
      `SELECT DISTINCT ${key} AS market FROM ${db}.book_changes
       WHERE received_at > toDateTime64({from:String}, 6, 'UTC') - INTERVAL ${STREAM_CHECKPOINT_MINUTES * 2} MINUTE`,
      { params: { from: microText(from) } },
    );
    for (const { market } of followed) {
      if (!this.targets.has(market) || this.gaps.has(market)) continue;
      const gap = { from, cause: "stopped", session: 0 };
      this.gaps.set(market, gap);
      this.gapRows.push(this.gapRow(market, gap, null, ""));
    }
  }

  /** Follows the source's open markets as the latest snapshot has them (`retarget`). */
  async refresh(): Promise<{ added: number; dropped: number }> {
    return this.retarget(await this.options.warehouse.query<LiveTarget>(this.live.targetsSql));
  }

  /**
   * Follows the markets open now (a snapshot's `targetsSql`): new ones on sockets of their
   * own, opened one at a time; those no longer open are dropped (a gap still open for one
   * ends with `healed_by = 'closed'`), and a socket left with none of its markets is closed.
   */
  async retarget(targets: readonly LiveTarget[]): Promise<{ added: number; dropped: number }> {
    const wanted = new Set(targets.map((target) => target.market));
    const dropped = [...this.targets.keys()].filter((market) => !wanted.has(market));
    for (const market of dropped) this.drop(market);
    for (const connection of this.connections) {
      if (connection.retired || connection.targets.some((target) => this.targets.has(target.market))) continue;
      connection.retired = true;
      if (connection.retry) clearTimeout(connection.retry);
      if (connection.ping) clearInterval(connection.ping);
      if (connection.ws) this.endSession(connection, "markets closed");
      connection.ws?.terminate();
      connection.ws = null;
    }
    const fresh = targets.filter((target) => !this.targets.has(target.market));
    await this.openAll(this.addConnections(fresh));
    return { added: fresh.length, dropped: dropped.length };
  }

  private addConnections(targets: readonly LiveTarget[]): Connection[] {
    const per = this.live.perConnection;
    const added: Connection[] = [];
    for (let start = 0; start < targets.length; start += per) {
      const group = targets.slice(start, start + per);
      const connection: Connection = {
        index: this.connections.length,
        targets: group,
        ws: null,
        retired: false,
        session: 0,
        openedAt: 0,
        lastData: 0,
        messages: 0,
        changes: 0,
        trades: 0,
        failures: 0,
        sequence: new SequenceCheck(),
        ping: null,
        retry: null,
      };
      this.connections.push(connection);
      added.push(connection);
      for (const target of group) {
        for (const book of target.books) {
          this.bookIds.set(book, { market: target.market, yes: book === target.books[0], connection });
        }
        this.targets.set(target.market, target);
        this.books.set(target.market, new LiveBook());
      }
    }
    return added;
  }

  private async openAll(connections: readonly Connection[]) {
    for (const connection of connections) {
      if (this.stopping) break;
      this.open(connection);
      await new Promise((resolve) => setTimeout(resolve, this.options.openEveryMs ?? 200));
    }
  }

  /** A market no longer followed: its books are not read, a gap still open for it ends. */
  private drop(market: string) {
    for (const book of this.targets.get(market)?.books ?? []) this.bookIds.delete(book);
    this.targets.delete(market);
    this.books.delete(market);
    this.written.delete(market);
    const gap = this.gaps.get(market);
    if (!gap) return;
    this.gaps.delete(market);
    this.endGap(market, gap, microsNow(), "closed");
  }

  stats(): LiveCaptureStats {
    return {
      connections: this.connections.filter((c) => !c.retired).length,
      open: this.connections.filter((c) => c.ws?.readyState === WebSocket.OPEN).length,
      ...this.totals,
      signed: this.signed,
      notCaptured: this.signed ? null : this.live.unsignedGap,
    };
  }

  /** The book the capture holds for a market, best first. */
  bookOf(market: string) {
    return this.books.get(market)?.levels(1_000);
  }

  /** Closes every socket, writes what is buffered and the sessions' ends; open gaps stay open. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const connection of this.connections) {
      if (connection.retry) clearTimeout(connection.retry);
      if (connection.ping) clearInterval(connection.ping);
      // From now no book is followed: a gap each, healed by the next capture's subscriptions.
      if (connection.ws) this.openGaps(connection, "stopped", microsNow());
      // A socket waiting out its back-off has its session closed already, with its own why.
      if (connection.ws) this.endSession(connection, "stopped");
      connection.ws?.terminate();
      connection.ws = null;
    }
    await this.flush();
  }

  private open(connection: Connection) {
    if (this.stopping || connection.retired) return;
    const { headers, signed } = this.live.connect(this.options.config, Date.now());
    this.signed = signed;
    const ws = new WebSocket(this.live.url(this.options.config), { headers, maxPayload: 16 * 1024 * 1024 });
    connection.ws = ws;
    connection.session = newSession();
    connection.openedAt = microsNow();
    connection.lastData = Date.now();
    connection.messages = 0;
    connection.changes = 0;
    connection.trades = 0;
    connection.sequence = new SequenceCheck();
    const books = connection.targets.flatMap((target) => target.books);
    ws.on("open", () => {
      for (const message of this.live.subscribe(books, signed)) ws.send(message);
      this.noteSession(connection, null, "");
      const ping = this.live.ping;
      if (ping) connection.ping = setInterval(() => ws.send(ping.text), ping.everyMs);
    });
    ws.on("message", (data, binary) => {
      if (ws !== connection.ws || binary) return;
      this.read(connection, data.toString());
    });
    ws.on("unexpected-response", (request, response) => {
      // With a listener here, ws leaves the refused request open: end it, so no socket lingers.
      request.destroy();
      this.options.logger.info(
        { source: this.database, status: response.statusCode, connection: connection.index },
        "live: the upgrade was refused",
      );
      this.lost(connection, ws, `refused ${response.statusCode}`);
    });
    ws.on("error", (error) => {
      if (ws === connection.ws) this.lost(connection, ws, `error: ${error.message}`);
    });
    ws.on("close", (code) => {
      if (ws === connection.ws) this.lost(connection, ws, `closed ${code}`);
    });
  }

  private read(connection: Connection, text: string) {
    connection.messages += 1;
    this.totals.messages += 1;
    const frame = this.live.read(text);
    if (frame.pong) return;
    connection.lastData = Date.now();
    this.totals.rejected += frame.rejected.length;
    if (frame.control?.type === "error") {
      this.options.logger.info({ source: this.database, ...frame.control }, "live: the venue answered an error");
    }
    if (frame.sid !== undefined && frame.seq !== undefined) {
      const verdict = connection.sequence.observe(frame.sid, frame.seq);
      if (verdict.kind === "stale") return;
      if (verdict.kind === "gap") return this.replace(connection, "sequence");
    }
    for (const event of frame.events) {
      // Strictly increasing, so a level's last row is one row whatever the clock's grain.
      this.received = Math.max(microsNow(), this.received + 1);
      this.apply(connection, event, this.received);
    }
  }

  private apply(connection: Connection, event: LiveEvent, received: number) {
    if (event.kind === "trade") {
      const market = this.bookIds.get(event.book)?.market;
      if (market === undefined) return;
      connection.trades += 1;
      this.totals.trades += 1;
      this.tradeRows.push({ market, trade: event, received });
      return;
    }
    if (event.kind === "lifecycle") return;
    const known = this.bookIds.get(event.book);
    if (!known?.yes) return;
    const book = this.books.get(known.market) as LiveBook;
    const changed = book.apply(event);
    if (event.kind === "book") {
      this.writeWhole(known.market, book, connection.session, received);
      this.heal(known.market, received, connection);
    } else {
      const row = this.changeRow(known.market, connection.session, received, event.at);
      for (const [side, ticks, size] of changed) this.changeRows.push(row("change", side, ticks, size));
    }
    connection.changes += changed.length;
    this.totals.changes += changed.length;
  }

  private changeRow(market: string, session: number, received: number, at: number | null) {
    const venueAt = at === null ? null : toDateTime64(at);
    return (kind: string, side: string, ticks: number, size: number) => ({
      [this.key]: market,
      received_at: microText(received),
      at: venueAt,
      kind,
      side,
      price: (ticks / 10_000).toFixed(4),
      size,
      session,
    });
  }

  /** The whole book as rows: a `reset`, then each level as a `snapshot` row. */
  private writeWhole(market: string, book: LiveBook, session: number, received: number) {
    const row = this.changeRow(market, session, received, book.at);
    this.changeRows.push(row("reset", "bid", 0, 0));
    const { bids, asks } = book.levels(Number.MAX_SAFE_INTEGER);
    for (const [ticks, size] of bids) this.changeRows.push(row("snapshot", "bid", ticks, size));
    for (const [ticks, size] of asks) this.changeRows.push(row("snapshot", "ask", ticks, size));
    // Oldest first: the checkpoint reads from the front.
    this.written.delete(market);
    this.written.set(market, received);
  }

  /**
   * Writes whole again the books not written whole for `checkpointMs`, of markets with no
   * gap open on a socket open now; a share of them each call, so the writes are spread out.
   */
  private checkpoint() {
    const every = (this.options.checkpointMs ?? STREAM_CHECKPOINT_MINUTES * 60_000) * 1000;
    const share = Math.ceil((this.written.size * (this.options.flushMs ?? 1_000) * 1000) / every) * 2;
    const now = microsNow();
    let done = 0;
    for (const [market, at] of this.written) {
      if (done >= share || now - at < every) break;
      if (this.gaps.has(market)) continue;
      const target = this.targets.get(market);
      const connection = target && this.bookIds.get(target.books[0] as string)?.connection;
      const book = this.books.get(market);
      if (!connection || connection.ws?.readyState !== WebSocket.OPEN || !book) continue;
      this.received = Math.max(microsNow(), this.received + 1);
      this.writeWhole(market, book, connection.session, this.received);
      done += 1;
    }
  }

  /** Every market of the connection unproven from now: gaps open, the socket replaced. */
  private replace(connection: Connection, cause: string) {
    const ws = connection.ws;
    this.openGaps(connection, cause);
    this.endSession(connection, cause);
    this.totals.reconnects += 1;
    connection.ws = null;
    ws?.terminate();
    if (connection.ping) clearInterval(connection.ping);
    this.open(connection);
  }

  /** A socket that closed or never opened: gaps open, a new one after the back-off. */
  private lost(connection: Connection, ws: WebSocket, why: string) {
    if (ws !== connection.ws || this.stopping) return;
    connection.ws = null;
    if (connection.ping) clearInterval(connection.ping);
    this.openGaps(connection, "disconnect");
    this.endSession(connection, why);
    connection.failures += 1;
    this.totals.reconnects += 1;
    const base = this.options.backoffMs ?? 1_000;
    const wait = Math.min(base * 2 ** (connection.failures - 1), this.options.maxBackoffMs ?? 30_000);
    connection.retry = setTimeout(() => this.open(connection), wait);
  }

  private watch() {
    const now = Date.now();
    for (const connection of this.connections) {
      if (connection.ws?.readyState !== WebSocket.OPEN) continue;
      if (now - connection.lastData > (this.options.silenceMs ?? 30_000)) this.replace(connection, "silence");
    }
  }

  /**
   * Every market of the connection unproven from `from`. A connection that follows no book
   * (Kalshi's unsigned: trades only, the REST tape their proof) vouches for none, so opens
   * none; a capture's own stop is not counted among the stream's gaps.
   */
  private openGaps(connection: Connection, cause: string, from = connection.lastData * 1000) {
    if (!this.signed && this.live.unsignedGap !== null) return;
    for (const target of connection.targets) {
      if (this.gaps.has(target.market) || !this.targets.has(target.market)) continue;
      const gap = { from, cause, session: connection.session };
      this.gaps.set(target.market, gap);
      if (cause !== "stopped") this.totals.gaps += 1;
      this.gapRows.push(this.gapRow(target.market, gap, null, ""));
    }
  }

  /** A fresh book for `market`: its open gap, if any, is closed. */
  private heal(market: string, received: number, connection: Connection) {
    connection.failures = 0;
    const gap = this.gaps.get(market);
    if (!gap) return;
    this.gaps.delete(market);
    this.endGap(market, gap, received, "resubscribe");
  }

  private endGap(market: string, gap: OpenGap, to: number, healedBy: string) {
    for (const each of [gap, ...(gap.also ?? [])]) this.gapRows.push(this.gapRow(market, each, to, healedBy));
  }

  private gapRow(market: string, gap: OpenGap, to: number | null, healedBy: string) {
    return {
      [this.key]: market,
      from_ts: microText(gap.from),
      to_ts: to === null ? null : microText(to),
      cause: gap.cause,
      healed_by: healedBy,
      session: gap.session,
      updated_at: microText(microsNow()),
    };
  }

  private noteSessions() {
    for (const connection of this.connections) if (connection.ws) this.noteSession(connection, null, "");
  }

  private endSession(connection: Connection, why: string) {
    if (connection.session !== 0) this.noteSession(connection, microsNow(), why);
  }

  private noteSession(connection: Connection, closedAt: number | null, why: string) {
    this.sessionRows.set(connection.session, {
      session: connection.session,
      opened_at: microText(connection.openedAt),
      closed_at: closedAt === null ? null : microText(closedAt),
      why,
      markets: connection.targets.length,
      messages: connection.messages,
      changes: connection.changes,
      trades: connection.trades,
      updated_at: microText(microsNow()),
    });
  }

  private async write(table: string, rows: readonly Record<string, unknown>[]): Promise<boolean> {
    if (rows.length === 0) return true;
    try {
      await this.options.warehouse.insert(`${this.database}.${table}`, rows);
      return true;
    } catch (error) {
      this.options.logger.info(
        { source: this.database, table, error: String(error) },
        "live: a write failed; kept for the next",
      );
      return false;
    }
  }

  /** Writes what is buffered, one write after another. */
  flush(): Promise<void> {
    if (!this.stopping) this.checkpoint();
    this.flushing = this.flushing.then(async () => {
      const changes = this.changeRows;
      const gaps = this.gapRows;
      const sessions = [...this.sessionRows.values()];
      this.changeRows = [];
      this.gapRows = [];
      this.sessionRows = new Map();
      const trades = this.tradeRows;
      this.tradeRows = [];
      // Each table on its own: what one refused is kept for the next flush, what the others took is not sent twice.
      if (!(await this.write("book_changes", changes))) this.changeRows.unshift(...changes);
      if (trades.length > 0) {
        try {
          this.totals.tradesStored += await this.live.storeTrades(this.options.warehouse, trades);
        } catch (error) {
          this.options.logger.info(
            { source: this.database, table: "trades", error: String(error) },
            "live: a write failed; kept for the next",
          );
          this.tradeRows.unshift(...trades);
        }
      }
      if (!(await this.write("stream_gaps", gaps))) this.gapRows.unshift(...gaps);
      if (!(await this.write("stream_sessions", sessions))) {
        for (const row of sessions) {
          const session = row.session as number;
          if (!this.sessionRows.has(session)) this.sessionRows.set(session, row);
        }
      }
    });
    return this.flushing;
  }
}
