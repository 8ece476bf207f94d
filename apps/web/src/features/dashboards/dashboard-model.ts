import type { DashboardSummary } from "@epicenter/contracts";

/** The list's search: title, description or category, ignoring case. */
export function matchesDashboard(dashboard: DashboardSummary, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [dashboard.title, dashboard.description, dashboard.category ?? ""].some((text) =>
    text.toLowerCase().includes(needle),
  );
}
