/**
 * The panel beside the editor, as Dune and the ClickHouse console have it: the schema
 * (every database, table and column with its type and description, searchable; a click
 * puts the name at the cursor) and the user's run history (their last runs from any
 * surface, with rows, time or the error; a click opens the SQL in the editor).
 */
import type { RunHistory, Table } from "@epicenter/contracts";
import { AlertCircle, CheckCircle2, ChevronDown, ChevronRight } from "lucide-react";
import { useState } from "react";
import { formatTimestamp } from "../../../ui/format";
import { SearchInput } from "../../../ui/SearchInput";
import { Spinner } from "../../../ui/Spinner";
import { TabPanel, Tabs } from "../../../ui/Tabs";
import { useRunHistory } from "../api";
import { searchSchema } from "./schema-model";
import styles from "./side-panel.module.css";

export type SidePanel = "schema" | "history";

export function EditorSidePanel({
  panel,
  onPanel,
  tables,
  isLoadingTables,
  onInsert,
  onOpenRun,
}: {
  panel: SidePanel;
  onPanel: (panel: SidePanel) => void;
  tables: readonly Table[];
  isLoadingTables: boolean;
  onInsert: (text: string) => void;
  onOpenRun: (sql: string) => void;
}) {
  return (
    <aside className={styles.sidePanel} aria-label="Schema and history">
      <Tabs
        label="Side panel"
        idPrefix="side-panel"
        variant="compact"
        selected={panel}
        onSelect={onPanel}
        tabs={[
          { id: "schema", label: "Schema" },
          { id: "history", label: "History" },
        ]}
      />
      <TabPanel idPrefix="side-panel" tab={panel} className={styles.sidePanelBody}>
        {panel === "schema" ? (
          <SchemaBrowser tables={tables} isLoading={isLoadingTables} onInsert={onInsert} />
        ) : (
          <RunHistoryList onOpen={onOpenRun} />
        )}
      </TabPanel>
    </aside>
  );
}

function SchemaBrowser({
  tables,
  isLoading,
  onInsert,
}: {
  tables: readonly Table[];
  isLoading: boolean;
  onInsert: (text: string) => void;
}) {
  const [search, setSearch] = useState("");
  // Tables the user opened or closed by hand, over what the search opens; a new search starts afresh.
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());
  const groups = searchSchema(tables, search);
  const onSearch = (value: string) => {
    setSearch(value);
    setToggled(new Map());
  };
  const toggle = (name: string, isOpen: boolean) => setToggled((current) => new Map(current).set(name, !isOpen));

  return (
    <div className={styles.schema}>
      <SearchInput value={search} onChange={onSearch} label="Search tables and columns" />
      {isLoading ? (
        <div className={styles.sideEmpty}>
          <Spinner size={16} />
        </div>
      ) : groups.length === 0 ? (
        <p className={styles.sideEmpty}>{search ? `No table or column matches “${search}”.` : "No tables yet."}</p>
      ) : (
        groups.map((group) => (
          <section key={group.database} aria-label={`Database ${group.database}`}>
            <h3 className={styles.schemaDatabase}>{group.database}</h3>
            <ul className={styles.schemaTables}>
              {group.entries.map(({ table, columns, isOpenedBySearch }) => {
                const isOpen = toggled.get(table.full_name) ?? isOpenedBySearch;
                return (
                  <li key={table.full_name}>
                    <div className={styles.schemaTable}>
                      <button
                        type="button"
                        className={styles.schemaToggle}
                        aria-expanded={isOpen}
                        aria-label={`${isOpen ? "Hide" : "Show"} the columns of ${table.full_name}`}
                        onClick={() => toggle(table.full_name, isOpen)}
                      >
                        {isOpen ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
                      </button>
                      <button
                        type="button"
                        className={styles.schemaName}
                        title={`${table.description ?? table.full_name}\nClick to insert ${table.full_name}`}
                        onClick={() => onInsert(table.full_name)}
                      >
                        {table.name}
                      </button>
                    </div>
                    {isOpen ? (
                      <ul className={styles.schemaColumns} aria-label={`Columns of ${table.full_name}`}>
                        {columns.map((column) => (
                          <li key={column.name}>
                            <button
                              type="button"
                              className={styles.schemaColumn}
                              title={`${column.description ?? column.name}\nClick to insert ${column.name}`}
                              onClick={() => onInsert(column.name)}
                            >
                              <span className={styles.schemaColumnName}>{column.name}</span>
                              <span className={styles.schemaType}>{column.type}</span>
                            </button>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}

const ORIGIN_LABELS: Record<RunHistory["runs"][number]["origin"], string> = {
  editor: "Editor",
  api: "API",
  clickhouse: "ClickHouse interface",
  mcp: "MCP",
  seismo: "Seismo",
};

function RunHistoryList({ onOpen }: { onOpen: (sql: string) => void }) {
  const history = useRunHistory(true);
  if (history.isPending) {
    return (
      <div className={styles.sideEmpty}>
        <Spinner size={16} />
      </div>
    );
  }
  if (history.isError) return <p className={styles.sideEmpty}>{history.error.message}</p>;
  if (history.data.runs.length === 0) {
    return <p className={styles.sideEmpty}>No runs yet. Your last 50 runs show here, from any surface.</p>;
  }
  return (
    <ol className={styles.history} aria-label="Your recent runs">
      {history.data.runs.map((run) => (
        <li key={run.id}>
          <button
            type="button"
            className={styles.historyRun}
            onClick={() => onOpen(run.sql)}
            title={`${run.sql}\n\nClick to open this SQL in the editor`}
          >
            <span className={styles.historySql}>{run.sql}</span>
            <span className={run.error ? styles.historyFailed : styles.historyMeta}>
              {run.error ? (
                <AlertCircle size={12} aria-label="Failed" />
              ) : (
                <CheckCircle2 size={12} aria-label="Succeeded" />
              )}
              {run.error
                ? run.error
                : `${run.row_count.toLocaleString("en-US")} ${run.row_count === 1 ? "row" : "rows"} · ${run.duration_ms.toLocaleString("en-US")} ms`}
            </span>
            <span className={styles.historyMeta}>
              {formatTimestamp(run.started_at)} · {ORIGIN_LABELS[run.origin]}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
