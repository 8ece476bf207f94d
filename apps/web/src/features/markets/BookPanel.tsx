/**
 * The market page's order book: the depth of the Yes book now or as of a chosen moment
 * (cumulative size on each side of the spread), what a $100 and a $1,000 order would pay
 * on each side, and the best bid and ask over the week before. Everything comes from the
 * archive's own captures (`GET /api/markets/{venue}/{id}/book`); the SQL opens in the editor.
 */
import { type Market, type MarketBook, VENUE_FACTS } from "@epicenter/contracts";
import { BookOpen } from "lucide-react";
import { useMemo, useState } from "react";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Button } from "../../ui/Button";
import { Chart, TOOLTIP_STYLE } from "../../ui/Chart";
import { inputClassName } from "../../ui/Field";
import { formatTimestamp, formatValue } from "../../ui/format";
import { Spinner } from "../../ui/Spinner";
import { tokenValue } from "../../ui/tokens";
import { useMarketBook } from "./api";
import { depthRows, fillText, isoOfLocalInput, localInputOf, spreadDomain, spreadRows } from "./book-model";
import styles from "./markets.module.css";
import { QueryButton } from "./QueryButton";

export function BookPanel({ market }: { market: Market }) {
  const [at, setAt] = useState<string | undefined>(undefined);
  const book = useMarketBook(market.venue, market.id, at);
  const facts = VENUE_FACTS[market.venue];
  const unit = facts.bookSizeUnit;
  return (
    <section className={styles.panel} aria-labelledby="market-book-title" data-testid="book-panel">
      <header className={styles.panelHeader}>
        <div className={styles.panelTitle}>
          <h2 id="market-book-title">Order book</h2>
          <span className={styles.panelHint}>the Yes book, top 10 levels a side · {facts.bookNote}</span>
        </div>
        <div className={styles.panelTools}>
          <label className={styles.asOf}>
            <span>As of</span>
            <input
              type="datetime-local"
              className={inputClassName}
              value={at ? localInputOf(at) : ""}
              onChange={(event) => setAt(isoOfLocalInput(event.target.value))}
              aria-label="Show the book as of this moment"
              data-testid="book-as-of"
            />
          </label>
          {at ? (
            <Button variant="ghost" size="sm" onClick={() => setAt(undefined)}>
              Now
            </Button>
          ) : null}
          {book.data ? <QueryButton node={book.data.query} what="the order book" /> : null}
        </div>
      </header>
      <div className={styles.panelBody}>
        {book.isError ? (
          <p className={styles.error} role="alert">
            The order book could not be loaded: {book.error.message}
          </p>
        ) : book.isPending ? (
          <div className={styles.chartLoading}>
            <Spinner size={20} />
          </div>
        ) : (
          <BookBody book={book.data} unit={unit} />
        )}
      </div>
    </section>
  );
}

function BookBody({ book, unit }: { book: MarketBook; unit: string }) {
  const depth = useMemo(() => depthRows(book), [book]);
  const spread = useMemo(() => spreadRows(book), [book]);
  const domain = useMemo(() => spreadDomain(book), [book]);
  if (book.captured_at === null) {
    return (
      <div className={styles.chartEmpty} data-testid="book-empty">
        <BookOpen size={20} aria-hidden="true" />
        <span>
          No book captured in the 70 minutes before {formatTimestamp(book.at)}: the market was not open then, or the
          archive was not capturing it yet.
        </span>
      </div>
    );
  }
  const best = (side: "bids" | "asks") => book[side][0]?.price ?? null;
  return (
    <>
      <p className={styles.bookMeta} data-testid="book-captured">
        Captured {formatTimestamp(book.captured_at)}
        {book.book_timestamp ? ` (the venue's book of ${formatTimestamp(book.book_timestamp)})` : ""} · best bid{" "}
        {formatValue(best("bids"), "price")} · best ask {formatValue(best("asks"), "price")}
      </p>
      <div className={styles.bookGrid}>
        <div className={styles.chart} data-testid="depth-chart" data-levels={depth.length}>
          {depth.length === 0 ? (
            <div className={styles.chartEmpty}>
              <span>The book was empty: no resting orders on either side.</span>
            </div>
          ) : (
            <DepthChart rows={depth} unit={unit} />
          )}
        </div>
        <table className={styles.fills} data-testid="book-fills">
          <caption>Executable price (average per share)</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Buy Yes</th>
              <th scope="col">Sell Yes</th>
            </tr>
          </thead>
          <tbody>
            {[...new Set(book.fills.map((fill) => fill.usd))].map((usd) => (
              <tr key={usd}>
                <th scope="row">${usd.toLocaleString("en-US")}</th>
                {(["buy", "sell"] as const).map((side) => {
                  const fill = book.fills.find((f) => f.usd === usd && f.side === side);
                  return <td key={side}>{fill ? fillText(fill) : "–"}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className={styles.subHeader}>Spread over the week before</h3>
      <div className={styles.chart} data-testid="spread-chart" data-points={spread.length}>
        <Chart
          type="line"
          rows={spread}
          x="t"
          y={["bid", "ask", "spread"]}
          formats={{ t: "datetime", bid: "price", ask: "price", spread: "cents" }}
          labelOf={(column) => SPREAD_LABELS[column] ?? column}
          height={220}
          {...(domain ? { yDomain: domain } : {})}
        />
      </div>
    </>
  );
}

const SPREAD_LABELS: Record<string, string> = { bid: "Best bid", ask: "Best ask", spread: "Spread (¢)" };

function DepthChart({ rows, unit }: { rows: ReturnType<typeof depthRows>; unit: string }) {
  const colors = { bid: tokenValue("--success"), ask: tokenValue("--danger"), axis: tokenValue("--text-faint") };
  const axis = { fontSize: 11, tickLine: false, axisLine: false, stroke: colors.axis } as const;
  return (
    <ResponsiveContainer width="100%" height={240}>
      <AreaChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={tokenValue("--border")} strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="price"
          type="number"
          domain={["dataMin", "dataMax"]}
          tickFormatter={(value: number) => value.toFixed(2)}
          {...axis}
        />
        <YAxis {...axis} width={56} tickFormatter={(value: number) => formatValue(value, "count")} />
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          labelFormatter={(label) => `Price ${Number(label).toFixed(4)}`}
          formatter={(value, name) => [
            `${formatValue(value, "count")} ${unit}`,
            name === "bids" ? "Bid depth" : "Ask depth",
          ]}
        />
        <Area
          type="stepAfter"
          dataKey="bids"
          stroke={colors.bid}
          fill={colors.bid}
          fillOpacity={0.2}
          connectNulls={false}
          isAnimationActive={false}
        />
        <Area
          type="stepBefore"
          dataKey="asks"
          stroke={colors.ask}
          fill={colors.ask}
          fillOpacity={0.2}
          connectNulls={false}
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
