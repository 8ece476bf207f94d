/**
 * A result drawn whole, for the few rows a dashboard tile or one of Seismo's answers holds;
 * the editor draws its results with the virtualized `editor/ResultsGrid.tsx`. Both draw a
 * `QueryResult` (columns with the engine's types, rows as value arrays) with the one cell
 * formatter (`formatCell`), right-align numbers (by the column's kind, else its engine
 * type) and link a market's key to its page when the statement says which venue's it is.
 */
import type { QueryColumn } from "@epicenter/contracts";
import { isNumericType } from "../../lib/sql-types";
import { formatCell, type ValueKind } from "../../ui/format";
import { MarketLink } from "../markets/MarketLink";
import { isMarketKey, marketKeyColumns } from "../markets/market-keys";
import styles from "./ResultTable.module.css";

const NOT_NUMBERS: ReadonlySet<ValueKind> = new Set(["text", "datetime"]);

export function ResultTable({
  columns,
  rows,
  sql,
  kinds = {},
  labelOf = (name) => name,
  variant,
}: {
  columns: readonly QueryColumn[];
  rows: readonly (readonly unknown[])[];
  /** The statement, when market keys in the result should open their market. */
  sql?: string;
  /** How to read each column's values, by name; by its engine type otherwise. */
  kinds?: Readonly<Record<string, ValueKind>>;
  /** A column's heading. */
  labelOf?: (name: string) => string;
  /** A tile's table (the card's width, the interface font) or an answer's (monospace, scrolling under a sticky header). */
  variant: "tile" | "answer";
}) {
  if (columns.length === 0) return null;
  const venues = sql ? marketKeyColumns(sql, columns) : columns.map(() => null);
  const isNumeric = columns.map((column) => {
    const kind = kinds[column.name];
    return kind ? !NOT_NUMBERS.has(kind) : isNumericType(column.type);
  });
  return (
    <div className={`${styles.wrap} ${styles[variant]}`}>
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a result may name two columns alike
              <th key={index} className={isNumeric[index] ? styles.numeric : undefined}>
                {labelOf(column.name)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
            <tr key={rowIndex}>
              {columns.map((column, index) => {
                const value = row[index];
                const text = formatCell(value, kinds[column.name]);
                const venue = venues[index];
                const classes = [isNumeric[index] ? styles.numeric : styles.text];
                if (value === null || value === undefined) classes.push(styles.null);
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                  <td key={index} className={classes.join(" ")} title={text.length > 60 ? text : undefined}>
                    {venue && isMarketKey(value) ? (
                      <MarketLink venue={venue} id={value}>
                        {text}
                      </MarketLink>
                    ) : (
                      text
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
