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
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null };
  rows: Row[] | undefined;
  columns: Array<{ header: string; cell: (row: Row) => ReactNode; isNumeric?: boolean }>;
  rowKey: (row: Row) => string;
  empty: string;
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
    <div className={styles.tableWrap}>
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
                <td key={column.header} className={column.isNumeric ? styles.numeric : undefined}>
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
