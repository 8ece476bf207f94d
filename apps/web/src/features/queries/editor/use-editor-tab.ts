/**
 * One editor's part in the query tabs: its tab named as its title reads, closing tabs and
 * opening new ones, and leaving (`use-leave-guard.ts`): moving to another tab keeps this
 * one's work as its draft (`use-draft.ts`); a confirmed leave or close drops the draft and
 * the tab.
 */
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { clearDraft, readDraft } from "./drafts";
import { pathOf, type QueryTab, useQueryTabs, withoutTab, withTab } from "./tabs";
import { useLeaveGuard } from "./use-leave-guard";

export function useEditorTab({ tabKey, title, isDirty }: { tabKey: string; title: string; isDirty: boolean }) {
  const navigate = useNavigate();
  const { tabs, update: updateTabs } = useQueryTabs();
  const [tabPath] = useState(() => `${window.location.pathname}${window.location.search}`);
  useEffect(() => {
    updateTabs((open) =>
      withTab(open, { key: tabKey, path: tabPath, title }, { hasWork: (key) => readDraft(key) !== undefined }),
    );
  }, [updateTabs, tabKey, tabPath, title]);

  const onLeave = useCallback(() => {
    clearDraft(tabKey);
    updateTabs((open) => withoutTab(open, tabKey).tabs);
  }, [tabKey, updateTabs]);
  const { markLeavingSaved } = useLeaveGuard({ isDirty, onLeave });

  const closeTab = (tab: QueryTab) => {
    const isCurrent = tab.key === tabKey;
    const hasWork = isCurrent ? isDirty : readDraft(tab.key) !== undefined;
    if (hasWork && !window.confirm(`Close “${tab.title}”? Its unsaved changes will be lost.`)) return;
    clearDraft(tab.key);
    const { next } = withoutTab(tabs, tab.key);
    updateTabs((open) => withoutTab(open, tab.key).tabs);
    if (!isCurrent) return;
    markLeavingSaved();
    void navigate(next?.path ?? "/queries");
  };
  const newTab = () => void navigate(pathOf(null, Math.random().toString(36).slice(2, 10)));
  return { tabs, updateTabs, markLeavingSaved, closeTab, newTab };
}
