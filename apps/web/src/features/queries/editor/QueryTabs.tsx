/**
 * The strip of open queries above the editor, as Dune and the ClickHouse console have it:
 * one tab per query open, saved or new, each keeping its unsaved text as a draft; a click
 * switches, × closes (asking first when the tab holds unsaved work), + opens a new query.
 */
import { Plus, X } from "lucide-react";
import { Link } from "react-router";
import styles from "./query-tabs.module.css";
import type { QueryTab } from "./tabs";

export function QueryTabs({
  tabs,
  current,
  onClose,
  onNew,
}: {
  tabs: readonly QueryTab[];
  current: string;
  onClose: (tab: QueryTab) => void;
  onNew: () => void;
}) {
  return (
    <nav className={styles.queryTabs} aria-label="Open queries">
      <ul>
        {tabs.map((tab) => (
          <li key={tab.key} className={tab.key === current ? styles.queryTabCurrent : styles.queryTab}>
            <Link to={tab.path} aria-current={tab.key === current ? "page" : undefined} title={tab.title}>
              {tab.title || "Untitled query"}
            </Link>
            <button type="button" onClick={() => onClose(tab)} aria-label={`Close ${tab.title || "Untitled query"}`}>
              <X size={12} />
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className={styles.newTab} onClick={onNew} aria-label="New query tab" title="New query tab">
        <Plus size={14} />
      </button>
    </nav>
  );
}
