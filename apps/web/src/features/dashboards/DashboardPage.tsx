/**
 * One dashboard (SPEC §2 /dashboards/{id}): its tiles in a grid, refreshed on the
 * dashboard's cadence (5 minutes) with the time of the last refresh shown, or the
 * coming-soon view when it is not available yet.
 */
import type { Dashboard } from "@epicenter/contracts";
import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Clock, LayoutDashboard, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { useDocumentTitle } from "../../lib/document-title";
import { formatRelative } from "../../lib/time";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { LoadingScreen } from "../../ui/LoadingScreen";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { tileQueryKey, useDashboard } from "./api";
import { DashboardTileCard } from "./DashboardTile";
import styles from "./dashboards.module.css";

export function DashboardPage() {
  const { dashboardId = "" } = useParams();
  const navigate = useNavigate();
  const dashboard = useDashboard(dashboardId);
  useDocumentTitle(dashboard.data?.title ?? "Dashboards");

  if (dashboard.isPending) return <LoadingScreen message="Loading dashboard…" />;
  if (dashboard.isError) {
    return (
      <Page>
        <EmptyState
          icon={<LayoutDashboard size={20} />}
          title={
            dashboard.error.message.startsWith("No dashboard")
              ? "No such dashboard"
              : "The dashboard could not be loaded"
          }
          action={
            <Button variant="secondary" icon={<ArrowLeft size={14} />} onClick={() => navigate("/dashboards")}>
              All dashboards
            </Button>
          }
        >
          {dashboard.error.message}
        </EmptyState>
      </Page>
    );
  }
  if (dashboard.data.availability !== "available") return <ComingSoon dashboard={dashboard.data} />;
  return <LiveDashboard dashboard={dashboard.data} />;
}

function ComingSoon({ dashboard }: { dashboard: Dashboard }) {
  const navigate = useNavigate();
  return (
    <Page>
      <PageHeader eyebrow="Dashboards" title={dashboard.title} />
      <EmptyState
        icon={<Clock size={20} />}
        title="Coming soon"
        action={
          <Button variant="secondary" icon={<ArrowLeft size={14} />} onClick={() => navigate("/dashboards")}>
            All dashboards
          </Button>
        }
      >
        {dashboard.description} This dashboard is being built and is not available yet.
      </EmptyState>
    </Page>
  );
}

/** Re-renders every `ms` so relative times stay true. */
function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

function LiveDashboard({ dashboard }: { dashboard: Dashboard }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = useMemo(() => tileQueryKey(dashboard.id), [dashboard.id]);
  const fetching = useIsFetching({ queryKey: key });
  const now = useNow(15_000);
  const [refreshedAt, setRefreshedAt] = useState<number | null>(null);

  // The newest completed tile load is the dashboard's last refresh.
  useEffect(() => {
    if (fetching > 0) return;
    const times = queryClient
      .getQueriesData({ queryKey: key })
      .map(([queryKey]) => queryClient.getQueryState(queryKey))
      .map((state) => Math.max(state?.dataUpdatedAt ?? 0, state?.errorUpdatedAt ?? 0));
    const newest = Math.max(0, ...times);
    if (newest > 0) setRefreshedAt(newest);
  }, [fetching, queryClient, key]);

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: key }), [queryClient, key]);
  const lastRefreshed = useMemo(() => (refreshedAt ? new Date(refreshedAt) : null), [refreshedAt]);
  const status = (
    <span className={styles.refreshed} data-testid="last-refreshed" data-refreshed-at={refreshedAt ?? ""}>
      {fetching > 0
        ? "Refreshing…"
        : lastRefreshed
          ? `Updated ${formatRelative(lastRefreshed, now).toLowerCase()}`
          : "Loading…"}
    </span>
  );
  const controls = useMemo(
    () => (
      <>
        <Button variant="ghost" size="sm" icon={<ArrowLeft size={14} />} onClick={() => navigate("/dashboards")}>
          All
        </Button>
        <span className={styles.controlsStatus}>
          {fetching > 0
            ? "Refreshing…"
            : lastRefreshed
              ? `Updated ${formatRelative(lastRefreshed, now).toLowerCase()}`
              : ""}
        </span>
        <Button variant="secondary" size="sm" icon={<RefreshCw size={14} />} onClick={refresh} isLoading={fetching > 0}>
          Refresh
        </Button>
      </>
    ),
    [navigate, refresh, fetching, lastRefreshed, now],
  );
  usePageControls(controls);

  return (
    <Page width="wide">
      <PageHeader
        eyebrow={
          <span className={styles.eyebrow}>
            <button type="button" onClick={() => navigate("/dashboards")} className={styles.crumb}>
              Dashboards
            </button>
            {dashboard.category ? <Badge tone="info">{dashboard.category}</Badge> : null}
          </span>
        }
        title={dashboard.title}
        description={dashboard.description}
        actions={
          <div className={styles.refreshBar}>
            <Badge title="How often the tiles refresh">
              <Clock size={11} /> Refreshes every {dashboard.refresh}
            </Badge>
            {status}
            <Button
              variant="secondary"
              size="sm"
              icon={<RefreshCw size={14} />}
              onClick={refresh}
              isLoading={fetching > 0}
            >
              Refresh
            </Button>
          </div>
        }
      />
      {lastRefreshed ? (
        <p className={styles.refreshedAt}>
          Last refreshed at{" "}
          <time dateTime={lastRefreshed.toISOString()}>
            {lastRefreshed.toLocaleTimeString("en-US", {
              hour: "2-digit",
              minute: "2-digit",
              second: "2-digit",
              hourCycle: "h23",
            })}
          </time>
        </p>
      ) : null}
      <div className={styles.tiles}>
        {dashboard.tiles.map((tile) => (
          <DashboardTileCard
            key={tile.id}
            dashboardId={dashboard.id}
            tile={tile}
            refreshSeconds={dashboard.refresh_seconds}
          />
        ))}
      </div>
    </Page>
  );
}
