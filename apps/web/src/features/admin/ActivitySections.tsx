import { useState } from "react";
import { formatDateTime, formatRelative } from "../../lib/time";
import { AdminTable } from "./AdminTable";
import styles from "./admin.module.css";
import { useAdminUsers, useQueryRuns, useSyncRuns } from "./api";

const number = new Intl.NumberFormat();

export function UsersSection() {
  const users = useAdminUsers();
  return (
    <section className={styles.section}>
      <AdminTable
        query={users}
        rows={users.data?.users}
        rowKey={(user) => user.id}
        empty="Nobody has signed in yet."
        columns={[
          { header: "E-mail", cell: (user) => (user.is_admin ? `${user.email} · admin` : user.email) },
          {
            header: "Joined",
            cell: (user) => <span title={formatDateTime(user.created_at)}>{formatRelative(user.created_at)}</span>,
          },
          { header: "Last seen", cell: (user) => formatRelative(user.last_seen_at) },
          { header: "Queries", cell: (user) => number.format(user.query_count), isNumeric: true },
          { header: "API keys", cell: (user) => number.format(user.key_count), isNumeric: true },
        ]}
      />
    </section>
  );
}

export function SyncRunsSection() {
  const [isHidingIdleBackfill, setIsHidingIdleBackfill] = useState(true);
  const runs = useSyncRuns(isHidingIdleBackfill);
  return (
    <section className={styles.section}>
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={isHidingIdleBackfill}
          onChange={(event) => setIsHidingIdleBackfill(event.target.checked)}
        />
        Hide backfill steps that wrote nothing
      </label>
      <AdminTable
        query={runs}
        rows={runs.data?.runs}
        rowKey={(run) => run.run_id}
        empty="No sync has run yet."
        columns={[
          { header: "Started", cell: (run) => formatDateTime(`${run.started_at.replace(" ", "T")}Z`) },
          { header: "Source", cell: (run) => run.source },
          { header: "Kind", cell: (run) => run.kind },
          {
            header: "Result",
            cell: (run) =>
              run.success ? (
                <span className={styles.ok}>ok</span>
              ) : (
                <span className={styles.failed} title={run.error ?? ""}>
                  failed
                </span>
              ),
          },
          { header: "Events", cell: (run) => number.format(run.events_written), isNumeric: true },
          { header: "Markets", cell: (run) => number.format(run.markets_written), isNumeric: true },
          { header: "Duration", cell: (run) => `${(run.duration_ms / 1000).toFixed(1)} s`, isNumeric: true },
          { header: "Error", cell: (run) => <span className={styles.errorText}>{run.error ?? ""}</span> },
        ]}
      />
    </section>
  );
}

export function QueryRunsSection() {
  const [isErrorsOnly, setIsErrorsOnly] = useState(true);
  const runs = useQueryRuns(isErrorsOnly);
  return (
    <section className={styles.section}>
      <label className={styles.toggle}>
        <input type="checkbox" checked={isErrorsOnly} onChange={(event) => setIsErrorsOnly(event.target.checked)} />
        Errors only
      </label>
      <AdminTable
        query={runs}
        rows={runs.data?.runs}
        rowKey={(run) => run.id}
        empty={isErrorsOnly ? "No query has failed." : "No query has run yet."}
        columns={[
          {
            header: "When",
            cell: (run) => <span title={formatDateTime(run.started_at)}>{formatRelative(run.started_at)}</span>,
          },
          { header: "Who", cell: (run) => run.email ?? "system" },
          { header: "From", cell: (run) => run.origin },
          { header: "SQL", cell: (run) => <code className={styles.sql}>{run.sql}</code> },
          { header: "Rows", cell: (run) => number.format(run.row_count), isNumeric: true },
          { header: "ms", cell: (run) => number.format(run.duration_ms), isNumeric: true },
          { header: "Error", cell: (run) => <span className={styles.errorText}>{run.error ?? ""}</span> },
        ]}
      />
    </section>
  );
}
