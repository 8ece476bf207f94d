/** The dashboards list (SPEC §2 /dashboards): searchable, with 'Create Dashboard' not yet open. */
import { type DashboardSummary, VENUE_FACTS, VENUES } from "@epicenter/contracts";
import { ArrowRight, Clock, LayoutDashboard, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { useDocumentTitle } from "../../lib/document-title";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import { SourceMark } from "../../ui/SourceMark";
import { useDashboards } from "./api";
import { matchesDashboard } from "./dashboard-model";
import styles from "./dashboards.module.css";

export function DashboardsPage() {
  useDocumentTitle("Dashboards");
  const [search, setSearch] = useState("");
  const dashboards = useDashboards();
  const controls = useMemo(
    () => (
      <SearchInput label="Search dashboards" placeholder="Search dashboards…" value={search} onChange={setSearch} />
    ),
    [search],
  );
  usePageControls(controls);
  const visible = dashboards.data?.dashboards.filter((dashboard) => matchesDashboard(dashboard, search)) ?? [];

  return (
    <Page width="wide">
      <PageHeader
        eyebrow="Monitoring"
        title="Dashboards"
        description="Live views of both venues, built from SQL you can open and change in the editor."
        actions={
          <>
            <div className={styles.headerSearch}>
              <SearchInput
                label="Search dashboards"
                placeholder="Search dashboards…"
                value={search}
                onChange={setSearch}
              />
            </div>
            <Button variant="secondary" icon={<Plus size={15} />} disabled title="Coming soon">
              Create Dashboard <span className={styles.soon}>Coming soon</span>
            </Button>
          </>
        }
      />
      {dashboards.isPending ? (
        <div className={styles.list} aria-busy="true">
          {[0, 1, 2].map((index) => (
            <div key={index} className={`${styles.listCard} ${styles.skeleton}`} />
          ))}
        </div>
      ) : dashboards.isError ? (
        <EmptyState icon={<LayoutDashboard size={20} />} title="The dashboards could not be loaded" tone="danger">
          {dashboards.error.message}
        </EmptyState>
      ) : visible.length === 0 ? (
        <EmptyState icon={<LayoutDashboard size={20} />} title="No dashboards match">
          Nothing matches “{search}”. Try pulse, kalshi or monitoring.
        </EmptyState>
      ) : (
        <div className={styles.list}>
          {visible.map((dashboard) => (
            <DashboardCard key={dashboard.id} dashboard={dashboard} />
          ))}
        </div>
      )}
    </Page>
  );
}

function DashboardCard({ dashboard }: { dashboard: DashboardSummary }) {
  const isAvailable = dashboard.availability === "available";
  return (
    <Link
      to={`/dashboards/${dashboard.id}`}
      className={`${styles.listCard} ${isAvailable ? "" : styles.unavailable}`}
      data-testid="dashboard-card"
    >
      <div className={styles.marks}>
        {(dashboard.source === "both" ? VENUES : [dashboard.source]).map((venue) => (
          <SourceMark key={venue} source={VENUE_FACTS[venue].label} size={30} />
        ))}
      </div>
      <div className={styles.listBody}>
        <h2>{dashboard.title}</h2>
        <p>{dashboard.description}</p>
        <div className={styles.meta}>
          {isAvailable ? (
            <>
              {dashboard.category ? <Badge tone="info">{dashboard.category}</Badge> : null}
              {dashboard.refresh ? (
                <Badge>
                  <Clock size={11} /> {dashboard.refresh}
                </Badge>
              ) : null}
              <span className={styles.tileCount}>{dashboard.tile_count} tiles</span>
            </>
          ) : (
            <Badge tone="warning">Coming soon</Badge>
          )}
        </div>
      </div>
      <ArrowRight size={18} className={styles.arrow} />
    </Link>
  );
}
