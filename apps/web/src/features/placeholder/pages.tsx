import { Code2 } from "lucide-react";
import { UpcomingPage } from "./UpcomingPage";

// The query pages until the editor lands; each says what will be there.

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
