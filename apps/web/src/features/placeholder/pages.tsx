import { Brain, Code2, Database, LayoutDashboard } from "lucide-react";
import { UpcomingPage } from "./UpcomingPage";

// Each route's page until its part of the product lands; each says what will be there.

export function IntelligencePage() {
  return (
    <UpcomingPage
      title="Intelligence"
      icon={Brain}
      description="Seismo, the AI assistant that writes SQL for the archive or analyses it for you, streamed live."
      upcoming={[
        "Ask in plain words; Seismo answers with ClickHouse SQL that has been run and checked",
        "Analyst mode: findings, numbers and a short report with charts",
        "Every SQL block runnable inline or opened in the editor",
      ]}
    />
  );
}

export function QueriesPage() {
  return (
    <UpcomingPage
      title="Queries"
      icon={Code2}
      description="Saved, forkable and shareable SQL queries over every Polymarket and Kalshi snapshot."
      upcoming={[
        "A gallery of your queries, public ones and examples, with run counts and runtimes",
        "The SQL editor with ClickHouse autocomplete, results grid, charts and downloads",
      ]}
    />
  );
}

export function QueryEditorPage() {
  return (
    <UpcomingPage
      title="Query editor"
      icon={Code2}
      description="Write ClickHouse SQL against the archive and see the result in a grid or a chart."
      upcoming={["Run with Ctrl+Enter, cancel, results grid, charts, CSV / JSON / Parquet downloads"]}
    />
  );
}

export function DashboardsPage() {
  return (
    <UpcomingPage
      title="Dashboards"
      icon={LayoutDashboard}
      description="Live views of both venues, refreshed every 5 minutes."
      upcoming={["Polymarket Pulse", "Kalshi Pulse", "Cross-Platform Arbitrage (coming soon)"]}
    />
  );
}

export function DashboardPage() {
  return <DashboardsPage />;
}

export function DatasetsPage() {
  return (
    <UpcomingPage
      title="Data Catalog"
      icon={Database}
      description="Every table of the archive with its schema, sample values and row counts."
      upcoming={["polymarket.events, polymarket.markets, kalshi.events, kalshi.markets and their latest-state tables"]}
    />
  );
}

export function DatasetPage() {
  return <DatasetsPage />;
}
