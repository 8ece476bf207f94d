/**
 * What Admin → Cross-venue reads: the pairs of `crossvenue.market_pairs` beside both
 * markets' latest titles and Yes prices, the log of reviews (`internal.pair_reviews`),
 * with each reviewer's user id resolved to an e-mail from the app database, and where the
 * matcher stands (`internal.matcher_runs`).
 *
 * Fixed queries with typed parameters, on the app's warehouse connection like the market
 * pages: the log lives in `internal`, which the sandbox that runs user SQL cannot read.
 */
import type {
  CrossVenuePair,
  CrossVenuePairs,
  MatcherRun,
  MatcherStatus,
  PairReviews,
  ZPairListQuery,
  ZPairReviewsQuery,
} from "@epicenter/contracts";
import { type AppDb, schema } from "@epicenter/db";
import { closedPassProgress } from "@epicenter/ingest";
import { fromDateTime64, type Warehouse } from "@epicenter/warehouse";
import { inArray } from "drizzle-orm";
import type { z } from "zod";

export interface PairReadDeps {
  warehouse: Warehouse;
  db: AppDb;
}

/**
 * Missing markets read as NULL rather than as empty text and zeros. In the statement's own
 * SETTINGS clause: the embedded engine's connection would keep a query's settings on its
 * session, for the matcher's joins run there next.
 */
export const JOIN_USE_NULLS = "\nSETTINGS join_use_nulls = 1";

export interface PairRow {
  polymarket_id: string;
  kalshi_ticker: string;
  polymarket_event_id: string;
  kalshi_event_ticker: string;
  relation: string;
  orientation: string;
  score: number;
  method: string;
  reasons: string[];
  matched_at: string;
  reviewed_by: string | null;
  updated_at: string;
}

interface ListedRow extends PairRow {
  question: string | null;
  groupItemTitle: string | null;
  yes_probability: number | null;
  title: string | null;
  yes_sub_title: string | null;
  last_price_dollars: number | null;
  yes_bid_dollars: number | null;
  yes_ask_dollars: number | null;
}

/**
 * The pairs under the relation filter (or the one pair asked for), joined to the latest
 * state of their markets, and the text filter over both titles and the ids. `{select}` is
 * the statement's last part.
 */
const withPairs = (select: string) => `
WITH
  pairs AS (
    SELECT polymarket_id, kalshi_ticker, polymarket_event_id, kalshi_event_ticker, relation, orientation, score,
      method, reasons, matched_at, reviewed_by, updated_at
    FROM crossvenue.market_pairs FINAL
    WHERE ({relation:String} = 'all' OR relation = {relation:String})
      AND ({polymarketId:String} = '' OR (polymarket_id = {polymarketId:String} AND kalshi_ticker = {kalshiTicker:String}))
  ),
  p AS (
    SELECT id, question, groupItemTitle, yes_probability
    FROM polymarket.markets_latest FINAL
    WHERE id IN (SELECT polymarket_id FROM pairs)
  ),
  k AS (
    SELECT ticker, title, yes_sub_title, last_price_dollars, yes_bid_dollars, yes_ask_dollars
    FROM kalshi.markets_latest FINAL
    WHERE ticker IN (SELECT kalshi_ticker FROM pairs)
  ),
  listed AS (
    SELECT pairs.*, p.question AS question, p.groupItemTitle AS groupItemTitle, p.yes_probability AS yes_probability,
      k.title AS title, k.yes_sub_title AS yes_sub_title, k.last_price_dollars AS last_price_dollars,
      k.yes_bid_dollars AS yes_bid_dollars, k.yes_ask_dollars AS yes_ask_dollars
    FROM pairs
    LEFT JOIN p ON p.id = pairs.polymarket_id
    LEFT JOIN k ON k.ticker = pairs.kalshi_ticker
    WHERE arrayAll(word -> positionCaseInsensitiveUTF8(concat(ifNull(question, ''), ' ', ifNull(groupItemTitle, ''), ' ',
      ifNull(title, ''), ' ', ifNull(yes_sub_title, ''), ' ', polymarket_id, ' ', kalshi_ticker), word) > 0,
      {words:Array(String)})
  )
${select}`;

/** Candidates: the same contract first, then the best score; decided pairs: the newest decision first. */
const ORDER = {
  candidates: "relation = 'same_contract' DESC, score DESC, polymarket_id, kalshi_ticker",
  decided: "updated_at DESC, polymarket_id, kalshi_ticker",
};

interface PairFilter {
  method: "auto" | "model" | "confirmed" | "rejected" | "all";
  relation: "same_contract" | "related" | "all";
  q: string;
  pair?: { polymarketId: string; kalshiTicker: string };
}

function filterParams(filter: PairFilter) {
  return {
    relation: filter.relation,
    polymarketId: filter.pair?.polymarketId ?? "",
    kalshiTicker: filter.pair?.kalshiTicker ?? "",
    words: filter.q.split(/\s+/).filter(Boolean).slice(0, 8),
  };
}

export async function listPairs(deps: PairReadDeps, query: z.output<typeof ZPairListQuery>): Promise<CrossVenuePairs> {
  const params = { ...filterParams(query), method: query.method, limit: query.limit, offset: query.offset };
  const order = query.method === "auto" ? ORDER.candidates : ORDER.decided;
  const [rows, counts] = await Promise.all([
    deps.warehouse.query<ListedRow>(
      withPairs(`SELECT * FROM listed
        WHERE {method:String} = 'all' OR method = {method:String}
        ORDER BY ${order}
        LIMIT {limit:UInt32} OFFSET {offset:UInt32}${JOIN_USE_NULLS}`),
      { params },
    ),
    deps.warehouse.query<{ method: string; pairs: string }>(
      withPairs(`SELECT method, count() AS pairs FROM listed GROUP BY method${JOIN_USE_NULLS}`),
      { params },
    ),
  ]);
  const byMethod = { auto: 0, model: 0, confirmed: 0, rejected: 0 };
  for (const row of counts)
    if (row.method in byMethod) byMethod[row.method as keyof typeof byMethod] = Number(row.pairs);
  const total =
    query.method === "all"
      ? byMethod.auto + byMethod.model + byMethod.confirmed + byMethod.rejected
      : byMethod[query.method];
  return { pairs: await withReviewers(deps, rows, pairJson), total, counts: byMethod };
}

/** One pair as the list shows it; undefined when the table has no such pair. */
export async function readPair(
  deps: PairReadDeps,
  pair: { polymarketId: string; kalshiTicker: string },
): Promise<CrossVenuePair | undefined> {
  const rows = await deps.warehouse.query<ListedRow>(withPairs(`SELECT * FROM listed${JOIN_USE_NULLS}`), {
    params: filterParams({ method: "all", relation: "all", q: "", pair }),
  });
  const [listed] = await withReviewers(deps, rows, pairJson);
  return listed;
}

interface ReviewRow {
  polymarket_id: string;
  kalshi_ticker: string;
  action: string;
  relation: string;
  orientation: string;
  reviewed_by: string;
  reviewed_at: string;
  question: string | null;
  title: string | null;
}

const REVIEWS = `
WITH
  reviews AS (
    SELECT * FROM internal.pair_reviews
    ORDER BY reviewed_at DESC, polymarket_id, kalshi_ticker
    LIMIT {limit:UInt32} OFFSET {offset:UInt32}
  )
SELECT reviews.*, p.question AS question, k.title AS title
FROM reviews
LEFT JOIN (
  SELECT id, question FROM polymarket.markets_latest FINAL WHERE id IN (SELECT polymarket_id FROM reviews)
) AS p ON p.id = reviews.polymarket_id
LEFT JOIN (
  SELECT ticker, title FROM kalshi.markets_latest FINAL WHERE ticker IN (SELECT kalshi_ticker FROM reviews)
) AS k ON k.ticker = reviews.kalshi_ticker
ORDER BY reviewed_at DESC, polymarket_id, kalshi_ticker${JOIN_USE_NULLS}`;

export async function listReviews(deps: PairReadDeps, query: z.output<typeof ZPairReviewsQuery>): Promise<PairReviews> {
  const [rows, [count]] = await Promise.all([
    deps.warehouse.query<ReviewRow>(REVIEWS, { params: query }),
    deps.warehouse.query<{ reviews: string }>("SELECT count() AS reviews FROM internal.pair_reviews"),
  ]);
  const reviews = await withReviewers(deps, rows, (row, reviewerEmail) => ({
    polymarket_id: row.polymarket_id,
    kalshi_ticker: row.kalshi_ticker,
    polymarket_question: row.question,
    kalshi_title: row.title,
    action: row.action as PairReviews["reviews"][number]["action"],
    relation: row.relation as CrossVenuePair["relation"],
    orientation: row.orientation as CrossVenuePair["orientation"],
    reviewed_by: row.reviewed_by,
    reviewer_email: reviewerEmail,
    reviewed_at: isoOf(row.reviewed_at),
  }));
  return { reviews, total: Number(count?.reviews ?? 0) };
}

function pairJson(row: ListedRow, reviewerEmail: string | null): CrossVenuePair {
  return {
    polymarket_id: row.polymarket_id,
    kalshi_ticker: row.kalshi_ticker,
    polymarket: {
      question: row.question,
      subtitle: row.groupItemTitle || null,
      yes_price: numberOf(row.yes_probability),
    },
    kalshi: {
      title: row.title,
      subtitle: row.yes_sub_title || null,
      yes_price: kalshiYes(row),
    },
    // The matcher and this service write only the contract's values.
    relation: row.relation as CrossVenuePair["relation"],
    orientation: row.orientation as CrossVenuePair["orientation"],
    score: Math.round(Number(row.score) * 1000) / 1000,
    method: row.method as CrossVenuePair["method"],
    reasons: row.reasons,
    matched_at: isoOf(row.matched_at),
    reviewed_by: row.reviewed_by,
    reviewer_email: reviewerEmail,
    updated_at: isoOf(row.updated_at),
  };
}

/** Kalshi's last traded Yes price; before a first trade, the middle of the quotes. */
function kalshiYes(row: ListedRow): number | null {
  const last = numberOf(row.last_price_dollars);
  if (last !== null && last > 0) return last;
  const [bid, ask] = [numberOf(row.yes_bid_dollars), numberOf(row.yes_ask_dollars)];
  if (bid !== null && ask !== null && ask > 0) return Math.round(((bid + ask) / 2) * 10_000) / 10_000;
  return last;
}

/** Maps rows with the e-mail of the user each was reviewed by (ids that are no user's, such as a script's, stay bare). */
async function withReviewers<Row extends { reviewed_by: string | null }, Json>(
  deps: PairReadDeps,
  rows: Row[],
  toJson: (row: Row, reviewerEmail: string | null) => Json,
): Promise<Json[]> {
  const ids = [
    ...new Set(rows.flatMap((row) => (row.reviewed_by && UUID.test(row.reviewed_by) ? [row.reviewed_by] : []))),
  ];
  const users =
    ids.length === 0
      ? []
      : await deps.db
          .select({ id: schema.users.id, email: schema.users.email })
          .from(schema.users)
          .where(inArray(schema.users.id, ids));
  const emails = new Map(users.map((user) => [user.id, user.email]));
  return rows.map((row) => toJson(row, (row.reviewed_by && emails.get(row.reviewed_by)) ?? null));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

const isoOf = (value: string) => fromDateTime64(value).toISOString();

interface MatcherRunRow {
  pass: MatcherRun["pass"];
  started_at: string;
  candidates: number;
  same_contract: number;
  related: number;
  written: number;
  retired: number;
  duration_ms: number;
}

/**
 * Where the matcher stands, from its log (`internal.matcher_runs`): the last full pass, the
 * last run after a snapshot, and how far the one-time pass over closed markets has gone.
 */
export async function readMatcherStatus(deps: Pick<PairReadDeps, "warehouse">): Promise<MatcherStatus> {
  const runs = (where: string) =>
    deps.warehouse.query<MatcherRunRow>(
      `SELECT pass, toString(started_at) AS started_at, candidates, same_contract, related, written, retired, duration_ms
       FROM internal.matcher_runs WHERE ${where} ORDER BY started_at DESC LIMIT 1`,
    );
  const [[full], [last], closed] = await Promise.all([
    runs("pass = 'full'"),
    runs("pass != 'closed'"),
    closedPassProgress(deps.warehouse),
  ]);
  return {
    last_full: full ? matcherRunJson(full) : null,
    last_run: last ? matcherRunJson(last) : null,
    closed_pass: {
      state: closed.done ? "done" : closed.windows > 0 ? "running" : "waiting",
      paired_through: closed.pairedThrough?.toISOString() ?? null,
      windows: closed.windows,
    },
  };
}

function matcherRunJson(row: MatcherRunRow): MatcherRun {
  return {
    pass: row.pass,
    started_at: isoOf(row.started_at),
    candidates: Number(row.candidates),
    same_contract: Number(row.same_contract),
    related: Number(row.related),
    written: Number(row.written),
    retired: Number(row.retired),
    duration_ms: Number(row.duration_ms),
  };
}
