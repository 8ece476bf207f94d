/**
 * The hub (SPEC §2 /hub and /hub/{section}): five cards — System & Data status, docs,
 * API Access, changelog, support — and one page per section with tabs between them.
 */
import { Activity, BookOpen, KeyRound, LifeBuoy, type LucideIcon, ScrollText } from "lucide-react";
import { type ComponentType, useMemo } from "react";
import { Link, Navigate, useParams } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { useDocumentTitle } from "../../lib/document-title";
import { Badge } from "../../ui/Badge";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { Tabs } from "../../ui/Tabs";
import { ApiSection } from "./ApiSection";
import { ChangelogSection } from "./ChangelogSection";
import { DocsSection } from "./DocsSection";
import styles from "./hub.module.css";
import { StatusSection } from "./StatusSection";
import { SupportSection } from "./SupportSection";

/** The version the hub card shows (SPEC §2). */
export const HUB_VERSION = "v1.1.0";

interface HubSection {
  id: string;
  title: string;
  tab: string;
  description: string;
  icon: LucideIcon;
  Component: ComponentType;
}

const SECTIONS: readonly HubSection[] = [
  {
    id: "status",
    title: "System & Data",
    tab: "Status",
    description: "API health, sync status of each source, record counts and backfill progress.",
    icon: Activity,
    Component: StatusSection,
  },
  {
    id: "docs",
    title: "Docs",
    tab: "Docs",
    description: "Quick start, the latest-row pattern, tables and keys, and tips for both venues.",
    icon: BookOpen,
    Component: DocsSection,
  },
  {
    id: "api",
    title: "API Access",
    tab: "API",
    description:
      "The REST endpoints with curl examples, connecting ClickHouse clients, BI tools and AI agents (MCP), and your API keys.",
    icon: KeyRound,
    Component: ApiSection,
  },
  {
    id: "changelog",
    title: "Changelog",
    tab: "Changelog",
    description: "What changed in the data and the platform, with migration guides and known issues.",
    icon: ScrollText,
    Component: ChangelogSection,
  },
  {
    id: "support",
    title: "Support",
    tab: "Support",
    description: "E-mail support, the community and answers to common questions.",
    icon: LifeBuoy,
    Component: SupportSection,
  },
];

function SectionTabs({ current, isCompact = false }: { current: string; isCompact?: boolean }) {
  return (
    <Tabs
      label="Hub sections"
      variant={isCompact ? "compact" : "line"}
      selected={current}
      tabs={SECTIONS.map((section) => ({
        id: section.id,
        label: section.tab,
        ...(isCompact ? { icon: <section.icon size={14} /> } : {}),
        to: `/hub/${section.id}`,
      }))}
    />
  );
}

export function HubPage() {
  const { section } = useParams();
  const current = SECTIONS.find((candidate) => candidate.id === section);
  useDocumentTitle(current ? `${current.title} — Hub` : "Hub");
  const controls = useMemo(() => (current ? <SectionTabs current={current.id} isCompact /> : null), [current]);
  usePageControls(controls);

  if (section && !current) return <Navigate to="/hub" replace />;
  if (!current) {
    return (
      <Page>
        <PageHeader
          eyebrow="Hub"
          title="Hub"
          description="Everything around the data: how it is doing, how to use it, what changed, and where to get help."
          actions={<Badge tone="accent">{HUB_VERSION}</Badge>}
        />
        <div className={styles.cards}>
          {SECTIONS.map((candidate) => (
            <Link key={candidate.id} to={`/hub/${candidate.id}`} className={styles.card} data-testid="hub-card">
              <div className={styles.cardIcon}>
                <candidate.icon size={20} />
              </div>
              <h2>{candidate.title}</h2>
              <p>{candidate.description}</p>
            </Link>
          ))}
        </div>
      </Page>
    );
  }
  return (
    <Page width={current.id === "status" ? "wide" : "default"}>
      <PageHeader
        eyebrow={
          <span className={styles.eyebrow}>
            <Link to="/hub">Hub</Link> <Badge tone="accent">{HUB_VERSION}</Badge>
          </span>
        }
        title={current.title}
        description={current.description}
      />
      <div className={styles.wideTabs}>
        <SectionTabs current={current.id} />
      </div>
      <current.Component />
    </Page>
  );
}
