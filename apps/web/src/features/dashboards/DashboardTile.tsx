/**
 * One tile: its query's result drawn as a number, a chart or a table, its error shown in
 * the tile (a failing tile never takes the dashboard down), and a link that opens its SQL
 * in the editor. In a table, a market's key links to the market's page.
 */
import { type DashboardTile, rowsAsObjects, type TileResult } from "@epicenter/contracts";
import { AlertTriangle, SquareArrowOutUpRight } from "lucide-react";
import { Link } from "react-router";
import { Chart, seriesLabel } from "../../ui/Chart";
import { isLastBucketPartial, timeOf } from "../../ui/chart-model";
import { editorUrl } from "../../ui/editor-link";
import { formatValue } from "../../ui/format";
import { Spinner } from "../../ui/Spinner";
import { ResultTable } from "../queries/ResultTable";
import { useTileResult } from "./api";
import styles from "./dashboards.module.css";

export function DashboardTileCard({
  dashboardId,
  tile,
  refreshSeconds,
}: {
  dashboardId: string;
  tile: DashboardTile;
  refreshSeconds: number | null;
}) {
  const result = useTileResult(dashboardId, tile.id, refreshSeconds);
  const { node } = tile;
  const state = result.isError
    ? "error"
    : result.isPending
      ? "loading"
      : result.data.row_count === 0
        ? "empty"
        : "ready";
  return (
    <article
      className={`${styles.tile} ${styles[tile.size]} ${node.view.kind === "number" ? styles.numberTile : ""}`}
      data-testid="dashboard-tile"
      data-tile-id={tile.id}
      data-state={state}
      aria-label={node.title}
    >
      <header className={styles.tileHeader}>
        <div className={styles.tileTitle}>
          <h2>{node.title}</h2>
          {tile.description && node.view.kind !== "number" ? <p>{tile.description}</p> : null}
        </div>
        <Link
          to={editorUrl(node)}
          className={styles.openInEditor}
          aria-label={`Open “${node.title}” in the editor`}
          title="Open in editor"
        >
          <SquareArrowOutUpRight size={14} />
        </Link>
      </header>
      <div className={styles.tileBody}>
        {result.isError ? (
          <div className={styles.tileError} role="alert" data-testid="tile-error">
            <AlertTriangle size={15} />
            <span>{result.error.message}</span>
          </div>
        ) : result.isPending ? (
          <div className={styles.tileLoading}>
            <Spinner size={18} />
          </div>
        ) : result.data.row_count === 0 ? (
          <div className={styles.tileLoading} data-testid="tile-empty">
            {tile.empty ?? "No rows yet: the archive has no data for this window."}
          </div>
        ) : (
          <TileView tile={tile} result={result.data} />
        )}
        {result.data?.truncated ? (
          <p className={styles.partialNote} role="status" data-testid="tile-truncated">
            Shows the first {result.data.row_count.toLocaleString("en-US")} rows: the query has more. Open it in the
            editor for all of them.
          </p>
        ) : null}
      </div>
      {node.view.kind === "number" && tile.description ? <p className={styles.numberHint}>{tile.description}</p> : null}
    </article>
  );
}

function TileView({ tile, result }: { tile: DashboardTile; result: TileResult }) {
  const view = tile.node.view;
  // Charts and cells read values by column name.
  const rows = rowsAsObjects(result);
  switch (view.kind) {
    case "number":
      return (
        <p className={styles.number} data-testid="tile-number">
          {formatValue(rows[0]?.[view.column], tile.formats[view.column])}
        </p>
      );
    case "chart": {
      // The hour or day still running holds part of its trades: it is left out, and said so.
      // One x per bucket, also when rows are in long form (a row per series and bucket).
      const xs = [...new Set(rows.map((row) => row[view.x]))];
      const isPartial = isLastBucketPartial(xs, Date.now());
      return (
        <div className={styles.chart}>
          <Chart
            type={view.type}
            rows={isPartial ? rows.filter((row) => row[view.x] !== xs.at(-1)) : rows}
            x={view.x}
            y={view.y}
            series={view.series}
            formats={tile.formats}
            height={tile.size === "lg" ? 280 : 240}
            labelOf={seriesLabel}
          />
          {isPartial ? (
            <p className={styles.partialNote} data-testid="partial-bucket-note">
              The current {bucketName(xs)} is left out until it ends.
            </p>
          ) : null}
        </div>
      );
    }
    case "table":
      // A market's key (a ticker, an id) opens the market's page.
      return (
        <ResultTable
          columns={result.columns}
          rows={result.rows}
          sql={tile.node.sql}
          kinds={tile.formats}
          labelOf={seriesLabel}
          variant="tile"
        />
      );
    default: {
      const unknown: never = view;
      throw new Error(`unknown tile view ${JSON.stringify(unknown)}`);
    }
  }
}

/** "hour" or "day", from the step between the last two points. */
function bucketName(xs: readonly unknown[]): string {
  const step = (timeOf(xs.at(-1)) ?? 0) - (timeOf(xs.at(-2)) ?? 0);
  return step >= 86_400_000 ? "day" : step >= 3_600_000 ? "hour" : "bucket";
}
