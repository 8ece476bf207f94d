/**
 * System & Data (SPEC §2 hub status): API status with response time from `/health`,
 * totals, a card per source, backfill progress, and how far each venue's price and trade
 * history has come; everything rechecked every 30 s. A
 * failed health check shows the API as Offline / Down, never an error page.
 */
import {
  type HistoryProgress,
  type SourceSync,
  type SyncStatusResponse,
  VENUE_FACTS,
  VENUES,
} from "@epicenter/contracts";
import { AlertTriangle, Database, Layers, Radio, Server } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { formatRelative } from "../../lib/time";
import { Badge, type BadgeTone } from "../../ui/Badge";
import { EmptyState } from "../../ui/EmptyState";
import { formatCount, formatDate, formatDuration, formatTimestamp } from "../../ui/format";
import { SourceMark } from "../../ui/SourceMark";
import { Spinner } from "../../ui/Spinner";
import { StatTile } from "../../ui/StatTile";
import { type HealthCheck, STATUS_POLL_MS, useHealthCheck, useSyncStatus } from "./api";
import hubStyles from "./hub.module.css";
import { LiveFeeds } from "./LiveFeeds";
import { SandboxNotice } from "./SandboxNotice";
import sectionStyles from "./status.module.css";

/** The hub's shared styles plus this section's own. */
const styles = { ...hubStyles, ...sectionStyles };

const SNAPSHOT_TABLES = VENUES.flatMap((venue) =>
  ["events", "markets"].map((table) => `${VENUE_FACTS[venue].database}.${table}`),
);

/** The source states of SPEC §4: syncing, backfilling, idle, unknown (anything else). */
export function sourceState(status: string): { label: string; tone: BadgeTone } {
  switch (status) {
    case "syncing":
      return { label: "Syncing", tone: "info" };
    case "backfilling":
      return { label: "Backfilling", tone: "warning" };
    case "idle":
      return { label: "Idle", tone: "success" };
    default:
      return { label: "Unknown", tone: "neutral" };
  }
}

export function totalRecords(status: SyncStatusResponse): number {
  return SNAPSHOT_TABLES.reduce((sum, table) => sum + (status.table_counts[table] ?? 0), 0);
}

function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

function ApiStatus({ check }: { check: HealthCheck | undefined }) {
  if (!check) {
    return (
      <Badge tone="neutral" hasDot>
        Checking
      </Badge>
    );
  }
  return check.isOnline ? (
    <Badge tone="success" hasDot>
      Online
    </Badge>
  ) : (
    <Badge tone="danger" hasDot>
      Offline
    </Badge>
  );
}

export function StatusSection() {
  const health = useHealthCheck();
  const sync = useSyncStatus();
  const now = useNow(10_000);
  const check = health.data;
  const status = sync.data;

  return (
    <div className={styles.stack} data-testid="status-section">
      <div className={styles.statGrid}>
        <StatTile
          testId="api-status"
          icon={<Server size={13} />}
          label="API Status"
          value={check ? (check.isOnline ? "Operational" : "Down") : "Checking…"}
          hint={
            <span className={styles.inline}>
              <ApiStatus check={check} />
              {check ? <span data-testid="response-time">{check.responseMs} ms</span> : null}
            </span>
          }
        />
        <StatTile
          testId="total-records"
          icon={<Database size={13} />}
          label="Total Records"
          value={status ? formatCount(totalRecords(status)) : "—"}
          hint="snapshot rows across the four tables"
        />
        <StatTile
          testId="data-sources"
          icon={<Layers size={13} />}
          label="Data Sources"
          value={String(VENUES.length)}
          hint={VENUES.map((venue) => VENUE_FACTS[venue].label).join(" and ")}
        />
        <StatTile
          testId="active-markets"
          icon={<Radio size={13} />}
          label="Active Markets"
          value={
            status
              ? formatCount(VENUES.reduce((total, venue) => total + status.sources[venue].open_events_tracked, 0))
              : "—"
          }
          hint="open events tracked"
        />
      </div>

      {check?.health?.sandbox ? <SandboxNotice sandbox={check.health.sandbox} /> : null}

      {sync.isPending ? (
        <div className={styles.loadingRow}>
          <Spinner /> Loading sync status…
        </div>
      ) : sync.isError ? (
        <EmptyState icon={<AlertTriangle size={20} />} title="Sync status is unavailable" tone="danger">
          {check && !check.isOnline ? "The API is down." : sync.error.message} It is rechecked every 30 seconds.
        </EmptyState>
      ) : (
        <>
          <div className={styles.sourceGrid}>
            {VENUES.map((venue) => (
              <SourceCard key={venue} name={VENUE_FACTS[venue].label} source={status?.sources[venue]} now={now} />
            ))}
          </div>
          {status ? <Backfill status={status} /> : null}
          {status ? <History status={status} /> : null}
          {status ? <LiveFeeds status={status} /> : null}
        </>
      )}

      <p className={styles.footnote} data-testid="checked-at">
        Rechecked every {STATUS_POLL_MS / 1000} s
        {check ? ` · last checked ${new Date(check.checkedAt).toLocaleTimeString("en-US", { hourCycle: "h23" })}` : ""}
        {check?.health
          ? ` · warehouse ${check.health.warehouse.engine}, schema v${check.health.warehouse.schema_version ?? "—"}`
          : ""}
      </p>
    </div>
  );
}

function SourceCard({ name, source, now }: { name: string; source: SourceSync | undefined; now: Date }) {
  if (!source) return null;
  const state = sourceState(source.status);
  const lastRun = source.recent_runs[0];
  return (
    <section className={styles.sourceCard} data-testid={`source-${name.toLowerCase()}`} aria-label={name}>
      <header className={styles.sourceHeader}>
        <SourceMark source={name} size={36} />
        <div>
          <h2>{name}</h2>
          <p className={styles.muted}>
            Last sync{" "}
            <time
              dateTime={source.last_sync ?? ""}
              data-testid="last-sync"
              data-last-sync={source.last_sync ?? ""}
              title={source.last_sync ?? "never"}
            >
              {formatRelative(source.last_sync, now)}
            </time>
          </p>
        </div>
        <Badge tone={state.tone} hasDot>
          {state.label}
        </Badge>
      </header>
      <dl className={styles.sourceStats}>
        <div>
          <dt>Open events</dt>
          <dd>{formatCount(source.open_events_tracked)}</dd>
        </div>
        <div>
          <dt>Total events</dt>
          <dd>{formatCount(source.events_count)}</dd>
        </div>
        <div>
          <dt>Total markets</dt>
          <dd data-testid="total-markets">{formatCount(source.markets_count)}</dd>
        </div>
      </dl>
      {lastRun ? (
        <p className={lastRun.success ? styles.runOk : styles.runFailed}>
          Last run {lastRun.success ? "succeeded" : "failed"} in {(lastRun.duration_ms / 1000).toFixed(1)} s ·{" "}
          {formatCount(lastRun.markets_written)} markets, {formatCount(lastRun.events_written)} events written ·{" "}
          <span data-testid="run-count">{source.recent_runs.length}</span> recent{" "}
          {source.recent_runs.length === 1 ? "run" : "runs"}
        </p>
      ) : (
        <p className={styles.muted}>No sync run yet.</p>
      )}
    </section>
  );
}

function Backfill({ status }: { status: SyncStatusResponse }) {
  const sources = VENUES.filter(
    (name) => status.sources[name].is_backfilling || status.sources[name].status === "backfilling",
  );
  if (sources.length === 0) return null;
  return (
    <section className={styles.backfill} aria-label="Backfilling in progress">
      <h2>
        <Spinner size={14} /> Backfilling in progress
      </h2>
      <p className={styles.muted}>
        Closed history is being filled in between snapshots. Objects backfilled so far, per event type:
      </p>
      <div className={styles.offsets}>
        {sources.map((name) => (
          <div key={name}>
            <h3>{VENUE_FACTS[name].label}</h3>
            <ul>
              {Object.entries(status.sources[name].backfill_offsets).map(([type, offset]) => (
                <li key={type}>
                  <span className="mono">{type}</span>
                  <strong>{formatCount(offset)}</strong>
                </li>
              ))}
              {Object.keys(status.sources[name].backfill_offsets).length === 0 ? <li>Starting…</li> : null}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

function History({ status }: { status: SyncStatusResponse }) {
  return (
    <section className={styles.history} aria-label="Price and trade history">
      <h2>Price and trade history</h2>
      <p className={styles.muted}>
        Every market's prices, candles and trades from the venues: open markets by activity (every 10 minutes while they
        trade, hourly after a day's trading, daily otherwise), closing soonest first, then closed ones newest first.
      </p>
      <div className={styles.offsets}>
        {VENUES.map((name) => {
          const history = status.sources[name].history;
          const limits = Object.entries(status.sources[name].limits_used);
          const share = history.markets_known > 0 ? history.markets_done / history.markets_known : 0;
          return (
            <div key={name} data-testid={`history-${name}`}>
              <h3>{VENUE_FACTS[name].label}</h3>
              <progress
                className={styles.progress}
                max={Math.max(1, history.markets_known)}
                value={history.markets_done}
                aria-label={`${name} markets with their history`}
              />
              <ul>
                <li>
                  <span>Markets done</span>
                  <strong data-testid="history-markets">
                    {formatCount(history.markets_done)} / {formatCount(history.markets_known)} (
                    {Math.floor(share * 100)}%)
                  </strong>
                </li>
                <li>
                  <span>Open markets up to date</span>
                  <strong data-testid="history-open">
                    {formatCount(history.open_markets_current)} / {formatCount(history.open_markets)} (
                    {history.open_markets > 0
                      ? Math.floor((history.open_markets_current / history.open_markets) * 100)
                      : 100}
                    %)
                  </strong>
                </li>
                <li>
                  <span title="The open market whose history is stored least far, and why">Oldest gap</span>
                  <strong data-testid="history-gap">
                    {history.oldest_gap ? <OldestGap venue={name} gap={history.oldest_gap} /> : "None"}
                  </strong>
                </li>
                {history.markets_failing > 0 && (
                  <li>
                    <span>Markets failing at the venue</span>
                    <strong data-testid="history-failing">
                      {formatCount(history.markets_failing)} (tried again later)
                    </strong>
                  </li>
                )}
                <li>
                  <span>Points and trades stored</span>
                  <strong>{formatCount(history.points_stored)}</strong>
                </li>
                {limits.length > 0 && (
                  <li>
                    <span>Rate limits used, last minute</span>
                    <strong data-testid="history-limits">
                      {limits.map(([host, used]) => `${host} ${Math.round(used * 100)}%`).join(", ")}
                    </strong>
                  </li>
                )}
                {history.trades_complete_until && (
                  <li>
                    <span>Every trade stored up to</span>
                    <strong data-testid="history-tape">
                      {formatTimestamp(history.trades_complete_until)} UTC (
                      {formatDuration(lagSeconds(history.trades_complete_until))} behind)
                    </strong>
                  </li>
                )}
                <li>
                  <span>Oldest point</span>
                  <strong>{formatDate(history.oldest_point)}</strong>
                </li>
                <li>
                  <span>Time left</span>
                  <strong>
                    {history.markets_done >= history.markets_known
                      ? "Up to date"
                      : history.estimated_seconds_left === null
                        ? "—"
                        : `about ${formatDuration(history.estimated_seconds_left)}`}
                  </strong>
                </li>
              </ul>
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The open market furthest behind its schedule, linked to its page, and why. */
function OldestGap({ venue, gap }: { venue: string; gap: NonNullable<HistoryProgress["oldest_gap"]> }) {
  return (
    <>
      <Link to={`/markets/${venue}/${encodeURIComponent(gap.market)}`}>{gap.market}</Link>
      {gap.reason === "not reached yet"
        ? `: not reached yet, opened ${formatDate(gap.since)}`
        : `: ${gap.reason}, stored to ${formatTimestamp(gap.since)} UTC (${formatDuration(lagSeconds(gap.since))} ago)`}
    </>
  );
}

/** How far a feed's "complete up to" is behind the clock, in seconds. */
function lagSeconds(until: string): number {
  return Math.max(0, (Date.now() - Date.parse(until)) / 1000);
}
