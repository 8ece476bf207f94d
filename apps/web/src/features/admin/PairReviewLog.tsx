/** The change log of Admin → Cross-venue: every confirm, reject and pair made by hand, newest first. */
import type { PairReview } from "@epicenter/contracts";
import { formatDateTime, formatRelative } from "../../lib/time";
import { MarketLink } from "../markets/MarketLink";
import { AdminTable } from "./AdminTable";
import { usePairReviews } from "./api";
import venue from "./cross-venue.module.css";
import { RelationCell } from "./PairCells";

const ACTION_LABELS: Record<PairReview["action"], string> = {
  confirm: "Confirmed",
  reject: "Rejected",
  manual: "Paired by hand",
};

export function PairReviewLog() {
  const reviews = usePairReviews();
  return (
    <AdminTable
      query={reviews}
      rows={reviews.data?.reviews}
      rowKey={(review) => `${review.reviewed_at} ${review.polymarket_id} ${review.kalshi_ticker} ${review.action}`}
      empty="No pair has been reviewed yet."
      columns={[
        {
          header: "When",
          cell: (review) => (
            <span title={formatDateTime(review.reviewed_at)}>{formatRelative(review.reviewed_at)}</span>
          ),
        },
        { header: "Who", cell: (review) => review.reviewer_email ?? review.reviewed_by },
        { header: "Change", cell: (review) => ACTION_LABELS[review.action] },
        {
          header: "Polymarket",
          cell: (review) => (
            <span className={venue.market}>
              <MarketLink venue="polymarket" id={review.polymarket_id}>
                {review.polymarket_question ?? review.polymarket_id}
              </MarketLink>
            </span>
          ),
        },
        {
          header: "Kalshi",
          cell: (review) => (
            <span className={venue.market}>
              <MarketLink venue="kalshi" id={review.kalshi_ticker}>
                {review.kalshi_title ?? review.kalshi_ticker}
              </MarketLink>
            </span>
          ),
        },
        {
          header: "As",
          cell: (review) => <RelationCell relation={review.relation} orientation={review.orientation} />,
        },
      ]}
    />
  );
}
