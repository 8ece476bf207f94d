import type { DashboardSummary } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { matchesDashboard } from "./dashboard-model";

const pulse: DashboardSummary = {
  kind: "dashboard",
  id: "kalshi-pulse",
  title: "Kalshi Pulse",
  description: "Contracts traded per hour",
  category: "monitoring",
  refresh: "5min",
  refresh_seconds: 300,
  availability: "available",
  source: "kalshi",
  tile_count: 11,
};

describe("dashboard search", () => {
  it("matches title, description and category, ignoring case", () => {
    expect(matchesDashboard(pulse, "KALSHI")).toBe(true);
    expect(matchesDashboard(pulse, "per hour")).toBe(true);
    expect(matchesDashboard(pulse, "monitor")).toBe(true);
    expect(matchesDashboard(pulse, "arbitrage")).toBe(false);
    expect(matchesDashboard(pulse, "  ")).toBe(true);
  });
});
