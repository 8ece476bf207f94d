/**
 * The editor's tools in its top bar: the side panel's two tabs (schema, history), Share
 * and the shortcut help; and what backs them: the side panel kept open across reloads, the
 * share link, Esc and "?".
 */
import { Database, History, Keyboard, Link2 } from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useState } from "react";
import { Button } from "../../../ui/Button";
import type { SidePanel } from "./EditorSidePanel";
import styles from "./editor.module.css";

/** Longer links than this are cut by some browsers and proxies: share a saved query instead. */
const MAX_SHARE_URL = 8_000;
const PANEL_KEY = "epicenter.editor.panel";

/** The side panel the user left open (the schema on a wide screen until they close it). */
export function useSidePanel() {
  const [panel, setPanelState] = useState<SidePanel | null>(() => {
    try {
      const stored = localStorage.getItem(PANEL_KEY);
      if (stored === "schema" || stored === "history") return stored;
      if (stored === "none") return null;
    } catch {
      // Storage disabled: the default below.
    }
    return window.innerWidth >= 1100 ? "schema" : null;
  });
  const setPanel = (next: SidePanel | null) => {
    setPanelState(next);
    try {
      localStorage.setItem(PANEL_KEY, next ?? "none");
    } catch {
      // Not kept across reloads, then.
    }
  };
  return { panel, setPanel, toggle: (which: SidePanel) => setPanel(panel === which ? null : which) };
}

/** Esc cancels a run wherever the focus is; "?" outside a text field opens the shortcut help. */
export function useEditorKeys(options: {
  isDialogOpen: boolean;
  run: RefObject<AbortController | null>;
  onShortcuts: () => void;
}): void {
  const { isDialogOpen, run, onShortcuts } = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isDialogOpen) return;
      if (event.key === "Escape" && run.current) {
        run.current.abort();
        return;
      }
      const target = event.target as HTMLElement | null;
      const isTyping = target?.closest("input, textarea, select, [contenteditable='true']");
      if (event.key === "?" && !isTyping) {
        event.preventDefault();
        onShortcuts();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isDialogOpen, run, onShortcuts]);
}

/** Copies the link `path` (the editor's URL with the SQL in it) and says what happened. */
export function copyShareLink(path: string, onNotice: (message: string) => void): void {
  const url = new URL(path, window.location.origin).toString();
  if (url.length > MAX_SHARE_URL) {
    onNotice("This SQL is too long for a link: save the query and share that instead.");
    return;
  }
  navigator.clipboard.writeText(url).then(
    () => onNotice("Link copied: it opens this SQL for anyone signed in"),
    () => onNotice("Could not copy the link: the browser refused the clipboard."),
  );
}

const PANEL_BUTTONS: ReadonlyArray<{ panel: SidePanel; label: string; icon: ReactNode; title: string }> = [
  { panel: "schema", label: "Schema", icon: <Database size={14} />, title: "Show or hide the schema" },
  { panel: "history", label: "History", icon: <History size={14} />, title: "Show or hide your recent runs" },
];

export function EditorTools({
  panel,
  onToggle,
  onShare,
  onShortcuts,
}: {
  panel: SidePanel | null;
  onToggle: (panel: SidePanel) => void;
  onShare: () => void;
  onShortcuts: () => void;
}) {
  return (
    <>
      {PANEL_BUTTONS.map(({ panel: which, label, icon, title }) => (
        <Button
          key={which}
          variant="ghost"
          size="sm"
          icon={icon}
          aria-pressed={panel === which}
          onClick={() => onToggle(which)}
          title={title}
        >
          <span className={styles.actionLabel}>{label}</span>
        </Button>
      ))}
      <Button
        variant="ghost"
        size="sm"
        icon={<Link2 size={14} />}
        onClick={onShare}
        title="Copy a link that opens this SQL, saved or not"
      >
        <span className={styles.actionLabel}>Share</span>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        icon={<Keyboard size={14} />}
        onClick={onShortcuts}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
      />
    </>
  );
}
