/**
 * Drafts of the editor's unsaved work, in localStorage so a reload or a closed tab does not
 * lose it: one per query tab (`tabs.ts`), a saved query's or a new one's. Cleared on save
 * or when the user leaves or closes the tab on purpose.
 */

export interface Draft {
  sql: string;
  title: string;
}

const keyOf = (tabKey: string) => `epicenter.draft.${tabKey}`;

export function readDraft(tabKey: string): Draft | undefined {
  try {
    const raw = localStorage.getItem(keyOf(tabKey));
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Draft>;
    return typeof parsed.sql === "string" && typeof parsed.title === "string"
      ? { sql: parsed.sql, title: parsed.title }
      : undefined;
  } catch {
    return undefined;
  }
}

export function writeDraft(tabKey: string, draft: Draft): void {
  try {
    localStorage.setItem(keyOf(tabKey), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the reload guard still asks before leaving.
  }
}

export function clearDraft(tabKey: string): void {
  try {
    localStorage.removeItem(keyOf(tabKey));
  } catch {
    // Nothing to clear.
  }
}
