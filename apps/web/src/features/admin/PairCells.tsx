/** How a cross-venue pair's parts read in the admin's tables: a market, the relation, the reasons. */
import type { CrossVenuePair } from "@epicenter/contracts";
import { Badge } from "../../ui/Badge";
import { formatValue } from "../../ui/format";
import { MarketLink } from "../markets/MarketLink";
import venue from "./cross-venue.module.css";

/** One side of a pair: the market's link, its outcome label and its Yes price. */
export function MarketCell({ pair, venue: side }: { pair: CrossVenuePair; venue: "polymarket" | "kalshi" }) {
  const { id, title, subtitle, yesPrice } =
    side === "polymarket"
      ? {
          id: pair.polymarket_id,
          title: pair.polymarket.question,
          subtitle: pair.polymarket.subtitle,
          yesPrice: pair.polymarket.yes_price,
        }
      : {
          id: pair.kalshi_ticker,
          title: pair.kalshi.title,
          subtitle: pair.kalshi.subtitle,
          yesPrice: pair.kalshi.yes_price,
        };
  return (
    <span className={`${venue.stack} ${venue.market}`}>
      <MarketLink venue={side} id={id}>
        {title ?? id}
      </MarketLink>
      {subtitle && subtitle !== title ? <span className={venue.subtitle}>{subtitle}</span> : null}
      <span className={venue.muted}>
        {title === null ? "Not in the latest snapshot" : `Yes ${formatValue(yesPrice, "probability")}`}
      </span>
    </span>
  );
}

const RELATION_LABELS = { same_contract: "Same contract", related: "Related" } as const;
const ORIENTATION_TITLES = {
  same: "Polymarket's first outcome means Kalshi's Yes",
  inverse: "Polymarket's first outcome means Kalshi's No",
} as const;

export function RelationCell({ relation, orientation }: Pick<CrossVenuePair, "relation" | "orientation">) {
  return (
    <span className={venue.stack}>
      <Badge tone={relation === "same_contract" ? "success" : "neutral"}>{RELATION_LABELS[relation]}</Badge>
      <span className={venue.muted} title={ORIENTATION_TITLES[orientation]}>
        {orientation === "same" ? "Same orientation" : "Inverse orientation"}
      </span>
    </span>
  );
}

export function Reasons({ reasons }: { reasons: string[] }) {
  if (reasons.length === 0) return <span className={venue.muted}>—</span>;
  return (
    <ul className={venue.reasons}>
      {reasons.map((reason) =>
        reason.startsWith("differs: ") ? (
          <li key={reason} className={venue.differs}>
            Differs: {reason.slice("differs: ".length)}
          </li>
        ) : (
          <li key={reason}>{reason.charAt(0).toUpperCase() + reason.slice(1)}</li>
        ),
      )}
    </ul>
  );
}
