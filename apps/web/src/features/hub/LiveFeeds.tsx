/**
 * The status page's live feeds: per venue, the capture's sockets, what they read, the gaps
 * it opened (each a row of `<venue>.stream_gaps`) and what it does not capture (Kalshi's
 * books without the operator's key), or that no capture runs here.
 */
import { type SyncStatusResponse, VENUE_FACTS, VENUES } from "@epicenter/contracts";
import { formatCount } from "../../ui/format";
import hubStyles from "./hub.module.css";
import sectionStyles from "./status.module.css";

const styles = { ...hubStyles, ...sectionStyles };

export function LiveFeeds({ status }: { status: SyncStatusResponse }) {
  return (
    <section className={styles.history} aria-label="Live feeds">
      <h2>Live feeds</h2>
      <p className={styles.muted}>
        Every open market's book from the venues' WebSockets, change by change, into{" "}
        <code>polymarket.book_changes</code> and <code>kalshi.book_changes</code>; each moment a book could not be
        vouched for is a row of <code>stream_gaps</code>.
      </p>
      <div className={styles.offsets}>
        {VENUES.map((name) => {
          const feed = status.sources[name].live_feed;
          return (
            <div key={name} data-testid={`live-${name}`}>
              <h3>{VENUE_FACTS[name].label}</h3>
              {feed === null ? (
                <p className={styles.muted}>
                  Not running here (the live worker of SYNC_WORKERS starts after the first snapshot).
                </p>
              ) : (
                <ul>
                  <li>
                    <span>Sockets open</span>
                    <strong data-testid="live-open">
                      {formatCount(feed.open)} / {formatCount(feed.connections)}
                    </strong>
                  </li>
                  <li>
                    <span>Book changes</span>
                    <strong data-testid="live-changes">{formatCount(feed.book_changes)}</strong>
                  </li>
                  <li>
                    <span title="Trades the stream brought; of them, those the trade tape did not hold yet">
                      Trades read · new to the tape
                    </span>
                    <strong>
                      {formatCount(feed.trades)} · {formatCount(feed.trades_stored)}
                    </strong>
                  </li>
                  <li>
                    <span title="Lost messages, stalls and disconnects, each healed by a new subscription">
                      Gaps opened
                    </span>
                    <strong data-testid="live-gaps">{formatCount(feed.gaps)}</strong>
                  </li>
                  <li>
                    <span>Reconnects</span>
                    <strong>{formatCount(feed.reconnects)}</strong>
                  </li>
                  {feed.not_captured && (
                    <li>
                      <span>Not captured</span>
                      <strong data-testid="live-not-captured">{feed.not_captured}</strong>
                    </li>
                  )}
                </ul>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
