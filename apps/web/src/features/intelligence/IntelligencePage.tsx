import { Brain } from "lucide-react";
import { UpcomingPage } from "../placeholder/UpcomingPage";

export function IntelligencePage() {
  return (
    <UpcomingPage
      title="Intelligence"
      icon={Brain}
      description="Seismo, the AI assistant that writes SQL for the archive or analyses it for you, streamed live."
      upcoming={[
        "Ask in plain words; Seismo answers with ClickHouse SQL that has been run and checked",
        "Analyst mode: findings, numbers and a short report with charts",
        "Every SQL block runnable inline or opened in the editor",
      ]}
    />
  );
}
