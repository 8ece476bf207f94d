/**
 * The editor's query tabs: the queries a user has open, saved or new, in localStorage so
 * they outlive a reload. A tab is its key (the saved query's id, or `new` plus a draft
 * id for unsaved work, whose text is its draft in `drafts.ts`), where it opens and its
 * title. These are plain functions over the list; `useQueryTabs` keeps it in storage.
 */
import { useCallback, useEffect, useState } from "react";

export interface QueryTab {
  key: string;
  /** Where the tab opens: /queries/new[?draft=…] or /queries/{id}. */
  path: string;
  title: string;
}

/** How many tabs stay open; opening one more closes the oldest. */
export const MAX_TABS = 12;
const STORAGE_KEY = "epicenter.editor.tabs";

/**
 * A tab's key: the saved query's id; a new query's draft id (`?draft=`); for a link that
 * opens SQL (Fork, the catalog, a tile, Share: `?sql=`) one of its own from what it opens,
 * so it never takes over another new query's draft and the same link finds its own work
 * again; "new" for the plain new query.
 */
export function tabKeyOf(
  savedId: string | null,
  draftId: string | undefined,
  prefill?: { sql: string; title?: string; chart?: unknown },
): string {
  if (savedId) return savedId;
  if (draftId) return `new.${draftId}`;
  if (prefill) return `new.link-${hashOf(JSON.stringify([prefill.sql, prefill.title ?? "", prefill.chart ?? null]))}`;
  return "new";
}

/** FNV-1a, base 36: a short, stable name for a text. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export const pathOf = (savedId: string | null, draftId: string | undefined) =>
  savedId ? `/queries/${savedId}` : draftId ? `/queries/new?draft=${encodeURIComponent(draftId)}` : "/queries/new";

/**
 * The list with `tab` in it: updated in place when open, else added at the end. Past
 * `MAX_TABS` the oldest tab without unsaved work (`hasWork`) closes; tabs holding work are
 * never closed for room.
 */
export function withTab(
  tabs: readonly QueryTab[],
  tab: QueryTab,
  options: { replacing?: string; hasWork?: (key: string) => boolean } = {},
): QueryTab[] {
  const at = tabs.findIndex((open) => open.key === (options.replacing ?? tab.key));
  if (at !== -1) {
    return tabs
      .map((open, index) => (index === at ? tab : open))
      .filter((open, index) => index === at || open.key !== tab.key);
  }
  const added = [...tabs, tab];
  while (added.length > MAX_TABS) {
    const spare = added.findIndex((open) => open.key !== tab.key && !options.hasWork?.(open.key));
    if (spare === -1) break;
    added.splice(spare, 1);
  }
  return added;
}

/** The list without `key`, and the tab to show instead when it was the one shown: its right neighbour, else its left. */
export function withoutTab(tabs: readonly QueryTab[], key: string): { tabs: QueryTab[]; next: QueryTab | undefined } {
  const at = tabs.findIndex((open) => open.key === key);
  if (at === -1) return { tabs: [...tabs], next: undefined };
  const rest = tabs.filter((open) => open.key !== key);
  return { tabs: rest, next: rest[at] ?? rest[at - 1] };
}

export function readTabs(): QueryTab[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? parsed.filter(
          (tab): tab is QueryTab =>
            typeof tab?.key === "string" && typeof tab?.path === "string" && typeof tab?.title === "string",
        )
      : [];
  } catch {
    return [];
  }
}

function writeTabs(tabs: readonly QueryTab[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(tabs));
  } catch {
    // Storage full or disabled: the tabs last as long as the page.
  }
}

/** The open tabs, kept in storage; another browser tab's changes show here too. */
export function useQueryTabs() {
  const [tabs, setTabs] = useState<QueryTab[]>(readTabs);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEY) setTabs(readTabs());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);
  const update = useCallback((change: (tabs: QueryTab[]) => QueryTab[]) => {
    // Read afresh: another editor page may have changed the list since this one rendered.
    const next = change(readTabs());
    writeTabs(next);
    setTabs(next);
    return next;
  }, []);
  return { tabs, update };
}
