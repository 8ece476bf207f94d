/**
 * A local stand-in for both upstream APIs, for tests, the benchmark and the offline demo.
 *
 * It serves the recorded responses in `fixtures/` (grown by `catalog.ts`) with each API's
 * real paging and filters, including the traps: Gamma's `/events/keyset` pages with
 * `after_cursor`/`next_cursor`, ignores a parameter named `cursor` (page 1 again), answers
 * `offset` with 422 and returns closed events when `closed` is omitted; Kalshi pages with
 * `cursor`, which is `""` on the last page, lists combo (KXMVE) markets on `/markets`
 * unless `mve_filter=exclude`, and splits settled markets at `/historical/cutoff`.
 * The venues' history endpoints (CLOB price history, Data API trades, Kalshi candles and
 * trades) are `history.ts`'s, under `/polymarket-clob`, `/polymarket-data` and the Kalshi base.
 * Faults are injected on request (`setFault`), for a number of requests or until cleared;
 * the venues' rate limits, counted as they count them, on request too (`limits.ts`).
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { IngestConfig } from "../source";
import { kalshiOrderbooks, polymarketBooks } from "./books";
import { type CatalogOptions, DEFAULT_FIXTURES_DIR, type Json, KalshiCatalog, PolymarketCatalog } from "./catalog";
import { createHistoryRoutes } from "./history";
import { kalshiCutoffs } from "./history-context";
import { createReplayLimits, type LimitUse, type ReplayLimitOptions, type ReplayLimits } from "./limits";
import { attachLiveReplay, KALSHI_WS_PATH, type LiveReplay, type LiveReplayOptions, POLYMARKET_WS_PATH } from "./live";

export type FaultKind =
  | "rate-limit"
  | "server-error"
  | "not-found"
  | "repeat-cursor"
  | "stall"
  | "malformed-json"
  | "truncated-json"
  | "unknown-fields"
  | "bom"
  | "invalid-object";

export interface Fault {
  kind: FaultKind;
  /** Which venue's requests it hits; both when absent. */
  source?: "polymarket" | "kalshi";
  /** Only requests whose path and query (and a POST's JSON body) contain this text (one market's id, say). */
  match?: string;
  /** Let this many matching requests through before the fault starts. */
  after?: number;
  /** How many requests it hits; every one until cleared when absent. */
  times?: number;
  /** Seconds sent in `Retry-After` with a rate-limit fault. */
  retryAfterSeconds?: number;
}

export interface ReplayServerOptions extends CatalogOptions {
  port?: number;
  /** Serve a combo event on Kalshi `/events` too, as a regressed upstream filter would. */
  leakCombos?: boolean;
  /** Epoch ms of Kalshi's historical cutoff (`market_settled_ts`). */
  historicalCutoff?: number;
  /** Epoch ms of Kalshi's trades cutoff (`trades_created_ts`); the market cutoff when absent. */
  historicalTradesCutoff?: number;
  /** The venues' rate limits, enforced; none when absent. */
  limits?: ReplayLimitOptions;
  /** The live feeds' clock, caps and keys (`live.ts`). */
  live?: LiveReplayOptions;
}

export interface ReplayServer {
  /** Gamma, the CLOB (price history), the Data API (trades) and Kalshi's base. */
  url: {
    polymarket: string;
    polymarketClob: string;
    polymarketData: string;
    kalshi: string;
    /** The live feeds (`live.ts`): Polymarket's market channel and Kalshi's WebSocket. */
    polymarketWs: string;
    kalshiWs: string;
  };
  /** Every request path with its query, in arrival order. */
  readonly requests: string[];
  readonly polymarket: PolymarketCatalog;
  readonly kalshi: KalshiCatalog;
  setFault(fault: Fault | null): void;
  /** Enforces the venues' rate limits from now on, counting afresh; `null` lifts them. */
  setLimits(limits: ReplayLimitOptions | null): void;
  /** What each enforced limit admitted and refused. */
  limitUse(): Record<string, LimitUse>;
  /** Both venues' live feeds: their faults, the books and trades they served. */
  readonly live: LiveReplay;
  /** Moves prices and volumes on, as ten minutes of trading would. */
  advance(): void;
  close(): Promise<void>;
}

interface ActiveFault extends Fault {
  seen: number;
  hit: number;
}

export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  const polymarket = new PolymarketCatalog(options, fixturesDir);
  const kalshi = new KalshiCatalog(options, fixturesDir);
  // The REST tapes hold what the live feeds served, as the venues' do: a capture heals from them.
  const history = createHistoryRoutes(
    { polymarket, kalshi },
    { ...options, fixturesDir, liveTape: (venue) => live.tape(venue) },
  );
  const books = (url: URL, body: unknown) => {
    const now = options.now?.() ?? Date.now();
    if (url.pathname === "/polymarket-clob/books") return polymarketBooks(polymarket, body, now);
    if (url.pathname === "/kalshi/trade-api/v2/markets/orderbooks") return kalshiOrderbooks(kalshi, url, now);
    return null;
  };
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let fault: ActiveFault | null = null;
  let limits: ReplayLimits | null = options.limits ? createReplayLimits(options.limits) : null;

  const server = createServer((request, response) => {
    if (request.method !== "POST") return handle(request.url, response);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString() || "null");
      } catch {
        return send(response, 400, { error: "the request body is not JSON" });
      }
      handle(request.url, response, body);
    });
  });
  /** One request; a POST's JSON body is `body`, and the request log shows it after a `#`. */
  function handle(path: string | undefined, response: ServerResponse, body?: unknown) {
    const url = new URL(path ?? "/", "http://replay");
    const seen = `${url.pathname}${url.search}${body === undefined ? "" : `#${JSON.stringify(body)}`}`;
    requests.push(seen);
    const source = url.pathname.startsWith("/polymarket") ? "polymarket" : "kalshi";
    const refusal = limits?.admit(url);
    if (refusal) {
      const headers: Record<string, string> = refusal.retryAfter ? { "retry-after": refusal.retryAfter } : {};
      return send(response, 429, { error: "Too Many Requests" }, headers);
    }
    const active = takeFault(fault, source, seen);
    if (active === "stall") {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"events": [');
      return;
    }
    if (active === "rate-limit")
      return send(
        response,
        429,
        { error: "Too Many Requests" },
        { "retry-after": String(fault?.retryAfterSeconds ?? 1) },
      );
    if (active === "server-error") return send(response, 500, { error: "Internal Server Error" });
    if (active === "not-found")
      return send(
        response,
        404,
        source === "kalshi"
          ? { error: { code: "not_found", message: "market not found" } }
          : { error: "market not found" },
      );
    try {
      const reply =
        books(url, body) ??
        history(url, body) ??
        (source === "polymarket" ? routePolymarket(polymarket, url) : routeKalshi(kalshi, url, options));
      if (active === "repeat-cursor") repeatCursor(reply.body, url);
      sendWithFault(response, reply.status, reply.body, active);
    } catch (error) {
      send(response, 500, { error: String(error) });
    }
  }
  const live = attachLiveReplay(server, { polymarket, kalshi }, { now: options.now, ...options.live });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    url: {
      polymarket: `${base}/polymarket`,
      polymarketClob: `${base}/polymarket-clob`,
      polymarketData: `${base}/polymarket-data`,
      kalshi: `${base}/kalshi/trade-api/v2`,
      polymarketWs: `${base.replace("http", "ws")}${POLYMARKET_WS_PATH}`,
      kalshiWs: `${base.replace("http", "ws")}${KALSHI_WS_PATH}`,
    },
    requests,
    live,
    polymarket,
    kalshi,
    setFault(next) {
      fault = next ? { ...next, seen: 0, hit: 0 } : null;
    },
    setLimits(next) {
      limits = next ? createReplayLimits(next) : null;
    },
    limitUse: () => limits?.use() ?? {},
    advance() {
      polymarket.tick += 1;
      kalshi.tick += 1;
    },
    close: () =>
      new Promise<void>((resolve) => {
        live.close();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The ingest config that points every upstream at this replay server. */
export function replayIngestConfig(replay: Pick<ReplayServer, "url">): IngestConfig {
  return {
    polymarket: {
      apiUrl: replay.url.polymarket,
      clobUrl: replay.url.polymarketClob,
      dataUrl: replay.url.polymarketData,
      wsUrl: replay.url.polymarketWs,
    },
    kalshi: { apiUrl: replay.url.kalshi, wsUrl: replay.url.kalshiWs },
  };
}

function takeFault(fault: ActiveFault | null, source: "polymarket" | "kalshi", path: string): FaultKind | null {
  if (!fault || (fault.source && fault.source !== source)) return null;
  if (fault.match !== undefined && !path.includes(fault.match)) return null;
  fault.seen += 1;
  if (fault.seen <= (fault.after ?? 0)) return null;
  if (fault.times !== undefined && fault.hit >= fault.times) return null;
  fault.hit += 1;
  return fault.kind;
}

/** A venue that loops: the page's next cursor is the one it was asked with. */
function repeatCursor(body: unknown, url: URL) {
  const asked = url.searchParams.get("cursor");
  if (asked && body && typeof body === "object" && "cursor" in body) (body as Json).cursor = asked;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function sendWithFault(response: ServerResponse, status: number, body: unknown, fault: FaultKind | null) {
  if (fault === "unknown-fields" || fault === "invalid-object") mutateObjects(body, fault);
  let text = JSON.stringify(body);
  if (fault === "malformed-json") text = `${text.slice(0, 200)}<html>502 Bad Gateway</html>`;
  if (fault === "truncated-json") text = text.slice(0, Math.floor(text.length / 2));
  if (fault === "bom") text = `\uFEFF${text}`;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(text);
}

const LISTS = ["events", "markets", "trades", "history", "candlesticks"] as const;
const IDENTITY = ["id", "event_ticker", "ticker", "market_ticker", "trade_id", "transactionHash", "t", "end_period_ts"];

/** Adds fields no client knows, or breaks the first object's identity field. */
function mutateObjects(body: unknown, fault: "unknown-fields" | "invalid-object") {
  const envelope = (body ?? {}) as Partial<Record<(typeof LISTS)[number], unknown[]>>;
  const list = Array.isArray(body) ? body : (LISTS.map((name) => envelope[name]).find(Array.isArray) ?? []);
  list.forEach((item, index) => {
    if (!item || typeof item !== "object") return;
    const object = item as Json;
    if (fault === "unknown-fields") {
      object.surpriseField2027 = { nested: [1, 2, 3], note: "added by upstream" };
      for (const market of (object.markets as Json[] | undefined) ?? []) market.another_new_field = "x";
    } else if (index === 0) {
      for (const field of IDENTITY) delete object[field];
    }
  });
}

const MARKET_STRIDE = 100;

function query(url: URL, name: string): string | null {
  return url.searchParams.get(name);
}

function limitOf(url: URL, fallback: number, max: number): number {
  const value = Number(query(url, "limit") ?? fallback);
  return Math.max(1, Math.min(max, Number.isFinite(value) ? value : fallback));
}

function encodeCursor(index: number): string {
  return Buffer.from(`i:${index}`).toString("base64url");
}

function decodeCursor(cursor: string | null): number {
  if (!cursor) return 0;
  const match = /^i:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  return match ? Number(match[1]) : 0;
}

/** Scans from `start` for `limit` items that pass `keep`; returns them and where to resume. */
function scan<T>(count: number, start: number, limit: number, item: (i: number) => T | null) {
  const items: T[] = [];
  let i = start;
  for (; i < count && items.length < limit; i += 1) {
    const value = item(i);
    if (value !== null) items.push(value);
  }
  return { items, next: i < count ? i : null };
}

function routePolymarket(catalog: PolymarketCatalog, url: URL): { status: number; body: unknown } {
  const path = url.pathname.replace(/^\/polymarket/, "");
  if (path !== "/events/keyset") return { status: 404, body: { error: `no route ${path}` } };
  if (url.searchParams.has("offset")) {
    return { status: 422, body: { error: "offset is not supported on keyset endpoints; use after_cursor" } };
  }
  // Omitting `closed` returns closed events, whatever the docs say.
  const closed = query(url, "closed") !== "false";
  const endMin = Date.parse(query(url, "end_date_min") ?? "");
  const endMax = Date.parse(query(url, "end_date_max") ?? "");
  const limit = limitOf(url, 20, 500);
  const { items, next } = scan(catalog.eventCount, decodeCursor(query(url, "after_cursor")), limit, (i) => {
    // Decided before the event is built: an open walk passes a million closed events.
    if (catalog.isClosed(i) !== closed) return null;
    const event = catalog.event(i);
    const end = Date.parse(String(event.endDate ?? ""));
    if (!Number.isNaN(endMin) && !(end >= endMin)) return null;
    if (!Number.isNaN(endMax) && !(end < endMax)) return null;
    return event;
  });
  return { status: 200, body: next === null ? { events: items } : { events: items, next_cursor: encodeCursor(next) } };
}

function routeKalshi(
  catalog: KalshiCatalog,
  url: URL,
  options: ReplayServerOptions,
): { status: number; body: unknown } {
  const path = url.pathname.replace(/^\/kalshi\/trade-api\/v2/, "");
  const cutoffs = kalshiCutoffs(options);
  const cutoff = cutoffs.markets;
  const start = decodeCursor(query(url, "cursor"));
  const cursorOf = (next: number | null) => (next === null ? "" : encodeCursor(next));
  if (path === "/historical/cutoff") {
    const trades = new Date(cutoffs.trades).toISOString();
    return {
      status: 200,
      body: { market_settled_ts: new Date(cutoff).toISOString(), trades_created_ts: trades, orders_updated_ts: trades },
    };
  }
  if (path === "/events") {
    const status = query(url, "status");
    const nested = query(url, "with_nested_markets") === "true";
    const minClose = Number(query(url, "min_close_ts") ?? Number.NaN) * 1000;
    const limit = limitOf(url, 200, 200);
    const leaks = options.leakCombos ? catalog.comboEvents.length : 0;
    const { items, next } = scan(catalog.eventCount + leaks, start, limit, (i) => {
      if (i >= catalog.eventCount) {
        const combo = catalog.comboEvents[i - catalog.eventCount] as Json;
        return nested ? { ...combo, markets: catalog.combos.slice(0, 2) } : combo;
      }
      const known = catalog.statusOf(i);
      if (status && known !== "listed" && status !== known) return null;
      const { event, status: eventStatus } = catalog.event(i);
      if (status && status !== eventStatus) return null;
      const markets = event.markets as Json[];
      if (!Number.isNaN(minClose) && !markets.some((m) => Date.parse(String(m.close_time)) > minClose)) return null;
      if (nested) return event;
      const { markets: _markets, ...bare } = event;
      return bare;
    });
    return { status: 200, body: { cursor: cursorOf(next), events: items, milestones: [] } };
  }
  if (path === "/markets" || path === "/historical/markets") {
    const historical = path === "/historical/markets";
    const status = query(url, "status");
    const exclude = query(url, "mve_filter") === "exclude";
    const limit = limitOf(url, 100, 1000);
    // Market index = event index × stride + market position; combos first, as upstream floods them.
    const combos = exclude ? 0 : catalog.combos.length;
    const all = combos + catalog.eventCount * MARKET_STRIDE;
    let cached: { index: number; markets: Json[] } | undefined;
    const marketsOf = (index: number) => {
      if (cached?.index !== index) cached = { index, markets: catalog.event(index).event.markets as Json[] };
      return cached.markets;
    };
    const { items, next } = scan(all, start, limit, (i) => {
      if (i < combos) return historical ? null : (catalog.combos[i] as Json);
      const eventIndex = Math.floor((i - combos) / MARKET_STRIDE);
      if (status === "open" && catalog.statusOf(eventIndex) !== "listed") return null;
      const market = marketsOf(eventIndex)[(i - combos) % MARKET_STRIDE];
      if (!market) return null;
      const settled = market.status === "finalized";
      const closedAt = Date.parse(String(market.close_time));
      if (historical) return settled && closedAt < cutoff ? market : null;
      if (settled && closedAt < cutoff) return null;
      if (status === "settled" && !settled) return null;
      if (status === "open" && market.status !== "active") return null;
      return market;
    });
    return { status: 200, body: { cursor: cursorOf(next), markets: items } };
  }
  return { status: 404, body: { error: `no route ${path}` } };
}
