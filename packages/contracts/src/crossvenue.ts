/**
 * Admin → Cross-venue: the review of the pairs the matcher proposes between Polymarket and
 * Kalshi markets (`crossvenue.market_pairs`). An admin confirms or rejects a candidate, or
 * pairs two markets by hand; the matcher keeps every decision across its runs, and each
 * change is logged with who made it and when.
 */
import { z } from "zod";
import { defineEndpoint } from "./endpoint";
import { errorResponse, FORBIDDEN, UNAUTHORIZED } from "./errors";
import { ZMarketParams } from "./markets";

export const ZPairRelation = z
  .enum(["same_contract", "related"])
  .describe(
    "same_contract: identical resolution criteria, source and window; related: the same question with another threshold, date or source",
  );
export type PairRelation = z.infer<typeof ZPairRelation>;

export const ZPairOrientation = z
  .enum(["same", "inverse"])
  .describe("same: Polymarket's first outcome means Kalshi's yes; inverse: it means Kalshi's no");
export type PairOrientation = z.infer<typeof ZPairOrientation>;

export const ZPairMethod = z
  .enum(["auto", "model", "confirmed", "rejected"])
  .describe(
    "auto: proposed by the matcher from both markets' texts, not reviewed; model: settled by the adjudicator (a language model reading both rules, its quotes in the reasons); confirmed or rejected: decided by an admin",
  );
export type PairMethod = z.infer<typeof ZPairMethod>;

export const ZPairReviewAction = z
  .enum(["confirm", "reject", "manual"])
  .describe("confirm or reject a proposed pair, or manual: two markets paired by hand");
export type PairReviewAction = z.infer<typeof ZPairReviewAction>;

const polymarketId = ZMarketParams.shape.id.describe("Polymarket's market id");
const kalshiTicker = ZMarketParams.shape.id.describe("Kalshi's market ticker");

export const ZPairParams = z.object({ polymarket_id: polymarketId, kalshi_ticker: kalshiTicker });

export const ZPairListQuery = z.object({
  method: z
    .enum(["auto", "model", "confirmed", "rejected", "all"])
    .default("auto")
    .describe(
      "Which pairs: auto (the candidates to review, the default), model (settled by the adjudicator), confirmed, rejected or all",
    ),
  relation: z.enum(["same_contract", "related", "all"]).default("all").describe("Which relation (default all)"),
  q: z
    .string()
    .trim()
    .max(200)
    .default("")
    .describe("Words that appear in either market's question or title, or an id or ticker"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PairListQuery = z.input<typeof ZPairListQuery>;

const yesPrice = z.number().nullable().describe("The latest snapshot's Yes price, 0–1; null without a price");

export const ZCrossVenuePair = z.object({
  polymarket_id: z.string(),
  kalshi_ticker: z.string(),
  polymarket: z
    .object({
      question: z.string().nullable().describe("Null when the market is not in the latest snapshot"),
      subtitle: z.string().nullable().describe("The market's group item title"),
      yes_price: yesPrice.describe("yes_probability: the Yes (or first) outcome's price, 0–1"),
    })
    .describe("The Polymarket market as the latest snapshot has it"),
  kalshi: z
    .object({
      title: z.string().nullable().describe("Null when the market is not in the latest snapshot"),
      subtitle: z.string().nullable().describe("The market's yes subtitle"),
      yes_price: yesPrice.describe("The last traded Yes price, else the bid/ask midpoint, 0–1"),
    })
    .describe("The Kalshi market as the latest snapshot has it"),
  relation: ZPairRelation,
  orientation: ZPairOrientation,
  score: z.number().describe("How alike the two markets are, 0–1"),
  method: ZPairMethod,
  reasons: z.array(z.string()).describe("What matched and what differs (`differs: …`), in words"),
  matched_at: z.iso.datetime().describe("When the pair was first proposed, or paired by hand"),
  reviewed_by: z.string().nullable().describe("The user id of the admin who decided; null for the matcher's pairs"),
  reviewer_email: z.string().nullable().describe("That admin's e-mail, when the user is known"),
  updated_at: z.iso.datetime().describe("When the pair last changed"),
});
export type CrossVenuePair = z.infer<typeof ZCrossVenuePair>;

export const ZCrossVenuePairs = z
  .object({
    pairs: z.array(ZCrossVenuePair),
    total: z.number().int().describe("Pairs matching every filter, for paging"),
    counts: z
      .object({
        auto: z.number().int(),
        model: z.number().int(),
        confirmed: z.number().int(),
        rejected: z.number().int(),
      })
      .describe("Pairs matching the relation and text filters, by method"),
  })
  .meta({ id: "CrossVenuePairs" });
export type CrossVenuePairs = z.infer<typeof ZCrossVenuePairs>;

export const ZConfirmPairRequest = z
  .object({
    relation: ZPairRelation.optional().describe("Confirm as this relation instead of the matcher's"),
    orientation: ZPairOrientation.optional().describe("Confirm with this orientation instead of the matcher's"),
  })
  .describe("Both fields are optional; without a body the matcher's relation and orientation are kept");
export type ConfirmPairRequest = z.infer<typeof ZConfirmPairRequest>;

export const ZManualPairRequest = z.object({
  polymarket_id: polymarketId,
  kalshi_ticker: kalshiTicker,
  relation: ZPairRelation,
  orientation: ZPairOrientation,
});
export type ManualPairRequest = z.infer<typeof ZManualPairRequest>;

export const ZPairReviewsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const ZPairReview = z.object({
  polymarket_id: z.string(),
  kalshi_ticker: z.string(),
  polymarket_question: z.string().nullable(),
  kalshi_title: z.string().nullable(),
  action: ZPairReviewAction,
  relation: ZPairRelation,
  orientation: ZPairOrientation,
  reviewed_by: z.string().describe("The admin's user id"),
  reviewer_email: z.string().nullable(),
  reviewed_at: z.iso.datetime(),
});
export type PairReview = z.infer<typeof ZPairReview>;

export const ZPairReviews = z
  .object({ reviews: z.array(ZPairReview), total: z.number().int() })
  .meta({ id: "PairReviews" });
export type PairReviews = z.infer<typeof ZPairReviews>;

export const ZMatcherRun = z.object({
  pass: z
    .enum(["full", "new", "closed"])
    .describe(
      "full: every open market against every open market; new: the markets created since the last run; closed: one window of the pass over closed markets",
    ),
  started_at: z.iso.datetime(),
  candidates: z.number().int().describe("Pairs of markets scored"),
  same_contract: z.number().int(),
  related: z.number().int(),
  written: z.number().int().describe("Pairs new or changed, written"),
  retired: z.number().int().describe("The matcher's own pairs that no longer match, removed"),
  duration_ms: z.number().int(),
});
export type MatcherRun = z.infer<typeof ZMatcherRun>;

export const ZMatcherStatus = z
  .object({
    last_full: ZMatcherRun.nullable().describe("The last full pass; null before the first"),
    last_run: ZMatcherRun.nullable().describe("The last run after a snapshot, full or not; null before the first"),
    closed_pass: z
      .object({
        state: z
          .enum(["waiting", "running", "done"])
          .describe(
            "waiting: for the backfills to bring the closed markets in; running: a window after each matcher run; done: every closed market was paired once",
          ),
        paired_through: z.iso
          .datetime()
          .nullable()
          .describe("The close dates paired so far end here; null before the first window"),
        windows: z.number().int().describe("Windows of close dates paired so far"),
      })
      .describe("The one-time pass over closed markets"),
  })
  .meta({ id: "MatcherStatus" });
export type MatcherStatus = z.infer<typeof ZMatcherStatus>;

const pairNotFound = errorResponse("No such pair in crossvenue.market_pairs");
const sameContractTaken = errorResponse(
  "One of the two markets is already the same contract as another market, in a confirmed pair",
);

/** The cross-venue review endpoints; merged into `endpoints`. */
export const crossVenueEndpoints = {
  adminListPairs: defineEndpoint({
    method: "get",
    path: "/api/admin/crossvenue/pairs",
    summary: "Cross-venue pairs to review",
    description:
      "The pairs of crossvenue.market_pairs with both markets' titles and Yes prices, the candidates (method auto) by default: same-contract pairs first, then by score. Decided pairs come newest decision first. `counts` gives the number of pairs by method under the same relation and text filters.",
    tag: "Admin",
    auth: "admin",
    query: ZPairListQuery,
    responses: {
      200: { description: "Pairs", schema: ZCrossVenuePairs },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
    },
  }),
  adminConfirmPair: defineEndpoint({
    method: "post",
    path: "/api/admin/crossvenue/pairs/{polymarket_id}/{kalshi_ticker}/confirm",
    summary: "Confirm a cross-venue pair",
    description:
      "Marks the pair confirmed, optionally as another relation or orientation. The matcher never changes it again, and a same-contract pair takes its markets' one same-contract place: the matcher's other same-contract pairs of either market become related.",
    tag: "Admin",
    auth: "admin",
    params: ZPairParams,
    body: ZConfirmPairRequest,
    responses: {
      200: { description: "The pair as it now stands", schema: ZCrossVenuePair },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      404: pairNotFound,
      409: sameContractTaken,
    },
  }),
  adminRejectPair: defineEndpoint({
    method: "post",
    path: "/api/admin/crossvenue/pairs/{polymarket_id}/{kalshi_ticker}/reject",
    summary: "Reject a cross-venue pair",
    description: "Marks the pair rejected. The matcher never proposes it again; arbitrage figures leave it out.",
    tag: "Admin",
    auth: "admin",
    params: ZPairParams,
    responses: {
      200: { description: "The pair as it now stands", schema: ZCrossVenuePair },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      404: pairNotFound,
    },
  }),
  adminAddPair: defineEndpoint({
    method: "post",
    path: "/api/admin/crossvenue/pairs",
    summary: "Pair two markets by hand",
    description:
      "Pairs a Polymarket market and a Kalshi market, both in the latest snapshots, as confirmed with the relation and orientation given. The score and reasons are the matcher's own comparison of the two. A pair that already exists is confirmed as given.",
    tag: "Admin",
    auth: "admin",
    body: ZManualPairRequest,
    responses: {
      201: { description: "The pair", schema: ZCrossVenuePair },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      404: errorResponse("A market id that is not in the latest snapshot; the message names it"),
      409: sameContractTaken,
    },
  }),
  adminMatcherStatus: defineEndpoint({
    method: "get",
    path: "/api/admin/crossvenue/matcher",
    summary: "Where the cross-venue matcher stands",
    description:
      "The matcher's last full pass and last run (what each scored, wrote and retired, and how long it took), and how far the one-time pass over closed markets has gone.",
    tag: "Admin",
    auth: "admin",
    responses: {
      200: { description: "The matcher's runs", schema: ZMatcherStatus },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
    },
  }),
  adminPairReviews: defineEndpoint({
    method: "get",
    path: "/api/admin/crossvenue/reviews",
    summary: "The log of cross-venue pair reviews",
    description: "Every confirm, reject and pair made by hand, with who made it and when, newest first.",
    tag: "Admin",
    auth: "admin",
    query: ZPairReviewsQuery,
    responses: {
      200: { description: "Changes, newest first", schema: ZPairReviews },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
    },
  }),
};
