import { Database } from "lucide-react";
import { UpcomingPage } from "../placeholder/UpcomingPage";

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
