/**
 * What the editor offers as you type, beyond lang-sql's own schema completion:
 * - keywords in capitals (ClickHouse reads them in any case), but functions exactly as the
 *   engine spells them: its function names are case-sensitive, so `TOSTARTOFHOUR()` from
 *   an upper-casing completer is "Function … does not exist";
 * - the columns of the tables the statement reads (`FROM`/`JOIN db.table`), bare, so a
 *   column completes without typing its table first.
 * Pure functions over the text, tested without an editor.
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import type { Table } from "@epicenter/contracts";

const WORD = /[A-Za-z_][A-Za-z0-9_]*$/;

/** Functions as the engine spells them. */
export function functionCompletions(functions: readonly string[]): CompletionSource {
  const options: Completion[] = functions.map((name) => ({ label: name, type: "function", boost: -1 }));
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(WORD);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    // After a dot it is a table or a column, never a function.
    if (word.from > 0 && context.state.sliceDoc(word.from - 1, word.from) === ".") return null;
    return { from: word.from, options, validFor: /^[A-Za-z0-9_]*$/ };
  };
}

/** `db.table` names a statement reads from: after FROM or JOIN, quoted or not. */
export function tablesReadBy(sql: string, tables: readonly Table[]): Table[] {
  const byName = new Map(tables.map((table) => [`${table.namespace}.${table.name}`.toLowerCase(), table]));
  const found = new Map<string, Table>();
  // Bounded input and a pattern without nested repetition: linear on any text.
  const pattern = /\b(?:FROM|JOIN)\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*\.\s*`?([A-Za-z_][A-Za-z0-9_]*)`?/gi;
  for (const match of sql.slice(0, 200_000).matchAll(pattern)) {
    const key = `${match[1]}.${match[2]}`.toLowerCase();
    const table = byName.get(key);
    if (table) found.set(key, table);
  }
  return [...found.values()];
}

/** The columns of the tables in the statement's FROM and JOIN clauses, offered bare. */
export function fromClauseColumnCompletions(tables: readonly Table[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(WORD);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    if (word.from > 0 && context.state.sliceDoc(word.from - 1, word.from) === ".") return null;
    const reading = tablesReadBy(context.state.doc.toString(), tables);
    if (reading.length === 0) return null;
    const seen = new Map<string, Completion>();
    for (const table of reading) {
      for (const column of table.columns) {
        const existing = seen.get(column.name);
        const source = `${table.namespace}.${table.name}`;
        seen.set(column.name, {
          label: column.name,
          type: "property",
          detail: existing ? `${existing.detail}, ${source}` : source,
          info: column.type,
          boost: 2,
        });
      }
    }
    return { from: word.from, options: [...seen.values()], validFor: /^[A-Za-z0-9_]*$/ };
  };
}
