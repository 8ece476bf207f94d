/**
 * One market of either venue (`/markets/polymarket/{id}`, `/markets/kalshi/{ticker}`):
 * its question and outcomes, status and event, the price of each outcome over the
 * market's whole life with the resolution marked and the volume below, and every column
 * of its latest snapshot. Each panel opens the SQL it was drawn from in the editor.
 */
import { type HistoryInterval, type Market, VENUE_FACTS, type Venue } from "@epicenter/contracts";
import { ArrowLeft, ExternalLink, LineChart, SearchX } from "lucide-react";
import { useMemo, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { ApiRequestError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/document-title";
import { formatRelative } from "../../lib/time";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Chart } from "../../ui/Chart";
import { CopyButton } from "../../ui/CopyButton";
import { EmptyState } from "../../ui/EmptyState";
import { formatCount, formatDate, formatTimestamp, formatValue, type ValueKind } from "../../ui/format";
import { LoadingScreen } from "../../ui/LoadingScreen";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import { SourceMark } from "../../ui/SourceMark";
import { Spinner } from "../../ui/Spinner";
import { TabPanel, Tabs } from "../../ui/Tabs";
import { useMarket, useMarketHistory } from "./api";
import { BookPanel } from "./BookPanel";
import { isMarketKey } from "./market-keys";
import {
  chartDataOf,
  closeLine,
  coverageSentence,
  defaultInterval,
  formatMoney,
  formatVolume,
  INTERVAL_TABS,
  latestFields,
  matchesField,
  minuteSpan,
  STATUS_LABELS,
  STATUS_TONES,
  sourceNote,
  VENUE_NAMES,
  VOLUME_KEY,
  X_KEY,
} from "./market-model";
import styles from "./markets.module.css";
import { QueryButton } from "./QueryButton";
import { resolutionLine } from "./resolution-line";
import ledger from "./resolution-line.module.css";

/** The route's element: the venue comes from the route, the id from the path. */
export function MarketPage({ venue }: { venue: Venue }) {
  const { id = "" } = useParams();
  // A new market is a new page: nothing of the last one's charts or search carries over.
  return <MarketView key={`${venue}/${id}`} venue={venue} id={id} />;
}

function MarketView({ venue, id }: { venue: Venue; id: string }) {
  const isValidId = isMarketKey(id);
  const market = useMarket(venue, id, isValidId);
  const back = useBack();
  useDocumentTitle(market.data?.question ?? `${VENUE_NAMES[venue]} market ${id}`);

  const latestNode = market.data?.queries.latest;
  const controls = useMemo(
    () => (
      <>
        <Button variant="ghost" size="sm" icon={<ArrowLeft size={14} />} onClick={back}>
          Back
        </Button>
        {latestNode ? <QueryButton node={latestNode} what="the latest snapshot" size="sm" variant="accent" /> : null}
      </>
    ),
    [back, latestNode],
  );
  usePageControls(controls);

  const isNotFound = !isValidId || (market.error instanceof ApiRequestError && market.error.status === 404);
  if (isNotFound || market.isError) {
    return (
      <Page>
        <EmptyState
          icon={<SearchX size={20} />}
          title={isNotFound ? "No such market in the archive" : "This market could not be loaded"}
          tone={isNotFound ? "neutral" : "danger"}
          action={
            <div className={styles.emptyActions}>
              <Button variant="secondary" icon={<ArrowLeft size={14} />} onClick={back}>
                Back
              </Button>
              {isNotFound ? null : (
                <Button variant="ghost" onClick={() => void market.refetch()}>
                  Try again
                </Button>
              )}
            </div>
          }
        >
          {isNotFound
            ? `The archive has no ${VENUE_NAMES[venue]} market “${id}”. It may not have been synced yet, or the ${
                VENUE_FACTS[venue].keyName
              } is mistyped. Find markets with the search on the Data Catalog.`
            : (market.error?.message ?? "")}
        </EmptyState>
      </Page>
    );
  }
  if (market.isPending) return <LoadingScreen message="Loading market…" />;
  return <MarketDetail market={market.data} onBack={back} />;
}

/** Back where the reader came from, or to the catalog (and its market search) on a fresh tab. */
function useBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  const hasHistory = location.key !== "default";
  return useMemo(() => () => void (hasHistory ? navigate(-1) : navigate("/datasets")), [hasHistory, navigate]);
}

function MarketDetail({ market, onBack }: { market: Market; onBack: () => void }) {
  const venueName = VENUE_NAMES[market.venue];
  const close = closeLine(market, Date.now());
  return (
    <Page width="wide">
      <PageHeader
        className={styles.header}
        icon={
          <span className={styles.mark}>
            <SourceMark source={venueName} size={44} />
          </span>
        }
        eyebrow={
          <span className={styles.eyebrow}>
            {venueName} market
            <code className={styles.marketId}>{market.id}</code>
            <CopyButton text={market.id} label={null} ariaLabel={`Copy the ${venueName} market id`} />
          </span>
        }
        title={market.question}
        description={market.subtitle ?? undefined}
        actions={
          <div className={styles.headerActions}>
            <Button variant="ghost" icon={<ArrowLeft size={15} />} onClick={onBack}>
              Back
            </Button>
            <QueryButton node={market.queries.latest} what="the latest snapshot" size="md" variant="accent" />
          </div>
        }
      />

      <div className={styles.meta} data-testid="market-meta">
        <Badge tone={STATUS_TONES[market.status]} hasDot>
          <span data-testid="market-status">{STATUS_LABELS[market.status]}</span>
        </Badge>
        {market.result ? <Badge tone="accent">Result: {market.result}</Badge> : null}
        {market.event.title && market.event.title !== market.question ? (
          <span className={styles.metaItem}>
            <span className={styles.metaLabel}>Event</span> {market.event.title}
          </span>
        ) : null}
        <span className={styles.metaItem} data-testid="market-close">
          <span className={styles.metaLabel}>{close.label}</span> {formatDate(close.at)}
          {close.note ? <span className={styles.metaNote}> · {close.note}</span> : null}
        </span>
        <a className={styles.venueLink} href={market.url} target="_blank" rel="noreferrer">
          View on {venueName} <ExternalLink size={13} aria-hidden="true" />
        </a>
      </div>

      {market.resolution ? (
        <div className={ledger.line} data-testid="market-resolution">
          <p>
            {resolutionLine(market.resolution)}
            {market.resolution.event_winner ? (
              <span className={styles.metaNote}> Event winner: {market.resolution.event_winner}.</span>
            ) : null}
          </p>
          <QueryButton node={market.queries.resolution} what="the resolution" />
        </div>
      ) : null}

      <section className={styles.summary} aria-label="Outcomes and figures">
        {market.outcomes.map((outcome) => (
          <div
            key={outcome.label}
            className={`${styles.figure} ${styles.outcome}`}
            data-testid="market-outcome"
            data-winner={market.result === outcome.label || undefined}
          >
            <span className={styles.figureLabel}>
              {outcome.label}
              {market.result === outcome.label ? <Badge tone="success">Won</Badge> : null}
            </span>
            <span className={styles.figureValue}>{formatValue(outcome.price, "probability")}</span>
            <span className={styles.figureHint}>{formatValue(outcome.price, "price")} a share</span>
          </div>
        ))}
        <Figure
          label="Volume"
          value={formatVolume(market.volume, VENUE_FACTS[market.venue].volumeUnit)}
          hint={`lifetime, ${unitOf(market)}`}
        />
        <Figure label="Liquidity" value={formatMoney(market.liquidity)} />
        {market.open_interest !== null ? (
          <Figure label="Open interest" value={formatValue(market.open_interest, "contracts")} hint="contracts" />
        ) : null}
        <Figure label="Opened" value={formatDate(market.opened_at)} />
      </section>

      <PricePanel market={market} />
      <BookPanel market={market} />
      <LatestPanel market={market} />
    </Page>
  );
}

function unitOf(market: Pick<Market, "venue">): string {
  return VENUE_FACTS[market.venue].volumeName;
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className={styles.figure}>
      <span className={styles.figureLabel}>{label}</span>
      <span className={styles.figureValue}>{value}</span>
      {hint ? <span className={styles.figureHint}>{hint}</span> : null}
    </div>
  );
}

function PricePanel({ market }: { market: Market }) {
  // Fixed for the page's life, so a re-render does not ask for a new span.
  const [now] = useState(() => Date.now());
  const [interval, setSelectedInterval] = useState<HistoryInterval>(() => defaultInterval(market, now));
  const span = useMemo(() => (interval === "1m" ? minuteSpan(market, now) : undefined), [interval, market, now]);
  const history = useMarketHistory(market.venue, market.id, interval, span, true);
  const data = useMemo(() => (history.data ? chartDataOf(history.data) : null), [history.data]);
  const note = history.data ? sourceNote(history.data.source) : null;
  const isSwitching = history.isPlaceholderData;
  const facts = VENUE_FACTS[market.venue];
  const volumeKind: ValueKind = facts.volumeUnit;
  const labels = useMemo(() => new Map(data?.series.map((series) => [series.key, series.label])), [data]);
  const priceFormats = useMemo(
    () =>
      Object.fromEntries([
        [X_KEY, "datetime" as ValueKind],
        ...(data?.series.map((series) => [series.key, "probability" as ValueKind]) ?? []),
      ]),
    [data],
  );
  const resolution = history.data?.resolution ?? null;
  const hasPoints = (data?.series.length ?? 0) > 0;

  return (
    <section className={styles.panel} aria-labelledby="market-price-title" data-testid="price-panel">
      <header className={styles.panelHeader}>
        <div className={styles.panelTitle}>
          <h2 id="market-price-title">Price</h2>
          <span className={styles.panelHint}>
            {facts.priceNote}
            {interval === "1m" ? " · the last 3 days of trading" : " · the market's whole life"}
          </span>
        </div>
        <div className={styles.panelTools}>
          <Tabs
            label="Interval"
            idPrefix="market-interval"
            variant="compact"
            tabs={INTERVAL_TABS}
            selected={interval}
            onSelect={setSelectedInterval}
            className={styles.intervals}
          />
          <QueryButton node={history.data?.query ?? market.queries.prices} what="the price history" />
        </div>
      </header>
      <TabPanel idPrefix="market-interval" tab={interval} className={styles.panelBody}>
        {note ? (
          <p className={styles.note} data-testid="history-source-note" data-source={history.data?.source}>
            {note}
          </p>
        ) : null}
        {resolution ? (
          <p className={styles.resolution}>
            Resolved <strong>{resolution.outcome}</strong> on {formatDate(resolution.at)}
            {data && !data.resolutionAt ? " (outside the span drawn)" : ""}.
          </p>
        ) : null}
        {history.data?.truncated ? (
          <p className={styles.note}>
            The span holds more points than one answer carries; the chart ends early. Pick a coarser interval.
          </p>
        ) : null}
        {history.isError ? (
          <p className={styles.error} role="alert">
            The price history could not be loaded: {history.error.message}
          </p>
        ) : history.isPending ? (
          <div className={styles.chartLoading}>
            <Spinner size={20} />
          </div>
        ) : !hasPoints || !data ? (
          <div className={styles.chartEmpty}>
            <LineChart size={20} aria-hidden="true" />
            <span>No prices to draw for this interval.</span>
          </div>
        ) : (
          <div
            className={isSwitching ? `${styles.chart} ${styles.switching}` : styles.chart}
            data-testid="price-chart"
            data-points={data.rows.length}
            aria-busy={isSwitching || undefined}
          >
            <Chart
              type="line"
              rows={data.rows}
              x={X_KEY}
              y={data.series.map((series) => series.key)}
              formats={priceFormats}
              labelOf={(key) => labels.get(key) ?? key}
              height={300}
              hasLegend
              hasSharedAxis
              yDomain={[0, 1]}
              markers={
                data.resolutionAt && resolution
                  ? [{ x: data.resolutionAt, label: `Resolved: ${resolution.outcome}` }]
                  : []
              }
              syncId={`market-${market.venue}-${market.id}`}
              hasXAxisTicks={!data.hasVolume}
            />
          </div>
        )}
        <div className={styles.subHeader}>
          <h3>Volume</h3>
          <span className={styles.panelHint}>
            {facts.volumeTraded} per {intervalName(interval)}
          </span>
          <QueryButton node={market.queries.volume} what="the volume" />
        </div>
        {data?.hasVolume ? (
          <div data-testid="volume-chart">
            <Chart
              type="bar"
              rows={data.rows}
              x={X_KEY}
              y={[VOLUME_KEY]}
              formats={{ [X_KEY]: "datetime", [VOLUME_KEY]: volumeKind }}
              labelOf={() => `Volume (${unitOf(market)})`}
              height={120}
              syncId={`market-${market.venue}-${market.id}`}
            />
          </div>
        ) : history.isPending ? null : (
          <p className={styles.muted} data-testid="volume-empty">
            No {facts.volumeHistory} archived for this span yet.
          </p>
        )}
      </TabPanel>
      <footer className={styles.coverage}>
        <span>
          Venue history archived: <strong>{formatCount(market.history.points)}</strong> {facts.historyPoints},{" "}
          <strong>{formatCount(market.history.trades)}</strong> trades
          {market.history.first && market.history.last
            ? `, ${formatDate(market.history.first)} – ${formatDate(market.history.last)}`
            : ""}
          .{" "}
          <span data-testid="history-coverage">{coverageSentence(market.history, (iso) => formatTimestamp(iso))}</span>
        </span>
        <QueryButton node={market.queries.trades} what="the newest trades" />
      </footer>
    </section>
  );
}

function intervalName(interval: HistoryInterval): string {
  return interval === "1d" ? "day" : interval === "1h" ? "hour" : "minute";
}

function LatestPanel({ market }: { market: Market }) {
  const [search, setSearch] = useState("");
  const fields = useMemo(() => latestFields(market.latest), [market.latest]);
  const visible = fields.filter((field) => matchesField(field, search));
  return (
    <section className={styles.panel} aria-labelledby="market-latest-title" data-testid="latest-panel">
      <header className={styles.panelHeader}>
        <div className={styles.panelTitle}>
          <h2 id="market-latest-title">Latest snapshot</h2>
          <span className={styles.panelHint}>
            {fields.length} columns · taken {formatRelative(market.snapshot_at).toLowerCase()}
          </span>
        </div>
        <div className={styles.panelTools}>
          <div className={styles.fieldSearch}>
            <SearchInput label="Search fields" placeholder="Search fields…" value={search} onChange={setSearch} />
          </div>
          <QueryButton node={market.queries.latest} what="the latest snapshot" />
        </div>
      </header>
      <dl className={styles.fields} data-testid="latest-fields">
        {visible.map((field) => (
          <div key={field.name} className={styles.field}>
            <dt>
              <code>{field.name}</code>
            </dt>
            <dd className={field.isBlank ? styles.blank : undefined}>{field.text}</dd>
          </div>
        ))}
      </dl>
      {visible.length === 0 ? <p className={styles.noMatch}>No column or value matches “{search}”.</p> : null}
    </section>
  );
}
