/**
 * Docs (SPEC §2 hub docs): quick start (Seismo or SQL), the required latest-row pattern
 * and the faster latest-state tables, tables and primary keys, and tips. The share of
 * Kalshi markets that never traded is computed from the warehouse, not written down.
 */
import {
  DOCS_FORWARD_FILL_SQL,
  DOCS_HISTORY_SQL,
  DOCS_LATEST_ROW_SQL,
  DOCS_LATEST_TABLE_SQL,
  DOCS_LATEST_WINDOW_SQL,
} from "@epicenter/contracts";
import { Brain, Code2, SquareArrowOutUpRight } from "lucide-react";
import { Link } from "react-router";
import { CodeBlock } from "../../ui/CodeBlock";
import { editorUrl } from "../../ui/editor-link";
import { Spinner } from "../../ui/Spinner";
import { usePlatformStats } from "./api";
import sectionStyles from "./docs.module.css";
import hubStyles from "./hub.module.css";

/** The hub's shared styles plus this section's own. */
const styles = { ...hubStyles, ...sectionStyles };

const TABLE_KEYS: ReadonlyArray<[string, string, string]> = [
  ["polymarket.events", "id", "one row per event per sync"],
  ["polymarket.markets", "id", "one row per market per sync; event_id → events.id"],
  ["kalshi.events", "event_ticker", "one row per event per sync"],
  ["kalshi.markets", "ticker", "one row per market per sync; event_ticker → events"],
  ["polymarket.events_latest", "id", "newest snapshot per event (FINAL)"],
  ["polymarket.markets_latest", "id", "newest snapshot per market (FINAL)"],
  ["kalshi.events_latest", "event_ticker", "newest snapshot per event (FINAL)"],
  ["kalshi.markets_latest", "ticker", "newest snapshot per market (FINAL)"],
  ["polymarket.prices", "id, token_id, ts", "the venue's price points per outcome, hourly, then every minute"],
  ["polymarket.trades", "transaction_hash, trade_index", "one row per fill; id → markets.id"],
  [
    "kalshi.candles",
    "ticker, period_minutes, end_period_ts",
    "the venue's candles: 1 or 60 minutes (a day is its hours, rolled up)",
  ],
  ["kalshi.trades", "trade_id", "one row per trade; ticker → markets"],
];

function OpenInEditor({ sql, title }: { sql: string; title: string }) {
  return (
    <Link to={editorUrl({ sql, title })} className={styles.inlineAction}>
      <SquareArrowOutUpRight size={12} /> Open in editor
    </Link>
  );
}

function ZeroVolumeShare() {
  const stats = usePlatformStats();
  if (stats.isPending) return <Spinner size={11} />;
  const kalshi = stats.data?.by_source.kalshi;
  if (!kalshi || kalshi.markets === 0) return <strong>—</strong>;
  const share = (kalshi.zero_volume_markets / kalshi.markets) * 100;
  return (
    <strong data-testid="kalshi-zero-volume-share" title={`${kalshi.zero_volume_markets} of ${kalshi.markets} markets`}>
      {share.toFixed(0)}%
    </strong>
  );
}

export function DocsSection() {
  return (
    <div className={styles.doc}>
      <section>
        <h2>Quick start</h2>
        <div className={styles.quickStart}>
          <Link to="/intelligence" className={styles.quickCard}>
            <Brain size={18} />
            <h3>Ask Seismo</h3>
            <p>
              Describe what you want in plain words. Seismo, the AI assistant, writes the SQL for you or analyses the
              data and explains what it found. Best when you are exploring.
            </p>
          </Link>
          <Link to="/queries/new" className={styles.quickCard}>
            <Code2 size={18} />
            <h3>Write SQL</h3>
            <p>
              Open the editor and query the tables directly in the ClickHouse dialect. Best when you know what you need,
              and for anything you want to save, share or call from the API.
            </p>
          </Link>
        </div>
      </section>

      <section>
        <h2>The latest-row pattern (required)</h2>
        <p>
          The snapshot tables hold one row per market <em>per sync run</em>, so a plain <code>count()</code> or{" "}
          <code>avg()</code> counts every snapshot. To read the current state, number each object's rows by{" "}
          <code>sync_timestamp</code>, newest first, and keep row 1:
        </p>
        <CodeBlock
          code={DOCS_LATEST_ROW_SQL}
          caption="row_number() OVER (PARTITION BY id ORDER BY sync_timestamp DESC)"
          actions={<OpenInEditor sql={DOCS_LATEST_ROW_SQL} title="Latest snapshot per market" />}
        />
        <p>
          Faster: each snapshot table has a latest-state twin (<code>*_latest</code>) holding only the newest snapshot
          of each object. Read it with <code>FINAL</code> so rows not yet merged are collapsed. With the window's bound
          on <code>sync_timestamp</code> it answers exactly the rows of the pattern above: the pattern sorts every
          snapshot of the window (about 150 ms for a day of 10,000 markets), the twin reads one row per market (about 6
          ms). The editor offers this rewrite when it sees the pattern.
        </p>
        <CodeBlock
          code={DOCS_LATEST_WINDOW_SQL}
          caption="The same rows from polymarket.markets_latest FINAL"
          actions={<OpenInEditor sql={DOCS_LATEST_WINDOW_SQL} title="Latest snapshot per market, fast" />}
        />
        <p>
          For the state as of a past moment, read <code>polymarket.markets_asof(ts = …)</code> (or{" "}
          <code>kalshi.markets_asof</code>). Over a window with other filters, the newest row per market is{" "}
          <code>argMax(column, sync_timestamp) … GROUP BY id</code>, which reads the snapshots without sorting them. The
          current state of every object:
        </p>
        <CodeBlock
          code={DOCS_LATEST_TABLE_SQL}
          caption="kalshi.markets_latest FINAL"
          actions={<OpenInEditor sql={DOCS_LATEST_TABLE_SQL} title="Busiest Kalshi markets" />}
        />
      </section>

      <section>
        <h2>Tables and primary keys</h2>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Table</th>
                <th>Primary key</th>
                <th>Rows</th>
              </tr>
            </thead>
            <tbody>
              {TABLE_KEYS.map(([table, key, note]) => (
                <tr key={table}>
                  <td>
                    <Link to={`/datasets/${table.replace(".", "-")}`} className="mono">
                      {table}
                    </Link>
                  </td>
                  <td>
                    <code>{key}</code>
                  </td>
                  <td className={styles.muted}>{note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className={styles.muted}>
          Every snapshot row carries <code>sync_timestamp</code> (UTC). Column-by-column descriptions are in the{" "}
          <Link to="/datasets" className={styles.link}>
            Data Catalog
          </Link>
          .
        </p>
      </section>

      <section>
        <h2>Price and trade history</h2>
        <p>
          The venues' own history of every market, from its first day, also for markets that closed before this install:
          no <code>FINAL</code> needed, each point is stored once. A gap means nothing happened: Kalshi keeps a candle
          only for a period with activity, and a period without a trade has NULL trade prices (never 0), so carry{" "}
          <code>price_previous</code> forward. The gallery's history examples (price path, calibration, volume by hour,
          biggest moves) start from these tables.
        </p>
        <CodeBlock
          code={DOCS_HISTORY_SQL}
          caption="one market's price path"
          actions={<OpenInEditor sql={DOCS_HISTORY_SQL} title="One market's price path" />}
        />
        <CodeBlock
          code={DOCS_FORWARD_FILL_SQL}
          caption="hourly Kalshi prices, quiet hours filled"
          actions={<OpenInEditor sql={DOCS_FORWARD_FILL_SQL} title="Hourly Kalshi prices, quiet hours filled" />}
        />
      </section>

      <section>
        <h2>Tips</h2>
        <div className={styles.tips}>
          <article>
            <h3>ClickHouse dialect</h3>
            <ul>
              <li>
                Time windows: <code>WHERE sync_timestamp &gt;= now() - INTERVAL 1 DAY</code>; buckets with{" "}
                <code>toStartOfHour()</code> and <code>toDate()</code>.
              </li>
              <li>
                Handy aggregates: <code>countIf()</code>, <code>uniqExact()</code>,{" "}
                <code>argMax(x, sync_timestamp)</code> (the latest value of x).
              </li>
              <li>
                Arrays: <code>outcomePrices[1]</code> (1-based), <code>has(tags, 'Politics')</code>.
              </li>
              <li>
                JSON: <code>JSONExtractString(raw, 'field')</code> reads any upstream field without a column.
              </li>
            </ul>
          </article>
          <article>
            <h3>Kalshi quirks</h3>
            <ul>
              <li>
                Prices are dollars from 0 to 1 (<code>last_price_dollars</code>); a price is the probability of Yes.
              </li>
              <li>
                <code>volume</code>, <code>volume_24h</code> and <code>open_interest</code> count contracts, not
                dollars: multiply by a price for dollars.
              </li>
              <li>
                <code>liquidity</code> is in cents and can be negative; Kalshi deprecated it, so recent snapshots are 0
                or NULL.
              </li>
              <li>
                A market's question is <code>title</code> plus <code>yes_sub_title</code> (the outcome of Yes).
              </li>
              <li>
                Open is <code>status = 'active'</code>; settled markets move through determined, settled and finalized.
              </li>
              <li>
                <ZeroVolumeShare /> of Kalshi markets in this archive have zero volume: filter on{" "}
                <code>volume &gt; 0</code> when you mean traded markets.
              </li>
            </ul>
          </article>
          <article>
            <h3>Best practices</h3>
            <ul>
              <li>
                Always add a <code>LIMIT</code>; 20 to 100 rows is the recommended range for exploring.
              </li>
              <li>
                Filter the snapshot tables on <code>sync_timestamp</code> first: the tables are ordered by day, so a
                window reads only its days.
              </li>
              <li>
                Use <code>*_latest FINAL</code> for the current state instead of scanning history.
              </li>
              <li>
                Polymarket omits zero values: wrap volumes and <code>closed</code> in <code>ifNull()</code>.
              </li>
              <li>
                Avoid <code>SELECT *</code> on the snapshot tables: <code>raw</code> is large.
              </li>
            </ul>
          </article>
        </div>
      </section>
    </div>
  );
}
