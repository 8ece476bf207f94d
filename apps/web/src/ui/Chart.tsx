/**
 * A chart drawn from query rows, over recharts, in the product's dark theme. It takes the
 * same plain value a saved query or dashboard tile stores (`type`, `x`, `y[]`) plus how to
 * read each column. A series in another unit than the first, or orders of magnitude apart
 * from it, gets the axis on the right (`chart-model.ts`), so a USDC volume and a market
 * count share one chart honestly.
 */
import { useMemo } from "react";
import {
  Area,
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { pivotSeries, rightAxisSeries } from "./chart-model";
import { formatValue, toNumber, type ValueKind } from "./format";
import { tokenValue } from "./tokens";

export type ChartType = "line" | "bar" | "area" | "scatter";

export interface ChartProps {
  type: ChartType;
  rows: ReadonlyArray<Record<string, unknown>>;
  x: string;
  y: readonly string[];
  /** A column whose values split `y[0]` into one series each (rows in long form). */
  series?: string | undefined;
  formats?: Readonly<Record<string, ValueKind>>;
  /** Pixels, or a percentage of a parent that has a height of its own. */
  height?: number | `${number}%`;
  /** How a series is named in the legend and tooltip; its column name when not given. */
  labelOf?: (column: string) => string;
  /** Show the legend even for one series. */
  hasLegend?: boolean;
  /** Every series on the left axis, whatever their scales (prices of outcomes that parted ways). */
  hasSharedAxis?: boolean;
  /** The left axis' range, e.g. [0, 1] for prices; the data's own when not given. */
  yDomain?: readonly [number, number];
  /** Vertical lines at x values, each with a label (a market's resolution). */
  markers?: ReadonlyArray<{ x: string | number; label: string }>;
  /** Charts with the same id show their tooltips together (a price chart over its volume bars). */
  syncId?: string;
  /** Hide the x axis' ticks (a chart whose twin below carries them). */
  hasXAxisTicks?: boolean;
}

/**
 * Up to this many points, every x label is measured to place the ticks (recharts'
 * default). Past it, ticks are spaced evenly from a few measured ones: measuring 5,000
 * labels took 2 s of a 5,000-point chart's 3.6 s.
 */
const MEASURED_TICKS = 500;

const SERIES_TOKENS = [
  "--chart-series-1",
  "--chart-series-2",
  "--chart-series-3",
  "--chart-series-4",
  "--chart-series-5",
  "--chart-series-6",
  "--chart-series-7",
  "--chart-series-8",
] as const;
const AXIS = { fontSize: 11, tickLine: false, axisLine: false } as const;

/** The tooltip's box, in the theme: shared with the charts drawn outside this component (the depth chart). */
export const TOOLTIP_STYLE = {
  background: "var(--surface)",
  border: "1px solid var(--border-strong)",
  borderRadius: 8,
  fontSize: 12,
  color: "var(--text)",
} as const;

/** The theme's colours as values: recharts puts them in SVG attributes, where `var()` is not reliable. */
function chartColors() {
  return {
    series: SERIES_TOKENS.map(tokenValue),
    axis: tokenValue("--text-faint"),
    grid: tokenValue("--border"),
    cursor: tokenValue("--chart-cursor"),
    cursorLine: tokenValue("--border-strong"),
    marker: tokenValue("--text-muted"),
    markerLabel: tokenValue("--text"),
  };
}

/** Words people read in a legend: volume_24h_usd → "Volume 24h usd". */
export function seriesLabel(column: string): string {
  const words = column.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A chart, its rows first pivoted to one column per series when `series` is given. */
export function Chart({ series, ...props }: ChartProps) {
  const value = props.y[0];
  const pivoted = useMemo(
    () => (series && value ? pivotSeries(props.rows, props.x, series, value) : null),
    [series, value, props.rows, props.x],
  );
  if (!pivoted || !value) return <WideChart {...props} />;
  // Every series is the same quantity: one format, one axis, and a legend to tell them apart.
  const format = props.formats?.[value];
  const formats = { ...props.formats, ...(format ? Object.fromEntries(pivoted.y.map((name) => [name, format])) : {}) };
  return (
    <WideChart
      {...props}
      rows={pivoted.rows}
      y={pivoted.y}
      formats={formats}
      labelOf={(name) => name}
      hasSharedAxis
      hasLegend
    />
  );
}

function WideChart({
  type,
  rows,
  x,
  y,
  formats = {},
  height = 260,
  labelOf = (column) => column,
  hasLegend = false,
  hasSharedAxis = false,
  yDomain,
  markers = [],
  syncId,
  hasXAxisTicks = true,
}: Omit<ChartProps, "series">) {
  const colors = useMemo(chartColors, []);
  const axis = { ...AXIS, stroke: colors.axis };
  const data = rows.map((row) => {
    const point: Record<string, unknown> = { [x]: row[x] };
    for (const column of y) point[column] = toNumber(row[column]);
    return point;
  });
  const right = hasSharedAxis ? new Set<string>() : rightAxisSeries(y, data, formats);
  const hasRightAxis = right.size > 0;
  const rightColumn = y.find((column) => right.has(column));
  const axisOf = (index: number) => (right.has(y[index] as string) ? "right" : "left");
  // Axis ticks are short: a plain number of any size reads as 1.5M, not 1500000.
  const tick = (column: string | undefined) => (value: unknown) =>
    formatValue(value, (column ? formats[column] : undefined) ?? (typeof value === "number" ? "count" : undefined), {
      isCompact: true,
    });

  return (
    <ResponsiveContainer width="100%" height={height}>
      <ComposedChart
        data={data}
        syncId={syncId}
        margin={{ top: markers.length > 0 ? 20 : 8, right: hasRightAxis ? 0 : 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey={x}
          {...axis}
          tickFormatter={tick(x)}
          minTickGap={16}
          interval={data.length > MEASURED_TICKS ? "equidistantPreserveStart" : "preserveEnd"}
          tick={hasXAxisTicks}
          height={hasXAxisTicks ? 30 : 4}
        />
        <YAxis
          yAxisId="left"
          {...axis}
          width={56}
          tickFormatter={tick(y[0])}
          {...(yDomain ? { domain: [...yDomain] } : {})}
        />
        {hasRightAxis ? (
          <YAxis yAxisId="right" orientation="right" {...axis} width={56} tickFormatter={tick(rightColumn)} />
        ) : null}
        <Tooltip
          cursor={{ fill: colors.cursor, stroke: colors.cursorLine }}
          contentStyle={TOOLTIP_STYLE}
          labelStyle={{ color: "var(--text-muted)", marginBottom: 4 }}
          labelFormatter={(label) => formatValue(label, formats[x])}
          formatter={(value, name) => [formatValue(value, formats[String(name)]), labelOf(String(name))]}
        />
        {y.length > 1 || hasLegend ? (
          <Legend
            iconType="circle"
            iconSize={8}
            wrapperStyle={{ fontSize: 12, color: "var(--text-muted)" }}
            formatter={(value) =>
              `${labelOf(String(value))}${hasRightAxis ? (right.has(String(value)) ? " (right)" : " (left)") : ""}`
            }
          />
        ) : null}
        {markers.map((marker) => (
          <ReferenceLine
            key={`${marker.x}-${marker.label}`}
            x={marker.x}
            yAxisId="left"
            stroke={colors.marker}
            strokeDasharray="4 4"
            label={{ value: marker.label, position: "insideTopRight", fill: colors.markerLabel, fontSize: 11 }}
          />
        ))}
        {y.map((column, index) => {
          const color = colors.series[index % colors.series.length] as string;
          const common = { dataKey: column, yAxisId: axisOf(index), isAnimationActive: false, name: column };
          switch (type) {
            case "bar":
              return (
                <Bar
                  key={column}
                  {...common}
                  fill={color}
                  radius={[4, 4, 0, 0]}
                  maxBarSize={48}
                  fillOpacity={index === 0 ? 0.95 : 0.6}
                />
              );
            case "area":
              return index === 0 ? (
                <Area
                  key={column}
                  {...common}
                  type="monotone"
                  stroke={color}
                  fill={color}
                  fillOpacity={0.18}
                  strokeWidth={2}
                />
              ) : (
                <Line key={column} {...common} type="monotone" stroke={color} strokeWidth={1.5} dot={false} />
              );
            case "line":
              return (
                <Line key={column} {...common} type="monotone" stroke={color} strokeWidth={2} dot={data.length <= 14} />
              );
            case "scatter":
              return <Scatter key={column} {...common} fill={color} />;
            default: {
              const unknown: never = type;
              throw new Error(`unknown chart type ${String(unknown)}`);
            }
          }
        })}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
