/**
 * The data catalog (SPEC §2 /datasets): every market table, searchable by name, and the
 * way to one market's page (a search over both venues' markets).
 */
import type { Table } from "@epicenter/contracts";
import { Database, Upload } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { useDocumentTitle } from "../../lib/document-title";
import { Badge, sourceTone } from "../../ui/Badge";
import { EmptyState } from "../../ui/EmptyState";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import { SourceMark } from "../../ui/SourceMark";
import { Spinner } from "../../ui/Spinner";
import { MarketSearch } from "../markets/MarketSearch";
import { useTables } from "./api";
import styles from "./catalog.module.css";
import { datasetId, formatRowsAndColumns, matchesSearch } from "./catalog-model";

export function DatasetsPage() {
  useDocumentTitle("Data Catalog");
  const [search, setSearch] = useState("");
  const tables = useTables(false);
  const withStats = useTables(true);
  const rowCounts = useMemo(
    () => new Map(withStats.data?.tables.map((table) => [table.full_name, table.row_count ?? 0])),
    [withStats.data],
  );
  const mobileSearch = useMemo(
    () => <SearchInput label="Search tables" placeholder="Search tables…" value={search} onChange={setSearch} />,
    [search],
  );
  usePageControls(mobileSearch);

  const visible = tables.data?.tables.filter((table) => matchesSearch(table, search)) ?? [];

  return (
    <Page width="wide">
      <PageHeader
        className={styles.catalogHeader}
        eyebrow="Data"
        title="Data Catalog"
        description="Every Polymarket and Kalshi table of the archive: snapshots every ~10 minutes and the latest state of each object."
        actions={
          <div className={styles.headerSearches}>
            <div className={styles.marketSearch}>
              <MarketSearch />
            </div>
            <div className={styles.headerSearch}>
              <SearchInput label="Search tables" placeholder="Search tables…" value={search} onChange={setSearch} />
            </div>
          </div>
        }
      />
      {tables.isPending ? (
        <div className={styles.grid} aria-busy="true">
          {Array.from({ length: 8 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <div key={index} className={`${styles.card} ${styles.skeleton}`} />
          ))}
        </div>
      ) : tables.isError ? (
        <EmptyState icon={<Database size={20} />} title="The catalog could not be loaded" tone="danger">
          {tables.error.message}
        </EmptyState>
      ) : (
        <div className={styles.grid}>
          {visible.map((table) => (
            <TableCard
              key={table.full_name}
              table={table}
              rowCount={rowCounts.get(table.full_name)}
              isLoadingStats={withStats.isPending}
            />
          ))}
          {visible.length === 0 ? (
            <div className={styles.noMatch}>
              <EmptyState icon={<Database size={20} />} title="No tables match">
                Nothing is called “{search}”. Try markets, events or latest.
              </EmptyState>
            </div>
          ) : null}
          <button type="button" className={`${styles.card} ${styles.importCard}`} disabled aria-label="import data">
            <Upload size={22} />
            <span className={styles.tableName}>import data</span>
            <span className={styles.muted}>Bring your own tables. Coming soon.</span>
          </button>
        </div>
      )}
    </Page>
  );
}

function TableCard({
  table,
  rowCount,
  isLoadingStats,
}: {
  table: Table;
  rowCount: number | undefined;
  isLoadingStats: boolean;
}) {
  return (
    <Link to={`/datasets/${datasetId(table)}`} className={styles.card} data-testid="table-card">
      <div className={styles.cardTop}>
        <SourceMark source={table.source} size={34} />
        <Badge tone={sourceTone(table.source)}>{table.namespace}</Badge>
      </div>
      <h2 className={styles.tableName}>{table.name.toLowerCase()}</h2>
      <p className={styles.description}>{table.description ?? "No description yet."}</p>
      <p className={styles.stats}>
        {rowCount !== undefined ? (
          formatRowsAndColumns(rowCount, table.columns.length)
        ) : isLoadingStats ? (
          <>
            <Spinner size={11} /> loading stats...
          </>
        ) : (
          `${table.columns.length} columns`
        )}
      </p>
    </Link>
  );
}
