/**
 * The SQL editor page (/queries/new and /queries/{id}): write, run (Mod-Enter) with a
 * running timer and Cancel, read the result in a virtualized grid or a chart, download it,
 * and save, save as or fork. A new query starts from the URL's prefill (Fork, the catalog,
 * dashboards, Seismo) or from the default template. A statement with `{name:Type}`
 * parameters gets one input per parameter above the results; their values live in the URL
 * and go with every run as engine-bound `params`. Beside the editor, the schema browser
 * and the run history (`EditorSidePanel`); Share copies a link that carries the SQL, the
 * title, the chart and the parameters' values, saved or not; Esc cancels a run and "?"
 * lists the shortcuts.
 */
import { type ChartSpec, type QueryColumn, queryParameters, type Table } from "@epicenter/contracts";
import { ArrowLeft, BarChart3, GitFork, Play, Save, Square, Table2 } from "lucide-react";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useDocumentTitle } from "../../../lib/document-title";
import { Button } from "../../../ui/Button";
import { editorUrl, prefillOf, withParamValues } from "../../../ui/editor-link";
import { LoadingScreen } from "../../../ui/LoadingScreen";
import { Spinner } from "../../../ui/Spinner";
import { TabPanel, Tabs } from "../../../ui/Tabs";
import { useCatalogTables, useCreateSavedQuery, useSavedQuery, useSqlDialect, useUpdateSavedQuery } from "../api";
import { SaveQueryDialog, type SaveQueryValues } from "../SaveQueryDialog";
import { DownloadButtons } from "./DownloadButtons";
import { EditorSidePanel } from "./EditorSidePanel";
import { copyShareLink, EditorTools, useEditorKeys, useSidePanel } from "./EditorTools";
import styles from "./editor.module.css";
import { ParameterInputs } from "./ParameterInputs";
import { firstUnready, valuesFor } from "./parameters";
import { QueryAdviceNote } from "./QueryAdviceNote";
import { QueryTabs } from "./QueryTabs";
import { ResultChart } from "./ResultChart";
import { ResultsGrid } from "./ResultsGrid";
import { ShortcutHelp } from "./ShortcutHelp";
import { type ErrorPosition, focusPosition, insertAtCursor, SqlEditor, selectedSql } from "./SqlEditor";
import { tabKeyOf, withTab } from "./tabs";
import { truncationNotice } from "./truncation";
import { useDraft } from "./use-draft";
import { useEditorTab } from "./use-editor-tab";
import { useParameterValues } from "./use-parameter-values";
import { chartAfterRun, useQueryRun } from "./use-query-run";

export const DEFAULT_SQL = `SELECT question, yes_probability, volume24hr
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
ORDER BY volume24hr DESC
LIMIT 10`;

/** One empty list while the catalog loads, so the editor is not reconfigured at every render. */
const NO_TABLES: readonly Table[] = [];

const ROW_LIMITS = [100, 1_000, 10_000, 100_000];
export function QueryEditorPage() {
  const { queryId } = useParams();
  const [params] = useSearchParams();
  const draftId = params.get("draft") ?? undefined;
  const isNew = !queryId || queryId === "new";
  const saved = useSavedQuery(isNew ? undefined : queryId);
  useDocumentTitle(isNew ? "New query" : saved.data?.title);
  if (!isNew && saved.isPending) return <LoadingScreen message="Loading query..." />;
  if (!isNew && saved.isError) {
    return (
      <div className={styles.missing}>
        <h1>Query not found</h1>
        <p>{saved.error.message}</p>
        <Link to="/queries">Back to Queries</Link>
      </div>
    );
  }
  const savedId = isNew ? null : (queryId ?? null);
  const tabKey = tabKeyOf(savedId, isNew ? draftId : undefined, isNew ? prefillOf(params) : undefined);
  return <Editor key={tabKey} tabKey={tabKey} savedId={savedId} saved={saved.data ?? null} />;
}

function Editor({
  tabKey,
  savedId,
  saved,
}: {
  /** The query tab this editor is (`tabs.ts`): its draft and its place in the strip. */
  tabKey: string;
  savedId: string | null;
  saved: ReturnType<typeof useSavedQuery>["data"] | null;
}) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [prefill] = useState(() => (saved ? undefined : prefillOf(params)));
  // What the editor opened with: the saved query, the URL's prefill or the template; a draft
  // left by a reload or a closed tab comes back over it.
  const { sql, setSql, title, setTitle, isDirty, markSaved } = useDraft(tabKey, () => ({
    sql: saved?.sql ?? prefill?.sql ?? DEFAULT_SQL,
    title: saved?.title ?? prefill?.title ?? "Untitled query",
  }));
  const [limit, setLimit] = useState(1_000);
  const [view, setView] = useState<"table" | "chart">(prefill?.chart ? "chart" : "table");
  // The tab answers the click at once; drawing a chart of thousands of rows happens in a
  // render React can interrupt, so the page never freezes on it.
  const shownView = useDeferredValue(view);
  // Advice follows the text at the pace typing leaves room for.
  const adviceSql = useDeferredValue(sql);
  const [chart, setChart] = useState<ChartSpec | null>(saved?.chart ?? prefill?.chart ?? null);
  const [dialog, setDialog] = useState<"save" | "save-as" | "shortcuts" | null>(null);
  const { panel, setPanel, toggle: togglePanel } = useSidePanel();
  const [notice, setNotice] = useState<string | null>(null);
  const {
    parameters,
    values: parameterValues,
    current: currentValues,
    setValue: setParameterValue,
  } = useParameterValues(sql, saved?.params);
  const editorRoot = useRef<HTMLDivElement>(null);

  const dialect = useSqlDialect();
  const tables = useCatalogTables();
  const tableNames = useMemo(() => (tables.data?.tables ?? []).map((table) => table.full_name), [tables.data]);
  const create = useCreateSavedQuery();
  const update = useUpdateSavedQuery();
  const isOwner = saved?.is_owner ?? false;

  // Unsaved work is its tab's draft; leaving the editor with it asks first.
  const { tabs, updateTabs, markLeavingSaved, closeTab, newTab } = useEditorTab({ tabKey, title, isDirty });
  const statementOf = useCallback(() => selectedSql(editorRoot.current) ?? sql, [sql]);
  // Keep the chart the user chose while its columns are still in the result.
  const onResult = useCallback(
    (columns: readonly QueryColumn[]) => setChart((current) => chartAfterRun(current, columns)),
    [],
  );
  const { run, elapsed, isRunAttempted, execute, cancel, controller } = useQueryRun({
    statementOf,
    limit,
    savedId,
    parameterValues,
    onResult,
  });
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 2_500);
    return () => clearTimeout(timer);
  }, [notice]);

  const openShortcuts = useCallback(() => setDialog("shortcuts"), []);
  useEditorKeys({ isDialogOpen: dialog !== null, run: controller, onShortcuts: openShortcuts });
  const share = () =>
    copyShareLink(editorUrl({ sql, title, ...(chart ? { view: chart } : {}) }, currentValues), setNotice);

  const saveExisting = () => {
    if (!savedId || !isOwner) {
      setDialog("save");
      return;
    }
    update.mutate(
      { id: savedId, sql, title, chart, params: currentValues },
      {
        onSuccess: () => {
          markSaved({ sql, title });
          setNotice("Saved");
        },
      },
    );
  };

  const onDialogSave = (values: SaveQueryValues) => {
    if (dialog === "save" && savedId && isOwner) {
      update.mutate(
        {
          id: savedId,
          sql,
          chart,
          params: currentValues,
          title: values.title,
          description: values.description || null,
          is_public: values.isPublic,
        },
        {
          onSuccess: () => {
            setTitle(values.title);
            markSaved({ sql, title: values.title });
            setDialog(null);
            setNotice("Saved");
          },
        },
      );
      return;
    }
    create.mutate(
      {
        sql,
        chart,
        params: currentValues,
        title: values.title,
        description: values.description || null,
        is_public: values.isPublic,
      },
      {
        onSuccess: (created) => {
          // Saved under a new id: nothing is left unsaved here.
          markSaved({ sql, title: values.title });
          setDialog(null);
          const search = withParamValues(new URLSearchParams(), currentValues).toString();
          // The new query's tab becomes the saved query's, where it stood.
          updateTabs((open) =>
            withTab(
              open,
              { key: created.id, path: `/queries/${created.id}`, title: values.title },
              { replacing: tabKey },
            ),
          );
          markLeavingSaved();
          void navigate(`/queries/${created.id}${search ? `?${search}` : ""}`, { replace: savedId === null });
        },
      },
    );
  };

  const errorPosition: ErrorPosition | null = useMemo(
    () =>
      run.status === "error" && run.details?.position
        ? { line: run.details.position.line, column: run.details.position.column, message: run.message }
        : null,
    [run],
  );
  const result = run.status === "done" ? run.result : null;
  // A download holds what the grid shows: the statement last run (a selection, maybe),
  // or the whole text before any run.
  const downloadSql = run.status === "done" ? run.statement : sql;
  const downloadParameters = run.status === "done" ? queryParameters(downloadSql) : parameters;
  const isRunning = run.status === "running";

  return (
    <div className={styles.page}>
      <header className={styles.topbar}>
        <Link to="/queries" className={styles.back} aria-label="Back to Queries">
          <ArrowLeft size={18} />
        </Link>
        <h1 className="visually-hidden">{title}</h1>
        <input
          className={styles.title}
          value={title}
          aria-label="Query title"
          onChange={(event) => setTitle(event.target.value)}
          readOnly={savedId !== null && !isOwner}
        />
        {saved?.is_example ? <span className={styles.badge}>Example</span> : null}
        {saved && !saved.is_example && !isOwner ? <span className={styles.badge}>Community</span> : null}
        {notice ? (
          <span className={styles.notice} role="status">
            {notice}
          </span>
        ) : null}
        <div className={styles.actions}>
          <EditorTools panel={panel} onToggle={togglePanel} onShare={share} onShortcuts={openShortcuts} />
          {savedId && !isOwner ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<GitFork size={14} />}
              onClick={() =>
                navigate(editorUrl({ sql, title: `${title} (fork)`, ...(chart ? { view: chart } : {}) }, currentValues))
              }
            >
              Fork
            </Button>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              icon={<Save size={14} />}
              onClick={saveExisting}
              isLoading={update.isPending}
            >
              Save
            </Button>
          )}
          {savedId ? (
            <Button variant="ghost" size="sm" onClick={() => setDialog("save-as")}>
              Save as
            </Button>
          ) : null}
          {isRunning ? (
            <Button variant="danger" size="sm" icon={<Square size={13} />} onClick={cancel} title="Cancel (Esc)">
              Cancel
            </Button>
          ) : (
            <Button variant="accent" size="sm" icon={<Play size={14} />} onClick={execute} title="Run (Ctrl+Enter)">
              Run
            </Button>
          )}
        </div>
      </header>

      <QueryTabs tabs={tabs} current={tabKey} onClose={closeTab} onNew={newTab} />
      <div className={styles.body}>
        {panel ? (
          <EditorSidePanel
            panel={panel}
            onPanel={setPanel}
            tables={tables.data?.tables ?? NO_TABLES}
            isLoadingTables={tables.isPending}
            onInsert={(text) => insertAtCursor(editorRoot.current, text)}
            onOpenRun={(text) => {
              setSql(text);
              setNotice("Opened from your history");
            }}
          />
        ) : null}
        <div className={styles.workspace}>
          <div className={styles.editorPane} ref={editorRoot}>
            <SqlEditor
              value={sql}
              onChange={setSql}
              onRun={execute}
              onSave={saveExisting}
              onCancel={() => {
                if (!controller.current) return false;
                controller.current.abort();
                return true;
              }}
              onProblem={setNotice}
              vocabulary={dialect.data}
              tables={tables.data?.tables ?? NO_TABLES}
              errorPosition={errorPosition}
            />
          </div>

          <section className={styles.resultPane} aria-label="Result">
            <QueryAdviceNote
              sql={adviceSql}
              tables={tableNames}
              onRewrite={(text) => {
                setSql(text);
                setNotice("Rewritten to the faster form: run it to compare");
              }}
            />
            <ParameterInputs
              parameters={parameters}
              values={parameterValues}
              onChange={setParameterValue}
              onRun={execute}
              isRunAttempted={isRunAttempted}
            />
            <div className={styles.resultBar}>
              <Tabs
                label="Result view"
                idPrefix="result-view"
                variant="bar"
                selected={view}
                onSelect={setView}
                tabs={[
                  { id: "table", label: "Results", icon: <Table2 size={14} /> },
                  { id: "chart", label: "Chart", icon: <BarChart3 size={14} /> },
                ]}
              />
              <div className={styles.status}>
                {isRunning ? (
                  <span className={styles.running}>
                    <Spinner size={12} /> Running… {(elapsed / 1000).toFixed(1)} s
                  </span>
                ) : result ? (
                  <>
                    <span>
                      {result.row_count.toLocaleString()} {result.row_count === 1 ? "row" : "rows"}
                    </span>
                    <span>{Math.round(result.execution_time_ms).toLocaleString()} ms</span>
                  </>
                ) : null}
                <label className={styles.limit}>
                  Limit
                  <select
                    value={limit}
                    onChange={(event) => setLimit(Number(event.target.value))}
                    aria-label="Row limit"
                  >
                    {ROW_LIMITS.map((value) => (
                      <option key={value} value={value}>
                        {value.toLocaleString()}
                      </option>
                    ))}
                  </select>
                </label>
                <DownloadButtons
                  sql={downloadSql}
                  title={title}
                  params={
                    firstUnready(downloadParameters, parameterValues)
                      ? undefined
                      : valuesFor(downloadParameters, parameterValues)
                  }
                  onError={setNotice}
                />
              </div>
            </div>

            {result?.truncated ? (
              <div className={styles.truncated} role="status" data-testid="truncated">
                {truncationNotice(result, limit)}
              </div>
            ) : null}

            <TabPanel idPrefix="result-view" tab={view} className={styles.resultBody}>
              {run.status === "idle" ? (
                <div className={styles.placeholder}>
                  Run the query with <kbd>Ctrl</kbd> + <kbd>Enter</kbd> (<kbd>⌘</kbd> + <kbd>Enter</kbd> on a Mac).
                </div>
              ) : run.status === "running" ? (
                <div className={styles.placeholder}>
                  <Spinner size={20} />
                </div>
              ) : run.status === "error" ? (
                <div className={styles.errorPanel} role="alert">
                  <strong>Query failed</strong>
                  <pre>{run.message}</pre>
                  {run.details?.position ? (
                    <button
                      type="button"
                      onClick={() =>
                        run.details?.position &&
                        focusPosition(editorRoot.current, run.details.position.line, run.details.position.column)
                      }
                    >
                      Go to line {run.details.position.line}, column {run.details.position.column}
                    </button>
                  ) : null}
                </div>
              ) : result && result.row_count === 0 ? (
                <div className={styles.placeholder}>The query returned no rows.</div>
              ) : result && shownView === "table" ? (
                <ResultsGrid
                  columns={result.columns}
                  rows={result.rows}
                  statement={run.status === "done" ? run.statement : ""}
                />
              ) : result ? (
                <ResultChart result={result} spec={chart} onChange={setChart} />
              ) : null}
            </TabPanel>
          </section>
        </div>
      </div>

      <ShortcutHelp isOpen={dialog === "shortcuts"} onClose={() => setDialog(null)} />

      <SaveQueryDialog
        isOpen={dialog === "save" || dialog === "save-as"}
        onClose={() => setDialog(null)}
        heading={dialog === "save-as" ? "Save as new query" : "Save Query"}
        initial={{
          title: dialog === "save-as" ? `${title} (copy)` : title,
          description: saved?.description ?? "",
          isPublic: dialog === "save-as" ? false : (saved?.is_public ?? false),
        }}
        isSaving={create.isPending || update.isPending}
        error={create.isError ? create.error.message : update.isError ? update.error.message : null}
        onSave={onDialogSave}
      />
    </div>
  );
}
