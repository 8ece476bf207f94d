import { BookOpen } from "lucide-react";
import { useParams } from "react-router";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { ApiKeysPanel } from "../keys/ApiKeysPanel";
import { UpcomingPage } from "../placeholder/UpcomingPage";

/** The hub. The API section already manages keys; the other sections are being built. */
export function HubPage() {
  const { section } = useParams();
  if (section === "api") {
    return (
      <Page>
        <PageHeader
          eyebrow="Hub"
          title="API Access"
          description="Call the archive from your own code with an API key. The reference is at /api/openapi.json."
        />
        <ApiKeysPanel />
      </Page>
    );
  }
  return (
    <UpcomingPage
      title="Hub"
      icon={BookOpen}
      description="System status, documentation, the REST API, the changelog and support."
      upcoming={["System & Data status", "Docs", "API Access and your API keys", "Changelog", "Support"]}
    />
  );
}
