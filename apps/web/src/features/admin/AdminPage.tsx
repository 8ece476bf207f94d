import { Navigate, NavLink, useParams } from "react-router";
import { useDocumentTitle } from "../../lib/document-title";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { useSession } from "../auth/session";
import { AllowListSection, WaitlistSection } from "./AccessSections";
import { QueryRunsSection, SyncRunsSection, UsersSection } from "./ActivitySections";
import styles from "./admin.module.css";

const sections = [
  { id: "allow-list", label: "Allow-list", Component: AllowListSection },
  { id: "waitlist", label: "Waitlist", Component: WaitlistSection },
  { id: "users", label: "Users", Component: UsersSection },
  { id: "sync-runs", label: "Sync runs", Component: SyncRunsSection },
  { id: "query-runs", label: "Query runs", Component: QueryRunsSection },
] as const;

export function AdminPage() {
  const { state } = useSession();
  const { section = "allow-list" } = useParams();
  useDocumentTitle(`${sections.find((candidate) => candidate.id === section)?.label ?? "Admin"} — Admin`);
  if (state.status !== "signed-in" || !state.user.is_admin) return <Navigate to="/" replace />;
  const current = sections.find((candidate) => candidate.id === section);
  if (!current) return <Navigate to="/admin" replace />;
  return (
    <Page width="wide">
      <PageHeader
        eyebrow="Admin"
        title="Run Epicenter"
        description="Who gets in, who is waiting, and how the data and queries are doing."
      />
      <nav className={styles.tabs} aria-label="Admin sections">
        {sections.map((candidate) => (
          <NavLink
            key={candidate.id}
            to={`/admin/${candidate.id}`}
            className={candidate.id === current.id ? `${styles.tab} ${styles.activeTab}` : styles.tab}
          >
            {candidate.label}
          </NavLink>
        ))}
      </nav>
      <current.Component />
    </Page>
  );
}
