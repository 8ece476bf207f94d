/**
 * The product's one tab strip. Tabs that switch a panel in place are the WAI-ARIA tabs
 * pattern: a `tablist` of `tab`s, one `tabpanel` (`TabPanel`) labelled by its tab, one tab
 * in the tab order, and ←/→, Home and End moving to and selecting a tab. Tabs that are
 * pages (each with `to`) are a navigation of links instead, the current one marked
 * `aria-current="page"`, with the same look and the same keys (a link is followed).
 */
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";
import { NavLink, useNavigate } from "react-router";
import styles from "./Tabs.module.css";

export interface Tab<Id extends string = string> {
  id: Id;
  label: ReactNode;
  icon?: ReactNode;
  /** The tab is a page: a link to this path. */
  to?: string;
}

interface TabsProps<Id extends string> {
  /** Names the strip for assistive technology ("Admin sections", "Result view"). */
  label: string;
  tabs: ReadonlyArray<Tab<Id>>;
  selected: Id;
  /** Called for a panel tab; page tabs navigate. */
  onSelect?: (id: Id) => void;
  /** Ties panel tabs to their `TabPanel`s. */
  idPrefix?: string;
  variant?: "line" | "bar" | "compact";
  className?: string;
}

export function Tabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
  idPrefix = "tabs",
  variant = "line",
  className,
}: TabsProps<Id>) {
  const navigate = useNavigate();
  const strip = useRef<HTMLElement & HTMLDivElement>(null);
  // On a narrow screen the strip scrolls sideways: the selected tab is brought into it.
  useEffect(() => {
    const current = strip.current?.querySelector<HTMLElement>(`[data-tab="${CSS.escape(selected)}"]`);
    current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [selected]);
  const isNavigation = tabs.every((tab) => tab.to !== undefined);
  const choose = (tab: Tab<Id>) => {
    if (tab.to !== undefined) void navigate(tab.to);
    else onSelect?.(tab.id);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const next = nextIndex(event.key, index, tabs.length);
    if (next === undefined) return;
    event.preventDefault();
    const items = event.currentTarget.querySelectorAll<HTMLElement>("[data-tab]");
    items[next]?.focus();
    const tab = tabs[next];
    if (tab) choose(tab);
  };
  const classes = [styles.tabs, styles[variant], className].filter(Boolean).join(" ");

  if (isNavigation) {
    return (
      <nav ref={strip} className={classes} aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <NavLink
            key={tab.id}
            to={tab.to ?? ""}
            data-tab={tab.id}
            className={tab.id === selected ? `${styles.tab} ${styles.selected}` : styles.tab}
            aria-current={tab.id === selected ? "page" : undefined}
          >
            {tab.icon}
            {tab.label}
          </NavLink>
        ))}
      </nav>
    );
  }
  return (
    <div ref={strip} className={classes} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const isSelected = tab.id === selected;
        return (
          <button
            key={tab.id}
            type="button"
            role="tab"
            data-tab={tab.id}
            id={tabId(idPrefix, tab.id)}
            aria-selected={isSelected}
            aria-controls={panelId(idPrefix, tab.id)}
            tabIndex={isSelected ? 0 : -1}
            className={isSelected ? `${styles.tab} ${styles.selected}` : styles.tab}
            onClick={() => choose(tab)}
          >
            {tab.icon}
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

/** The panel of the selected panel tab. */
export function TabPanel({
  idPrefix = "tabs",
  tab,
  className,
  children,
}: {
  idPrefix?: string;
  tab: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="tabpanel" id={panelId(idPrefix, tab)} aria-labelledby={tabId(idPrefix, tab)} className={className}>
      {children}
    </div>
  );
}

/** The tab the key moves to, wrapping at both ends; undefined for any other key. */
export function nextIndex(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case "ArrowRight":
      return (index + 1) % count;
    case "ArrowLeft":
      return (index - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return undefined;
  }
}

const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;
