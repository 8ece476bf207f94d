import type { AssistantReport } from "@epicenter/contracts";
import { FileText } from "lucide-react";
import { lazy, Suspense } from "react";
import { Spinner } from "../../../ui/Spinner";
import { Markdown } from "./Markdown";
import styles from "./tools.module.css";

// recharts is large and only reports with charts need it: it loads with the first one.
const ReportChartView = lazy(() => import("./ReportChartView").then((m) => ({ default: m.ReportChartView })));

/** Seismo's report: a title, the findings as markdown, and its charts. */
export function ReportView({ report }: { report: AssistantReport }) {
  return (
    <section className={styles.report} aria-label={`Report: ${report.title}`}>
      <header className={styles.reportHeader}>
        <FileText size={16} />
        <h3>{report.title}</h3>
      </header>
      <Markdown text={report.markdown} checks={[]} title={report.title} />
      {report.charts.length > 0 ? (
        <div className={styles.charts}>
          <Suspense fallback={<Spinner size={16} />}>
            {report.charts.map((chart) => (
              <ReportChartView key={`${chart.node.title}-${chart.node.sql}`} chart={chart} />
            ))}
          </Suspense>
        </div>
      ) : null}
    </section>
  );
}
