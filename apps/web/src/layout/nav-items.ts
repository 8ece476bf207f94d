import { BookOpen, Brain, Code2, Database, Home, LayoutDashboard, type LucideIcon, Shield } from "lucide-react";

export interface NavItem {
  to: string;
  label: string;
  /** Short label for the bottom navigation's icon tabs. */
  shortLabel: string;
  icon: LucideIcon;
  /** Active for every path under it, not only the exact path. */
  matchesPrefix: boolean;
  isAdminOnly: boolean;
}

/** Side and bottom navigation, in the specification's order. */
export const navItems: readonly NavItem[] = [
  { to: "/", label: "Overview", shortLabel: "Overview", icon: Home, matchesPrefix: false, isAdminOnly: false },
  {
    to: "/intelligence",
    label: "Intelligence",
    shortLabel: "Seismo",
    icon: Brain,
    matchesPrefix: true,
    isAdminOnly: false,
  },
  { to: "/queries", label: "Queries", shortLabel: "Queries", icon: Code2, matchesPrefix: true, isAdminOnly: false },
  {
    to: "/dashboards",
    label: "Dashboards",
    shortLabel: "Dashboards",
    icon: LayoutDashboard,
    matchesPrefix: false,
    isAdminOnly: false,
  },
  {
    to: "/datasets",
    label: "Data Catalog",
    shortLabel: "Catalog",
    icon: Database,
    matchesPrefix: false,
    isAdminOnly: false,
  },
  { to: "/hub", label: "Hub", shortLabel: "Hub", icon: BookOpen, matchesPrefix: false, isAdminOnly: false },
  { to: "/admin", label: "Admin", shortLabel: "Admin", icon: Shield, matchesPrefix: true, isAdminOnly: true },
];

export function visibleNavItems(isAdmin: boolean): NavItem[] {
  return navItems.filter((item) => isAdmin || !item.isAdminOnly);
}

/** The bottom navigation's active-path rule of the specification. */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === item.to) return true;
  return item.matchesPrefix && path.startsWith(`${item.to}/`);
}

/** The side navigation highlights the section a page belongs to, detail pages included. */
export function isSectionActive(item: NavItem, pathname: string): boolean {
  if (item.to === "/") return pathname === "/";
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}

/** Detail views take the whole width, no sidebar (SPEC §2): a query, a dataset, a dashboard, a market. */
export function hidesSidebar(pathname: string): boolean {
  return /^\/(queries|datasets|dashboards|markets)\/[^/]+/.test(pathname) || pathname.startsWith("/query/editor");
}

/** The standalone editor hides the bottom navigation and the top bar as well. */
export function hidesChrome(pathname: string): boolean {
  return pathname.startsWith("/query/editor");
}
