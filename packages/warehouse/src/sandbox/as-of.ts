/**
 * The "as of" views user SQL may call like table functions: `polymarket.markets_asof(ts)`,
 * `kalshi.book_asof(ts)`… (migration 18). They are parameterised views, which the engine
 * calls with named arguments only (`book_asof(ts = now() - INTERVAL 1 HOUR)`); a single
 * unnamed argument is named here before the engine sees the text, so both forms work.
 * The allow-list admits exactly these names in FROM: a view reads only what its own
 * definition (ours) reads.
 */
import { AS_OF_VIEWS, VENUE_FACTS, VENUES } from "@epicenter/contracts";
import { tokenizeSql } from "./sql-text";

export { AS_OF_VIEWS };
export const AS_OF_DATABASES = VENUES.map((venue) => VENUE_FACTS[venue].database);

/** `database.view` of every as-of view, lower-cased as the allow-list compares names. */
export const AS_OF_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(
  AS_OF_DATABASES.flatMap((database) => AS_OF_VIEWS.map((view) => `${database}.${view}`)),
);

/**
 * `sql` with the one unnamed argument of each as-of call named `ts`. A call already
 * naming its argument, or with none, is left as written (the engine says what is wrong).
 */
export function nameAsOfArguments(sql: string): string {
  const code = tokenizeSql(sql).filter((token) => token.kind !== "whitespace" && token.kind !== "comment");
  const inserts: number[] = [];
  for (let i = 0; i + 4 < code.length; i++) {
    const [database, dot, view, open, first, second] = code.slice(i, i + 6);
    if (
      database?.kind !== "word" ||
      dot?.value !== "." ||
      view?.kind !== "word" ||
      open?.value !== "(" ||
      !AS_OF_TABLE_FUNCTIONS.has(`${database.value}.${view.value}`) ||
      !first ||
      first.value === ")"
    ) {
      continue;
    }
    const named = first.kind === "word" && first.value.toLowerCase() === "ts" && second?.value === "=";
    if (!named) inserts.push(first.start);
  }
  let text = sql;
  for (const at of inserts.reverse()) text = `${text.slice(0, at)}ts = ${text.slice(at)}`;
  return text;
}
