import { Navigate, useParams } from "react-router";
import { useDocumentTitle } from "../../lib/document-title";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { Tabs } from "../../ui/Tabs";
import { useSession } from "../auth/session";
import { useHealthCheck } from "../hub/api";
import { SandboxNotice } from "../hub/SandboxNotice";
import { AllowListSection, WaitlistSection } from "./AccessSections";
import { QueryRunsSection, SyncRunsSection, UsersSection } from "./ActivitySections";
import styles from "./admin.module.css";
import { CrossVenueSection } from "./CrossVenueSection";

const sections = [
  { id: "allow-list", label: "Allow-list", Component: AllowListSection },
  { id: "waitlist", label: "Waitlist", Component: WaitlistSection },
  { id: "users", label: "Users", Component: UsersSection },
  { id: "sync-runs", label: "Sync runs", Component: SyncRunsSection },
  { id: "query-runs", label: "Query runs", Component: QueryRunsSection },
  { id: "cross-venue", label: "Cross-venue", Component: CrossVenueSection },
] as const;

export function AdminPage() {
  const { state } = useSession();
  const { section = "allow-list" } = useParams();
  const sandbox = useHealthCheck().data?.health?.sandbox;
  useDocumentTitle(`${sections.find((candidate) => candidate.id === section)?.label ?? "Admin"} — Admin`);
  if (state.status !== "signed-in" || !state.user.is_admin) return <Navigate to="/" replace />;
  const current = sections.find((candidate) => candidate.id === section);
  if (!current) return <Navigate to="/admin" replace />;
  return (
    <Page width="wide">
      <PageHeader
        eyebrow="Admin"
        title="Run Epicenter"
        description="Who gets in, who is waiting, how the data and queries are doing, and which markets pair across the venues."
      />
      {sandbox ? <SandboxNotice sandbox={sandbox} isQuietWhenConfined /> : null}
      <Tabs
        label="Admin sections"
        className={styles.tabs}
        selected={current.id}
        tabs={sections.map((candidate) => ({
          id: candidate.id,
          label: candidate.label,
          to: `/admin/${candidate.id}`,
        }))}
      />
      <current.Component />
    </Page>
  );
}
