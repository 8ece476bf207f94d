import { LayoutDashboard } from "lucide-react";
import { UpcomingPage } from "../placeholder/UpcomingPage";

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
