/**
 * A chart of the result (line, bar, area, scatter) with the x and y columns picked by the
 * user. The settings are a plain `ChartSpec` value, saved with the query.
 */
import { type ChartSpec, type QueryColumn, type QueryResult, rowsAsObjects } from "@epicenter/contracts";
import { memo, useDeferredValue, useMemo } from "react";
import { isNumericType, isTemporalType } from "../../../lib/sql-types";
import { Chart } from "../../../ui/Chart";
import styles from "./editor.module.css";

/** A sensible first chart for a result: time or text on x, the numbers on y. */
export function defaultChart(columns: readonly QueryColumn[]): ChartSpec | null {
  const numeric = columns.filter((column) => isNumericType(column.type));
  const x =
    columns.find((column) => isTemporalType(column.type)) ?? columns.find((column) => !isNumericType(column.type));
  const first = x ?? columns[0];
  const ys = numeric.filter((column) => column.name !== first?.name).slice(0, 3);
  if (!first || ys.length === 0) return null;
  return {
    kind: "chart",
    type: x && isTemporalType(x.type) ? "line" : "bar",
    x: first.name,
    y: ys.map((column) => column.name),
  };
}

/**
 * How many rows a chart plots. More points than pixels show nothing more and render
 * slowly, and every bar or dot is an element of its own: 5,000 bars took 8.7 s to draw
 * on an idle machine (and over 30 s on a busy one), three lines of 5,000 points 1.2 s.
 */
const MAX_POINTS: Record<ChartSpec["type"], number> = { line: 5_000, area: 5_000, scatter: 2_000, bar: 1_000 };

/**
 * Memoised: the page re-renders at once when a tab is clicked and only then, deferred,
 * swaps the chart for the grid; without it that first render drew thousands of points
 * again for nothing (2.4 s of a 5,000-point chart before the grid showed).
 */
export const ResultChart = memo(function ResultChart({
  result,
  spec,
  onChange,
}: {
  result: QueryResult;
  spec: ChartSpec | null;
  onChange: (spec: ChartSpec) => void;
}) {
  const { columns, rows } = result;
  const numericColumns = columns.filter((column) => isNumericType(column.type));
  // The controls show a change at once; the chart and its note follow in an interruptible render.
  const drawn = useDeferredValue(spec);
  const maxPoints = MAX_POINTS[drawn?.type ?? "line"];
  const points = useMemo(() => rowsAsObjects({ columns, rows: rows.slice(0, maxPoints) }), [columns, rows, maxPoints]);

  if (!spec || !drawn) {
    return <div className={styles.chartEmpty}>A chart needs at least one numeric column in the result.</div>;
  }
  const toggleY = (name: string) => {
    const y = spec.y.includes(name) ? spec.y.filter((column) => column !== name) : [...spec.y, name];
    if (y.length > 0) onChange({ ...spec, y });
  };

  return (
    <div className={styles.chartPane}>
      <div className={styles.chartControls}>
        <fieldset className={styles.segmented}>
          <legend className="visually-hidden">Chart type</legend>
          {(["line", "bar", "area", "scatter"] as const).map((type) => (
            <label key={type} className={spec.type === type ? styles.segmentActive : styles.segment}>
              <input
                type="radio"
                name="chart-type"
                className="visually-hidden"
                checked={spec.type === type}
                onChange={() => onChange({ ...spec, type })}
              />
              {type}
            </label>
          ))}
        </fieldset>
        <label className={styles.select}>
          <span>X</span>
          <select
            value={spec.x}
            onChange={(event) => onChange({ ...spec, x: event.target.value })}
            aria-label="X column"
          >
            {columns.map((column) => (
              <option key={column.name} value={column.name}>
                {column.name}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.select}>
          <span>Split by</span>
          <select
            value={spec.series ?? ""}
            onChange={(event) => {
              const { series: _series, ...rest } = spec;
              onChange(event.target.value ? { ...rest, series: event.target.value } : rest);
            }}
            aria-label="Split into series by"
            title="One series per value of this column, of the first Y column"
          >
            <option value="">—</option>
            {columns
              .filter((column) => column.name !== spec.x && !isNumericType(column.type))
              .map((column) => (
                <option key={column.name} value={column.name}>
                  {column.name}
                </option>
              ))}
          </select>
        </label>
        <fieldset className={styles.yPicker}>
          <legend>Y</legend>
          {numericColumns.map((column) => (
            <label key={column.name}>
              <input type="checkbox" checked={spec.y.includes(column.name)} onChange={() => toggleY(column.name)} />
              {column.name}
            </label>
          ))}
        </fieldset>
      </div>
      {rows.length > maxPoints ? (
        <p className={styles.chartNote} role="status">
          Plotting the first {maxPoints.toLocaleString("en-US")} of {rows.length.toLocaleString("en-US")} rows
          {drawn.type === "bar" || drawn.type === "scatter" ? ": pick line for up to 5,000." : "."}
        </p>
      ) : null}
      <div className={styles.chartCanvas} data-testid="result-chart">
        <Chart type={drawn.type} rows={points} x={drawn.x} y={drawn.y} series={drawn.series} height="100%" hasLegend />
      </div>
    </div>
  );
});
