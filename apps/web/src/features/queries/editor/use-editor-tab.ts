/**
 * One editor's part in the query tabs: its draft written as the user types, its tab named
 * as its title reads, and leaving. Moving to another tab keeps this one's work as its
 * draft; leaving the editor (or reloading) with unsaved work asks first, and a confirmed
 * leave or close drops the draft and the tab.
 */
import { useEffect, useRef, useState } from "react";
import { useBlocker, useNavigate } from "react-router";
import { clearDraft, readDraft, writeDraft } from "./drafts";
import { pathOf, type QueryTab, useQueryTabs, withoutTab, withTab } from "./tabs";

/** The editor's own pages: moving between them keeps each query's work as its tab's draft. */
const isEditorPath = (pathname: string) => /^\/queries\/[^/]+$/.test(pathname);

export function useEditorTab({
  tabKey,
  sql,
  title,
  isDirty,
}: {
  tabKey: string;
  sql: string;
  title: string;
  isDirty: boolean;
}) {
  const navigate = useNavigate();
  useEffect(() => {
    if (isDirty) writeDraft(tabKey, { sql, title });
    else clearDraft(tabKey);
  }, [isDirty, tabKey, sql, title]);

  const { tabs, update: updateTabs } = useQueryTabs();
  const [tabPath] = useState(() => `${window.location.pathname}${window.location.search}`);
  useEffect(() => {
    updateTabs((open) =>
      withTab(open, { key: tabKey, path: tabPath, title }, { hasWork: (key) => readDraft(key) !== undefined }),
    );
  }, [updateTabs, tabKey, tabPath, title]);

  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [isDirty]);
  // Set just before the page moves on with nothing unsaved left (a save, a closed tab),
  // though this render still counts the work as unsaved (the save's state lands after it).
  const isLeavingSaved = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty &&
      !isLeavingSaved.current &&
      currentLocation.pathname !== nextLocation.pathname &&
      !isEditorPath(nextLocation.pathname),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm("Leave this query? Your unsaved changes will be lost.")) {
      clearDraft(tabKey);
      updateTabs((open) => withoutTab(open, tabKey).tabs);
      blocker.proceed();
    } else blocker.reset();
  }, [blocker, tabKey, updateTabs]);

  const closeTab = (tab: QueryTab) => {
    const isCurrent = tab.key === tabKey;
    const hasWork = isCurrent ? isDirty : readDraft(tab.key) !== undefined;
    if (hasWork && !window.confirm(`Close “${tab.title}”? Its unsaved changes will be lost.`)) return;
    clearDraft(tab.key);
    const { next } = withoutTab(tabs, tab.key);
    updateTabs((open) => withoutTab(open, tab.key).tabs);
    if (!isCurrent) return;
    isLeavingSaved.current = true;
    void navigate(next?.path ?? "/queries");
  };
  const newTab = () => void navigate(pathOf(null, Math.random().toString(36).slice(2, 10)));
  return { tabs, updateTabs, isLeavingSaved, closeTab, newTab };
}
