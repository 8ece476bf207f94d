/**
 * One editor's text and title against what it opened with (its baseline): a saved query,
 * a link's prefill, or the template; a draft left by a reload or a closed tab comes back
 * over it. The work is unsaved while the text or the title differs from the baseline, and
 * is kept as the tab's draft as it is typed (`drafts.ts`); a save moves the baseline.
 */
import { useCallback, useEffect, useState } from "react";
import { clearDraft, type Draft, readDraft, writeDraft } from "./drafts";

/** What the editor opens with: the draft over the baseline, field by field as saved. */
export function openingOf(baseline: Draft, draft: Draft | undefined): Draft {
  return { sql: draft?.sql ?? baseline.sql, title: draft?.title ?? baseline.title };
}

/** Whether `current` holds work the baseline does not. */
export const hasUnsavedWork = (baseline: Draft, current: Draft) =>
  current.sql !== baseline.sql || current.title !== baseline.title;

export interface EditorDraft extends Draft {
  setSql(sql: string): void;
  setTitle(title: string): void;
  isDirty: boolean;
  /** The work as it now stands is saved: it becomes the baseline and the draft goes. */
  markSaved(saved: Draft): void;
}

export function useDraft(tabKey: string, opened: () => Draft): EditorDraft {
  const [baseline, setBaseline] = useState(opened);
  // A link's own tab (`tabKeyOf`) keeps its edits over what the link opens.
  const [start] = useState(() => openingOf(baseline, readDraft(tabKey)));
  const [sql, setSql] = useState(start.sql);
  const [title, setTitle] = useState(start.title);
  const isDirty = hasUnsavedWork(baseline, { sql, title });
  useEffect(() => {
    if (isDirty) writeDraft(tabKey, { sql, title });
    else clearDraft(tabKey);
  }, [isDirty, tabKey, sql, title]);
  const markSaved = useCallback(
    (saved: Draft) => {
      setBaseline(saved);
      clearDraft(tabKey);
    },
    [tabKey],
  );
  return { sql, setSql, title, setTitle, isDirty, markSaved };
}
