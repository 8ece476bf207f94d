/**
 * A chart of the result (line, bar, area, scatter) with the x and y columns picked by the
 * user. The settings are a plain `ChartSpec` value, saved with the query.
 */
import type { ChartSpec, QueryColumn } from "@epicenter/contracts";
import { useMemo } from "react";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { isNumericType, isTemporalType } from "../../../lib/sql-types";
import styles from "./editor.module.css";

export const SERIES_COLORS = ["#ff6a3d", "#4c82fb", "#27c28b", "#f5b942", "#c792ea", "#5aa9ff", "#f2555a", "#9aa3b2"];

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

export function ResultChart({
  columns,
  rows,
  spec,
  onChange,
}: {
  columns: readonly QueryColumn[];
  rows: readonly Record<string, unknown>[];
  spec: ChartSpec | null;
  onChange: (spec: ChartSpec) => void;
}) {
  const numericColumns = columns.filter((column) => isNumericType(column.type));
  const data = useMemo(
    () =>
      spec
        ? rows.slice(0, 5_000).map((row) => {
            const point: Record<string, unknown> = { [spec.x]: row[spec.x] };
            for (const y of spec.y) point[y] = row[y] === null || row[y] === undefined ? null : Number(row[y]);
            return point;
          })
        : [],
    [rows, spec],
  );

  if (!spec) {
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
      <div className={styles.chartCanvas} data-testid="result-chart">
        <ResponsiveContainer width="100%" height="100%">
          {renderChart(spec, data)}
        </ResponsiveContainer>
      </div>
    </div>
  );
}

export function renderChart(spec: ChartSpec, data: Record<string, unknown>[]) {
  const axes = [
    <CartesianGrid key="grid" stroke="#222831" strokeDasharray="3 3" />,
    <XAxis key="x" dataKey={spec.x} stroke="#646d7c" tick={{ fontSize: 11 }} minTickGap={24} />,
    <YAxis key="y" stroke="#646d7c" tick={{ fontSize: 11 }} width={64} />,
    <Tooltip
      key="tooltip"
      contentStyle={{ background: "#171b21", border: "1px solid #2e3540", borderRadius: 8, fontSize: 12 }}
      labelStyle={{ color: "#e8eaee" }}
    />,
    spec.y.length > 1 ? <Legend key="legend" wrapperStyle={{ fontSize: 12 }} /> : null,
  ];
  const color = (index: number) => SERIES_COLORS[index % SERIES_COLORS.length];
  switch (spec.type) {
    case "line":
      return (
        <LineChart data={data}>
          {axes}
          {spec.y.map((y, index) => (
            <Line key={y} dataKey={y} stroke={color(index)} dot={false} strokeWidth={2} isAnimationActive={false} />
          ))}
        </LineChart>
      );
    case "area":
      return (
        <AreaChart data={data}>
          {axes}
          {spec.y.map((y, index) => (
            <Area
              key={y}
              dataKey={y}
              stroke={color(index)}
              fill={color(index)}
              fillOpacity={0.18}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      );
    case "bar":
      return (
        <BarChart data={data}>
          {axes}
          {spec.y.map((y, index) => (
            <Bar key={y} dataKey={y} fill={color(index)} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          ))}
        </BarChart>
      );
    case "scatter":
      return (
        <ScatterChart>
          {axes}
          {spec.y.map((y, index) => (
            <Scatter
              key={y}
              name={y}
              data={data.map((point) => ({ [spec.x]: point[spec.x], [y]: point[y] }))}
              dataKey={y}
              fill={color(index)}
              isAnimationActive={false}
            />
          ))}
        </ScatterChart>
      );
    default: {
      const unknown: never = spec.type;
      throw new Error(`unknown chart type ${String(unknown)}`);
    }
  }
}
