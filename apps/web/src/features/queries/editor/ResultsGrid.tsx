/**
 * The result grid: only the rows on screen are in the DOM (TanStack Virtual), so 100,000
 * rows scroll as smoothly as ten. Numbers align right, NULL is shown as NULL, and each
 * header carries the column's simplified type.
 */
import type { QueryColumn } from "@epicenter/contracts";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useMemo, useRef } from "react";
import { isNumericType, simplifyType } from "../../../lib/sql-types";
import styles from "./editor.module.css";

const ROW_HEIGHT = 30;
const INDEX_WIDTH = 56;

function widthOf(column: QueryColumn, rows: readonly Record<string, unknown>[]): number {
  let longest = Math.max(column.name.length, simplifyType(column.type).length);
  for (const row of rows.slice(0, 50)) longest = Math.max(longest, formatCell(row[column.name]).length);
  return Math.min(420, Math.max(96, longest * 7.6 + 28));
}

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function ResultsGrid({
  columns,
  rows,
}: {
  columns: readonly QueryColumn[];
  rows: readonly Record<string, unknown>[];
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const widths = useMemo(() => columns.map((column) => widthOf(column, rows)), [columns, rows]);
  const totalWidth = INDEX_WIDTH + widths.reduce((sum, width) => sum + width, 0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  // Real table elements laid out as blocks, so rows can be positioned absolutely for the
  // virtualizer while keeping table semantics for assistive technology.
  return (
    <div ref={scroller} className={styles.grid}>
      <table className={styles.gridTable} aria-label="Query results" aria-rowcount={rows.length + 1}>
        <thead className={styles.gridHeader} style={{ width: totalWidth }}>
          <tr className={styles.gridHeaderRow}>
            <th className={styles.indexCell} style={{ width: INDEX_WIDTH }} aria-label="Row number" />
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional and names may repeat
              <th key={index} className={styles.headerCell} style={{ width: widths[index] }}>
                <span className={styles.columnName}>{column.name}</span>
                <span className={styles.columnType}>{simplifyType(column.type)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={styles.gridBody} style={{ height: virtualizer.getTotalSize(), width: totalWidth }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index] ?? {};
            return (
              <tr
                key={item.key}
                className={styles.gridRow}
                aria-rowindex={item.index + 2}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, width: totalWidth }}
              >
                <td className={styles.indexCell} style={{ width: INDEX_WIDTH }}>
                  {item.index + 1}
                </td>
                {columns.map((column, index) => {
                  const value = row[column.name];
                  const text = formatCell(value);
                  return (
                    <td
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional and names may repeat
                      key={index}
                      title={text.length > 40 ? text : undefined}
                      className={[
                        styles.cell,
                        isNumericType(column.type) ? styles.numeric : "",
                        value === null || value === undefined ? styles.null : "",
                      ].join(" ")}
                      style={{ width: widths[index] }}
                    >
                      {text}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
