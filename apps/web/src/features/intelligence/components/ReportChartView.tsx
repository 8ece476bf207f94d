/** A report's chart, drawn with recharts from the chart spec and the rows the server attached. */
import type { ReportChart } from "@epicenter/contracts";
import { Chart } from "../../../ui/Chart";
import styles from "./tools.module.css";

export function ReportChartView({ chart }: { chart: ReportChart }) {
  return (
    <figure className={styles.chart}>
      <figcaption>{chart.title}</figcaption>
      {chart.data.length === 0 ? (
        <p className={styles.chartEmpty}>The query returned no rows.</p>
      ) : (
        <div className={styles.chartArea}>
          <Chart type={chart.chart.type} rows={chart.data} x={chart.chart.x} y={chart.chart.y} height="100%" />
        </div>
      )}
    </figure>
  );
}
