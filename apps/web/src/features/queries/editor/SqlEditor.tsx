/**
 * The SQL editor: CodeMirror 6 speaking the engine's own dialect (keywords, functions and
 * types read from the engine), completing databases, tables and columns from the catalog,
 * Mod-Enter to run (the selection, when there is one), Mod-S to save, Shift-Alt-F to format
 * (the selection, or the whole text), and the engine's error position underlined in place.
 * `EDITOR_SHORTCUTS` lists them for the shortcut help.
 */
import { acceptCompletion, completionStatus, startCompletion } from "@codemirror/autocomplete";
import { indentWithTab } from "@codemirror/commands";
import { keywordCompletionSource, type SQLConfig, SQLDialect, schemaCompletionSource } from "@codemirror/lang-sql";
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from "@codemirror/language";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { Prec } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import type { SqlDialect, Table } from "@epicenter/contracts";
import { tags } from "@lezer/highlight";
import CodeMirror, { type ReactCodeMirrorRef } from "@uiw/react-codemirror";
import { useEffect, useMemo, useRef } from "react";
import { fromClauseColumnCompletions, functionCompletions } from "./sql-completion";
import { formatSql } from "./sql-format";

/** What the editor's keys do, for the shortcut help (`ShortcutHelp.tsx`). */
export const EDITOR_SHORTCUTS: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ["Mod", "Enter"], action: "Run the query, or only the selected text" },
  { keys: ["Esc"], action: "Cancel the running query" },
  { keys: ["Mod", "S"], action: "Save" },
  { keys: ["Shift", "Alt", "F"], action: "Format the SQL, or only the selected text" },
  { keys: ["Ctrl", "Space"], action: "Complete a table, column or function" },
  { keys: ["Tab"], action: "Accept the completion" },
  { keys: ["Mod", "/"], action: "Comment or uncomment the line" },
  { keys: ["?"], action: "Show these shortcuts (outside the editor)" },
];

/** Formats the selection, or the whole text without one; says why when it cannot. */
function formatInView(view: EditorView, onProblem: (message: string) => void): boolean {
  const range = view.state.selection.main;
  const from = range.empty ? 0 : range.from;
  const to = range.empty ? view.state.doc.length : range.to;
  const outcome = formatSql(view.state.sliceDoc(from, to));
  if (!outcome.ok) {
    onProblem(`Cannot format this SQL: ${outcome.reason}`);
    return true;
  }
  view.dispatch({ changes: { from, to, insert: outcome.sql }, selection: { anchor: from + outcome.sql.length } });
  return true;
}

export interface ErrorPosition {
  line: number;
  column: number;
  message: string;
}

const theme = EditorView.theme(
  {
    "&": { height: "100%", backgroundColor: "var(--bg)", color: "var(--text)", fontSize: "13.5px" },
    ".cm-content": {
      fontFamily: "var(--font-mono)",
      fontVariantLigatures: "none",
      padding: "12px 0",
      caretColor: "var(--accent)",
    },
    ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--text-faint)", border: "none" },
    ".cm-activeLine": { backgroundColor: "var(--editor-active-line)" },
    ".cm-activeLineGutter": { backgroundColor: "transparent", color: "var(--text-muted)" },
    ".cm-selectionBackground, &.cm-focused .cm-selectionBackground": {
      backgroundColor: "var(--editor-selection) !important",
    },
    ".cm-cursor": { borderLeftColor: "var(--accent)" },
    ".cm-tooltip": {
      backgroundColor: "var(--surface-2)",
      border: "1px solid var(--border-strong)",
      borderRadius: "8px",
    },
    ".cm-tooltip-autocomplete > ul > li[aria-selected]": {
      backgroundColor: "var(--accent-soft)",
      color: "var(--text)",
    },
    ".cm-completionDetail": { color: "var(--text-faint)", fontStyle: "normal" },
    ".cm-lintRange-error": { backgroundImage: "none", textDecoration: "underline wavy var(--danger)" },
  },
  { dark: true },
);

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--syntax-keyword)", fontWeight: "500" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--syntax-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--syntax-number)" },
  { tag: [tags.standard(tags.name), tags.function(tags.name)], color: "var(--syntax-function)" },
  { tag: tags.typeName, color: "var(--syntax-type)" },
  { tag: [tags.lineComment, tags.blockComment], color: "var(--syntax-comment)", fontStyle: "italic" },
  { tag: tags.operator, color: "var(--syntax-operator)" },
  { tag: tags.special(tags.name), color: "var(--syntax-name)" },
]);

function dialectOf(vocabulary: SqlDialect | undefined, options: { withFunctions: boolean }): SQLDialect {
  return SQLDialect.define({
    keywords: (
      vocabulary?.keywords ?? ["select", "from", "where", "group", "by", "order", "limit", "with", "as", "final"]
    )
      .map((keyword) => keyword.toLowerCase())
      .join(" "),
    builtin: options.withFunctions ? (vocabulary?.functions ?? []).join(" ") : "",
    types: (vocabulary?.types ?? []).map((type) => type.toLowerCase()).join(" "),
    identifierQuotes: '`"',
    backslashEscapes: true,
    hashComments: true,
    doubleDollarQuotedStrings: true,
    caseInsensitiveIdentifiers: false,
  });
}

/**
 * lang-sql's SQL support, put together by hand: its keyword completion upper-cases every
 * word it offers, functions included, so it gets a dialect without the functions, and the
 * functions come from their own source, spelled as the engine spells them.
 */
function sqlLanguage(vocabulary: SqlDialect | undefined, tables: readonly Table[]): LanguageSupport {
  const dialect = dialectOf(vocabulary, { withFunctions: true });
  const data = dialect.language.data;
  return new LanguageSupport(dialect.language, [
    data.of({ autocomplete: schemaCompletionSource({ dialect, schema: schemaOf(tables) }) }),
    data.of({ autocomplete: keywordCompletionSource(dialectOf(vocabulary, { withFunctions: false }), true) }),
    data.of({ autocomplete: functionCompletions(vocabulary?.functions ?? []) }),
    data.of({ autocomplete: fromClauseColumnCompletions(tables) }),
  ]);
}

function schemaOf(tables: readonly Table[]): SQLConfig["schema"] {
  const schema: Record<string, Record<string, string[]>> = {};
  for (const table of tables) {
    schema[table.namespace] = {
      ...schema[table.namespace],
      [table.name]: table.columns.map((column) => column.name),
    };
  }
  return schema;
}

export function SqlEditor({
  value,
  onChange,
  onRun,
  onSave,
  onCancel,
  onProblem,
  vocabulary,
  tables,
  errorPosition,
}: {
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  onSave: () => void;
  /** Esc: cancels a running query, and answers whether there was one (else Esc does what it does in the editor). */
  onCancel: () => boolean;
  /** Told what went wrong when the text cannot be formatted. */
  onProblem: (message: string) => void;
  vocabulary: SqlDialect | undefined;
  tables: readonly Table[];
  errorPosition: ErrorPosition | null;
}) {
  const editor = useRef<ReactCodeMirrorRef>(null);
  // The handlers change every render; the keymap reads them through a ref so it is built once.
  const handlers = useRef({ onRun, onSave, onCancel, onProblem });
  handlers.current = { onRun, onSave, onCancel, onProblem };

  const extensions = useMemo(
    () => [
      sqlLanguage(vocabulary, tables),
      syntaxHighlighting(highlight),
      lintGutter(),
      Prec.highest(
        keymap.of([
          {
            key: "Mod-Enter",
            preventDefault: true,
            run: () => {
              handlers.current.onRun();
              return true;
            },
          },
          {
            key: "Mod-s",
            preventDefault: true,
            run: () => {
              handlers.current.onSave();
              return true;
            },
          },
          // Esc closes an open completion first; otherwise it cancels a running query.
          { key: "Escape", run: (view) => completionStatus(view.state) === null && handlers.current.onCancel() },
          { key: "Shift-Alt-f", preventDefault: true, run: (view) => formatInView(view, handlers.current.onProblem) },
          { key: "Tab", run: acceptCompletion },
          indentWithTab,
        ]),
      ),
      EditorView.lineWrapping,
    ],
    [vocabulary, tables],
  );

  // The catalog and the engine's words arrive after the editor opens. When they do, a word
  // being typed asks for its completions again: nothing else would, until the next keystroke.
  const hasTables = tables.length > 0;
  const hasVocabulary = vocabulary !== undefined;
  useEffect(() => {
    if (!hasTables && !hasVocabulary) return;
    const timer = setTimeout(() => {
      const view = editor.current?.view;
      if (!view?.hasFocus) return;
      const head = view.state.selection.main.head;
      if (/[\w.]$/.test(view.state.sliceDoc(Math.max(0, head - 1), head))) startCompletion(view);
    });
    return () => clearTimeout(timer);
  }, [hasTables, hasVocabulary]);

  useEffect(() => {
    const view = editor.current?.view;
    if (!view) return;
    const diagnostics: Diagnostic[] = [];
    if (errorPosition && errorPosition.line <= view.state.doc.lines) {
      const line = view.state.doc.line(errorPosition.line);
      const from = Math.min(line.from + Math.max(0, errorPosition.column - 1), line.to);
      const to = Math.min(Math.max(from + 1, view.state.doc.toString().indexOf(" ", from)), line.to);
      diagnostics.push({
        from,
        to: to > from ? to : Math.min(from + 1, view.state.doc.length),
        severity: "error",
        message: errorPosition.message,
      });
    }
    view.dispatch(setDiagnostics(view.state, diagnostics));
  }, [errorPosition]);

  return (
    <CodeMirror
      ref={editor}
      value={value}
      onChange={onChange}
      theme={theme}
      height="100%"
      extensions={extensions}
      basicSetup={{ foldGutter: false, highlightActiveLineGutter: true, autocompletion: true }}
      aria-label="SQL editor"
      autoFocus
    />
  );
}

/** The text selected in the editor under `root`, when there is a selection that is not blank. */
export function selectedSql(root: HTMLElement | null): string | undefined {
  const element = root?.querySelector(".cm-editor") as HTMLElement | null;
  const view = element ? EditorView.findFromDOM(element) : null;
  if (!view) return undefined;
  const text = view.state.selection.ranges
    .filter((range) => !range.empty)
    .map((range) => view.state.sliceDoc(range.from, range.to))
    .join("\n");
  return text.trim() === "" ? undefined : text;
}

/** Puts `text` at the cursor (over the selection) of the editor under `root`, and focuses it. */
export function insertAtCursor(root: HTMLElement | null, text: string): void {
  const element = root?.querySelector(".cm-editor") as HTMLElement | null;
  const view = element ? EditorView.findFromDOM(element) : null;
  if (!view) return;
  const range = view.state.selection.main;
  view.dispatch({
    changes: { from: range.from, to: range.to, insert: text },
    selection: { anchor: range.from + text.length },
    scrollIntoView: true,
  });
  view.focus();
}

/** Moves the cursor to a line and column (from the error panel). */
export function focusPosition(root: HTMLElement | null, line: number, column: number): void {
  const view = root ? EditorView.findFromDOM(root.querySelector(".cm-editor") as HTMLElement) : null;
  if (!view || line > view.state.doc.lines) return;
  const pos = Math.min(view.state.doc.line(line).from + column - 1, view.state.doc.line(line).to);
  view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  view.focus();
}
