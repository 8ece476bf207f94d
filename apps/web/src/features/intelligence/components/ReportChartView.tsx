/** A report's chart, drawn with recharts from the chart's query value and the rows the server attached. */
import { type ReportChart, rowsAsObjects } from "@epicenter/contracts";
import { Chart } from "../../../ui/Chart";
import styles from "./tools.module.css";

export function ReportChartView({ chart }: { chart: ReportChart }) {
  const { node, result } = chart;
  const view = node.view;
  return (
    <figure className={styles.chart}>
      <figcaption>{node.title}</figcaption>
      {result.rows.length === 0 ? (
        <p className={styles.chartEmpty}>The query returned no rows.</p>
      ) : view?.kind === "chart" ? (
        <div className={styles.chartArea}>
          <Chart
            type={view.type}
            rows={rowsAsObjects(result)}
            x={view.x}
            y={view.y}
            series={view.series}
            height="100%"
          />
        </div>
      ) : null}
    </figure>
  );
}
