/** A report's chart, drawn with recharts from the chart spec and the rows the server attached. */
import type { ReportChart } from "@epicenter/contracts";
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
import styles from "./tools.module.css";

const SERIES_TOKENS = ["--accent", "--polymarket", "--kalshi", "--warning"];

function tokenColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#ff6a3d";
}

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const tickFormat = (value: unknown) => (typeof value === "number" ? compact.format(value) : String(value));

export function ReportChartView({ chart }: { chart: ReportChart }) {
  const colours = SERIES_TOKENS.map(tokenColour);
  const axisColour = tokenColour("--text-faint");
  const gridColour = tokenColour("--border");
  const { type, x, y } = chart.chart;
  const common = {
    data: chart.data,
    margin: { top: 8, right: 8, bottom: 0, left: 0 },
  };
  const axes = (
    <>
      <CartesianGrid stroke={gridColour} strokeDasharray="3 3" vertical={false} />
      <XAxis
        dataKey={x}
        stroke={axisColour}
        fontSize={11}
        tickLine={false}
        tickFormatter={tickFormat}
        minTickGap={12}
      />
      <YAxis stroke={axisColour} fontSize={11} tickLine={false} width={48} tickFormatter={tickFormat} />
      <Tooltip
        contentStyle={{
          background: tokenColour("--surface-2"),
          border: `1px solid ${tokenColour("--border-strong")}`,
          borderRadius: 8,
          fontSize: 12,
        }}
        labelStyle={{ color: tokenColour("--text") }}
        cursor={{ fill: "rgb(255 255 255 / 0.04)" }}
      />
      {y.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
    </>
  );
  const plot = () => {
    switch (type) {
      case "bar":
        return (
          <BarChart {...common}>
            {axes}
            {y.map((key, index) => (
              <Bar key={key} dataKey={key} fill={colours[index % colours.length]} radius={[4, 4, 0, 0]} />
            ))}
          </BarChart>
        );
      case "line":
        return (
          <LineChart {...common}>
            {axes}
            {y.map((key, index) => (
              <Line key={key} dataKey={key} stroke={colours[index % colours.length]} strokeWidth={2} dot={false} />
            ))}
          </LineChart>
        );
      case "area":
        return (
          <AreaChart {...common}>
            {axes}
            {y.map((key, index) => (
              <Area
                key={key}
                dataKey={key}
                stroke={colours[index % colours.length]}
                fill={colours[index % colours.length]}
                fillOpacity={0.18}
              />
            ))}
          </AreaChart>
        );
      case "scatter":
        return (
          <ScatterChart {...common}>
            {axes}
            {y.map((key, index) => (
              <Scatter key={key} dataKey={key} fill={colours[index % colours.length]} />
            ))}
          </ScatterChart>
        );
      default: {
        const unknown: never = type;
        return unknown;
      }
    }
  };
  return (
    <figure className={styles.chart}>
      <figcaption>{chart.title}</figcaption>
      {chart.data.length === 0 ? (
        <p className={styles.chartEmpty}>The query returned no rows.</p>
      ) : (
        <div className={styles.chartArea}>
          <ResponsiveContainer width="100%" height="100%">
            {plot()}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
