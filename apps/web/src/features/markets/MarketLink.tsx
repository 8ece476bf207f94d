/**
 * A market key drawn as a link to its market page, wherever the product shows one (a
 * catalog sample, a tile's table, a result cell). The text is what the place would show
 * anyway; only the key decides where it goes.
 */
import type { Venue } from "@epicenter/contracts";
import type { ReactNode } from "react";
import { Link } from "react-router";
import styles from "./MarketLink.module.css";
import { marketPath } from "./market-keys";
import { VENUE_NAMES } from "./market-model";

export function MarketLink({ venue, id, children }: { venue: Venue; id: string; children?: ReactNode }) {
  return (
    <Link
      to={marketPath(venue, id)}
      className={styles.link}
      title={`Open the ${VENUE_NAMES[venue]} market ${id}`}
      data-market-link={venue}
    >
      {children ?? id}
    </Link>
  );
}
