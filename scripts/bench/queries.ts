/**
 * The queries the benchmark times, each written twice: in the ClickHouse dialect (what a
 * user sends to `POST /api/query`, the spec's samples taken verbatim from the product's
 * example gallery) and in DuckDB's dialect over the same data exported as Parquet.
 *
 * The DuckDB text is a faithful translation, not a different question: `multiIf(match…)`
 * becomes `CASE WHEN regexp_matches…` (both engines use RE2), `countIf` becomes
 * `count(*) FILTER`, `toStartOfHour` `date_trunc`, `FINAL` disappears because the latest
 * tables are exported already deduplicated. Both sides return the same rows.
 *
 * The full-text-ish search is `ILIKE '%bitcoin%'` on both engines: the same semantics on
 * both (a case-insensitive substring), where `hasToken` has no exact DuckDB twin.
 */
import { adviseQuery } from "@epicenter/contracts";
import { EXAMPLE_QUERIES } from "../../apps/server/src/services/queries/examples";
import type { Endpoint } from "./product-client";

export interface BenchQuery {
  id: string;
  title: string;
  clickhouse: string;
  duckdb: string;
  /** Small results are where the service's overhead is judged (goal ≤ 5 ms); large ones by product/engine (≤ 1.2×). */
  isSmallResult: boolean;
  /** Where the product path sends it: the spec's `POST /api/query` unless said. */
  endpoint?: Endpoint;
}

function example(n: number): string {
  const found = EXAMPLE_QUERIES[n - 1];
  if (!found) throw new Error(`no example query ${n}`);
  return found.sql;
}

/** `multiIf(match(lower(col), 're'), 'A', …, 'Other')` → `CASE WHEN regexp_matches(lower(col), 're') THEN 'A' … END`. */
export function multiIfToCase(expression: string): string {
  const arms = [...expression.matchAll(/match\(lower\((\w+)\), '((?:[^'\\]|\\.)*)'\), '([^']+)'/g)];
  const fallback = /'([^']+)'\)\s*$/.exec(expression)?.[1] ?? "Other";
  // A ClickHouse string literal unescapes `\\` to `\`; DuckDB's standard literals do not.
  const literal = (text: string) => `'${text.replaceAll("\\\\", "\\").replaceAll("\\'", "''")}'`;
  const whens = arms.map(([, column, pattern, label]) => {
    return `WHEN regexp_matches(lower(${column}), ${literal(pattern ?? "")}) THEN '${label}'`;
  });
  return `CASE ${whens.join(" ")} ELSE '${fallback}' END`;
}

function translateCategories(sql: string): string {
  return sql.replace(/multiIf\([\s\S]*?'(?:Other|Global)'\)/, (found) => multiIfToCase(found));
}

/** Ten markets' whole week of snapshots: an answer of 10,000 rows. */
const TEN_MARKETS_SQL = `SELECT id, sync_timestamp, yes_probability, volume, volume24hr
FROM polymarket.markets
WHERE id IN (SELECT id FROM polymarket.markets_latest ORDER BY id LIMIT 10)
ORDER BY id, sync_timestamp
LIMIT 10000`;

export function benchQueries(lookupId: string): BenchQuery[] {
  const quotedId = `'${lookupId.replaceAll("'", "")}'`;
  return [
    {
      id: "q1-open-by-category",
      title: "Sample 1: open markets by category",
      clickhouse: example(1),
      duckdb: translateCategories(example(1))
        .replace("FROM polymarket.markets_latest FINAL", "FROM pm_markets_latest")
        .replaceAll("ifNull(", "coalesce("),
      isSmallResult: true,
    },
    {
      id: "q2-trading-per-hour-1d",
      title: "Sample 2: trading per hour, last 24 h",
      clickhouse: example(2),
      duckdb: `WITH per_market AS (
  SELECT id, date_trunc('hour', sync_timestamp) AS hour, max(volume) - min(volume) AS traded
  FROM pm_markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
  GROUP BY id, hour
)
SELECT hour, count(*) FILTER (WHERE traded > 0) AS markets_traded, round(sum(traded)) AS volume
FROM per_market GROUP BY hour ORDER BY hour`,
      isSmallResult: true,
    },
    {
      id: "q3-markets-per-region",
      title: "Sample 3: markets per region",
      clickhouse: example(3),
      duckdb: translateCategories(example(3))
        .replace("FROM polymarket.markets_latest FINAL", "FROM pm_markets_latest")
        .replaceAll("ifNull(", "coalesce("),
      isSmallResult: true,
    },
    {
      id: "q4-open-per-platform",
      title: "Sample 4: open markets and volume per platform",
      clickhouse: example(4),
      duckdb: example(4)
        .replace("FROM polymarket.markets_latest FINAL", "FROM pm_markets_latest")
        .replace("FROM kalshi.markets_latest FINAL", "FROM k_markets_latest")
        .replaceAll("ifNull(", "coalesce(")
        .replaceAll("count()", "count(*)"),
      isSmallResult: true,
    },
    {
      id: "q5-daily-activity-7d",
      title: "Sample 5: daily activity, last 7 days",
      clickhouse: example(5),
      duckdb: `WITH daily AS (
  SELECT CAST(sync_timestamp AS DATE) AS day, id, max(volume) - min(volume) AS traded, avg(yes_probability) AS yes_probability
  FROM pm_markets
  WHERE CAST(sync_timestamp AS DATE) >= current_date - 6
  GROUP BY day, id
)
SELECT day, count(*) FILTER (WHERE traded > 0) AS markets_traded, round(sum(traded)) AS volume,
  round(avg(yes_probability), 4) AS avg_yes_probability
FROM daily GROUP BY day ORDER BY day`,
      isSmallResult: true,
    },
    {
      id: "q6-latest-row-pattern",
      title: "Latest snapshot per market (row_number over 1 day)",
      clickhouse: example(6),
      duckdb: example(6).replace("FROM polymarket.markets\n", "FROM pm_markets\n"),
      isSmallResult: true,
    },
    {
      // What the editor offers for q6 (`adviseQuery`): the latest-state twin with the same
      // bound, the same rows. DuckDB runs the same rewrite over its export of the twin; its
      // figure for the pattern as written is q6's.
      id: "q6b-latest-row-rewrite",
      title: "The same rows, as the editor rewrites the pattern (latest-state twin, same bound)",
      clickhouse: latestRowRewrite(example(6)),
      duckdb: latestRowRewrite(example(6)).replace("FROM polymarket.markets_latest FINAL", "FROM pm_markets_latest"),
      isSmallResult: true,
    },
    {
      id: "q7-latest-table",
      title: "The same from the latest-state table",
      clickhouse: `SELECT id, question, yes_probability, volume24hr, sync_timestamp
FROM polymarket.markets_latest FINAL
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`,
      duckdb: `SELECT id, question, yes_probability, volume24hr, sync_timestamp
FROM pm_markets_latest
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`,
      isSmallResult: true,
    },
    {
      id: "q8-point-lookup",
      title: "One market's whole history (point lookup)",
      clickhouse: `SELECT sync_timestamp, yes_probability, volume, volume24hr
FROM polymarket.markets
WHERE id = ${quotedId}
ORDER BY sync_timestamp`,
      duckdb: `SELECT sync_timestamp, yes_probability, volume, volume24hr
FROM pm_markets
WHERE id = ${quotedId}
ORDER BY sync_timestamp`,
      isSmallResult: false,
    },
    {
      id: "q10-ten-thousand-rows",
      title: "Ten markets' whole history (a 10,000-row answer)",
      clickhouse: TEN_MARKETS_SQL,
      duckdb: `SELECT id, sync_timestamp, yes_probability, volume, volume24hr
FROM pm_markets
WHERE id IN (SELECT id FROM pm_markets_latest ORDER BY id LIMIT 10)
ORDER BY id, sync_timestamp
LIMIT 10000`,
      isSmallResult: false,
    },
    {
      id: "q10b-ten-thousand-rows-arrays",
      title: "The same 10,000 rows as value arrays (`POST /api/query/rows`, what the editor reads)",
      clickhouse: TEN_MARKETS_SQL,
      duckdb: TEN_MARKETS_SQL.replace("FROM polymarket.markets\n", "FROM pm_markets\n").replace(
        "FROM polymarket.markets_latest ORDER BY",
        "FROM pm_markets_latest ORDER BY",
      ),
      isSmallResult: false,
      endpoint: "/api/query/rows",
    },
    {
      id: "q9-question-search-7d",
      title: "Search questions for 'bitcoin', last 7 days",
      clickhouse: `SELECT id, any(question) AS question_text, min(yes_probability) AS low, max(yes_probability) AS high, count() AS snapshots
FROM polymarket.markets
WHERE sync_timestamp >= now() - INTERVAL 7 DAY AND question ILIKE '%bitcoin%'
GROUP BY id
ORDER BY snapshots DESC, id
LIMIT 50`,
      duckdb: `SELECT id, any_value(question) AS question_text, min(yes_probability) AS low, max(yes_probability) AS high, count(*) AS snapshots
FROM pm_markets
WHERE sync_timestamp >= now() - INTERVAL 7 DAY AND question ILIKE '%bitcoin%'
GROUP BY id
ORDER BY snapshots DESC, id
LIMIT 50`,
      isSmallResult: true,
    },
  ];
}

function latestRowRewrite(sql: string): string {
  const rewrite = adviseQuery(sql, ["polymarket.markets", "polymarket.markets_latest"])[0]?.rewrite;
  if (!rewrite) throw new Error("the editor offers no rewrite of the latest-row example");
  return rewrite;
}
