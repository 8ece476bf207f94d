/**
 * The changelog (SPEC §2 hub changelog, §3 "Changelog entry" and "Known issue"), as data.
 * Each entry says what changed for people who query the tables, and how to change a query
 * that relied on the old behaviour.
 */

export interface ChangelogEntry {
  version: string;
  date: string;
  title: string;
  category: "Data" | "Schema" | "Platform";
  summary: string;
  impact: string;
  tables: string[];
  coverage: "complete" | "limited";
  migrationGuide: { issue: string; wrongExample: string; rightExample: string; tldr: string } | null;
}

export interface KnownIssue {
  title: string;
  status: "resolved";
  window: string;
  affected: string;
  detail: string;
  workaround: string;
}

export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    version: "1.2.0",
    date: "2025-10-21",
    title: "Pending closed events kept for 7 days; Kalshi combo events removed",
    category: "Data",
    summary:
      "Events that have closed but not yet resolved now stay in the sync for 7 days (previously 1 day), so late settlements are captured. Kalshi combo events (ticker prefix KXMVE) were removed from the archive and are excluded from every future sync.",
    impact:
      "Resolution prices of slow-settling markets now appear in the snapshots. Counts of Kalshi events and markets dropped where combos had been stored.",
    tables: ["polymarket.events", "polymarket.markets", "kalshi.events", "kalshi.markets"],
    coverage: "complete",
    migrationGuide: {
      issue:
        "Queries that filtered combo events out by hand are no longer needed, and queries that counted them changed.",
      wrongExample: `SELECT count()
FROM kalshi.markets_latest FINAL
WHERE NOT startsWith(event_ticker, 'KXMVE')`,
      rightExample: `SELECT count()
FROM kalshi.markets_latest FINAL`,
      tldr: "KXMVE combos are gone from every Kalshi table; drop your own combo filters.",
    },
  },
  {
    version: "1.1.0",
    date: "2025-10-18",
    title: "Kalshi settlement states tracked",
    category: "Schema",
    summary:
      "Kalshi markets are now followed through settlement: the status column records determined, settled and finalized as Kalshi reports them, with result and settlement_value_dollars filled in once known.",
    impact:
      "Settled Kalshi markets no longer disappear after closing; their final status and result are in the snapshots from Oct 18 2025 onward. Earlier snapshots only know active and closed.",
    tables: ["kalshi.markets", "kalshi.markets_latest"],
    coverage: "limited",
    migrationGuide: {
      issue: "Treating 'closed' as the end of a Kalshi market misses the settlement states that follow it.",
      wrongExample: `SELECT ticker, result
FROM kalshi.markets_latest FINAL
WHERE status = 'closed'`,
      rightExample: `SELECT ticker, status, result, settlement_value_dollars
FROM kalshi.markets_latest FINAL
WHERE status IN ('determined', 'settled', 'finalized')`,
      tldr: "Settled Kalshi markets are determined, settled or finalized — not closed — from Oct 18 2025.",
    },
  },
  {
    version: "1.0.0",
    date: "2025-10-06",
    title: "Launch: Polymarket and Kalshi archived every 10 minutes",
    category: "Platform",
    summary:
      "Epicenter launched with snapshots of every Polymarket and Kalshi event and market about every 10 minutes, history backfilled from 2020 (Polymarket) and 2021 (Kalshi), and SQL access through the editor, the catalog and the REST API.",
    impact: "3.27M markets at launch (3.15M Kalshi, 124K Polymarket). Unlimited retention from Oct 6 2025.",
    tables: ["polymarket.events", "polymarket.markets", "kalshi.events", "kalshi.markets"],
    coverage: "complete",
    migrationGuide: {
      issue:
        "The snapshot tables hold one row per object per sync; reading them without picking the latest row counts every snapshot.",
      wrongExample: `SELECT count()
FROM polymarket.markets
WHERE NOT closed`,
      rightExample: `SELECT count()
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)`,
      tldr: "Use the latest row per id (row_number or *_latest FINAL), never the raw snapshot count.",
    },
  },
];

export const KNOWN_ISSUES: readonly KnownIssue[] = [
  {
    title: "Polymarket volume and liquidity were NULL",
    status: "resolved",
    window: "Oct 6 2025 16:22 UTC – Oct 10 2025 02:20 UTC",
    affected: "About 80K snapshots of polymarket.events and polymarket.markets",
    detail:
      "An upstream field change left volume and liquidity empty in the snapshots of that window. Later snapshots are complete.",
    workaround:
      "Exclude the window, or take volume from the nearest snapshot after it: WHERE sync_timestamp NOT BETWEEN '2025-10-06 16:22:00' AND '2025-10-10 02:20:00'.",
  },
];
