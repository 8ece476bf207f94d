import type { ReactNode } from "react";
import { Spinner } from "../../ui/Spinner";
import styles from "./admin.module.css";

/** A table with the loading, error and empty states every admin section needs. */
export function AdminTable<Row>({
  query,
  rows,
  columns,
  rowKey,
  empty,
  className,
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null };
  rows: Row[] | undefined;
  columns: Array<{ header: string; cell: (row: Row) => ReactNode; isNumeric?: boolean }>;
  rowKey: (row: Row) => string;
  empty: string;
  /** For a section that lays its rows out its own way (cards on a phone); each cell carries its header as `data-label`. */
  className?: string;
}) {
  if (query.isPending) {
    return (
      <div className={styles.state}>
        <Spinner /> Loading…
      </div>
    );
  }
  if (query.isError) return <div className={styles.state}>Could not load: {query.error?.message}</div>;
  if (!rows || rows.length === 0) return <div className={styles.state}>{empty}</div>;
  return (
    <div className={className ? `${styles.tableWrap} ${className}` : styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} className={column.isNumeric ? styles.numeric : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={column.isNumeric ? styles.numeric : undefined}
                  data-label={column.header || undefined}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
