import { describe, expect, it } from "vitest";
import { hidesChrome, hidesSidebar, isNavItemActive, navItems, visibleNavItems } from "./nav-items";

const item = (to: string) => {
  const found = navItems.find((candidate) => candidate.to === to);
  if (!found) throw new Error(`no nav item ${to}`);
  return found;
};

describe("bottom navigation", () => {
  it("shows six tabs, and a seventh for the admin", () => {
    expect(visibleNavItems(false).map((i) => i.to)).toEqual([
      "/",
      "/intelligence",
      "/queries",
      "/dashboards",
      "/datasets",
      "/hub",
    ]);
    expect(visibleNavItems(true).map((i) => i.to)).toContain("/admin");
    expect(visibleNavItems(true)).toHaveLength(7);
  });

  it("marks Overview active only on /", () => {
    expect(isNavItemActive(item("/"), "/")).toBe(true);
    expect(isNavItemActive(item("/"), "/queries")).toBe(false);
  });

  it("keeps Intelligence, Queries and Admin active on every path under them", () => {
    expect(isNavItemActive(item("/intelligence"), "/intelligence/chat/1")).toBe(true);
    expect(isNavItemActive(item("/queries"), "/queries/abc")).toBe(true);
    expect(isNavItemActive(item("/admin"), "/admin/waitlist")).toBe(true);
    expect(isNavItemActive(item("/queries"), "/queriesx")).toBe(false);
  });

  it("marks Dashboards, Catalog and Hub active on their own path only", () => {
    expect(isNavItemActive(item("/datasets"), "/datasets")).toBe(true);
    expect(isNavItemActive(item("/datasets"), "/datasets/")).toBe(true);
    expect(isNavItemActive(item("/datasets"), "/datasets/polymarket-markets")).toBe(false);
    expect(isNavItemActive(item("/hub"), "/hub/status")).toBe(false);
  });
});

describe("chrome", () => {
  it("hides the sidebar on the editor views", () => {
    expect(hidesSidebar("/queries/new")).toBe(true);
    expect(hidesSidebar("/queries/0b6f")).toBe(true);
    expect(hidesSidebar("/queries")).toBe(false);
    expect(hidesSidebar("/query/editor")).toBe(true);
    expect(hidesSidebar("/datasets/polymarket-markets")).toBe(true);
    expect(hidesSidebar("/dashboards/kalshi-pulse")).toBe(true);
    expect(hidesSidebar("/markets/polymarket/517310")).toBe(true);
    expect(hidesSidebar("/markets/kalshi/KXHIGHNY-25NOV21-B54.5")).toBe(true);
    expect(hidesSidebar("/datasets")).toBe(false);
    expect(hidesSidebar("/dashboards")).toBe(false);
  });

  it("hides the top bar and bottom navigation on /query/editor only", () => {
    expect(hidesChrome("/query/editor")).toBe(true);
    expect(hidesChrome("/queries/new")).toBe(false);
  });
});
