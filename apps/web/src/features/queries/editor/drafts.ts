/**
 * Drafts of the editor's unsaved work, in localStorage so a reload or a closed tab does not
 * lose it: one for the new query, one per saved query being edited. Cleared on save or
 * when the user leaves on purpose.
 */

export interface Draft {
  sql: string;
  title: string;
}

const keyOf = (savedId: string | null) => `epicenter.draft.${savedId ?? "new"}`;

export function readDraft(savedId: string | null): Draft | undefined {
  try {
    const raw = localStorage.getItem(keyOf(savedId));
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Draft>;
    return typeof parsed.sql === "string" && typeof parsed.title === "string"
      ? { sql: parsed.sql, title: parsed.title }
      : undefined;
  } catch {
    return undefined;
  }
}

export function writeDraft(savedId: string | null, draft: Draft): void {
  try {
    localStorage.setItem(keyOf(savedId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the reload guard still asks before leaving.
  }
}

export function clearDraft(savedId: string | null): void {
  try {
    localStorage.removeItem(keyOf(savedId));
  } catch {
    // Nothing to clear.
  }
}
