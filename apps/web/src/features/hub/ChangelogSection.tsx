/** Changelog (SPEC §2 hub changelog): versions 1.2.0, 1.1.0, 1.0.0 and the known issues. */
import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { Badge } from "../../ui/Badge";
import { CodeBlock } from "../../ui/CodeBlock";
import { formatDate } from "../../ui/format";
import { CHANGELOG, KNOWN_ISSUES } from "./changelog";
import sectionStyles from "./changelog.module.css";
import hubStyles from "./hub.module.css";

/** The hub's shared styles plus this section's own. */
const styles = { ...hubStyles, ...sectionStyles };

export function ChangelogSection() {
  return (
    <div className={styles.stack}>
      <section className={styles.knownIssues} aria-label="Known issues">
        <h2>Known issues</h2>
        {KNOWN_ISSUES.map((issue) => (
          <article key={issue.title} className={styles.issue} data-testid="known-issue">
            <header>
              <AlertTriangle size={16} />
              <h3>{issue.title}</h3>
              <Badge tone="success" hasDot>
                {issue.status === "resolved" ? "Resolved" : issue.status}
              </Badge>
            </header>
            <dl>
              <div>
                <dt>When</dt>
                <dd>{issue.window}</dd>
              </div>
              <div>
                <dt>Affected</dt>
                <dd>{issue.affected}</dd>
              </div>
            </dl>
            <p>{issue.detail}</p>
            <p className={styles.muted}>{issue.workaround}</p>
          </article>
        ))}
      </section>

      <ol className={styles.timeline}>
        {CHANGELOG.map((entry) => (
          <li key={entry.version} className={styles.entry} data-testid="changelog-entry" id={`v${entry.version}`}>
            <div className={styles.entryMeta}>
              <span className={styles.version}>v{entry.version}</span>
              <time dateTime={entry.date}>{formatDate(`${entry.date}T12:00:00Z`)}</time>
            </div>
            <article className={styles.entryBody}>
              <header>
                <h2>{entry.title}</h2>
                <div className={styles.inline}>
                  <Badge tone="info">{entry.category}</Badge>
                  <Badge tone={entry.coverage === "complete" ? "success" : "warning"}>
                    {entry.coverage === "complete" ? "Coverage: complete" : "Coverage: limited"}
                  </Badge>
                </div>
              </header>
              <p>{entry.summary}</p>
              <dl className={styles.entryFacts}>
                <div>
                  <dt>Impact</dt>
                  <dd>{entry.impact}</dd>
                </div>
                <div>
                  <dt>Tables</dt>
                  <dd>
                    {entry.tables.map((table) => (
                      <code key={table} className={styles.tableTag}>
                        {table}
                      </code>
                    ))}
                  </dd>
                </div>
              </dl>
              {entry.migrationGuide ? (
                <div className={styles.migration}>
                  <h3>Migration guide</h3>
                  <p>{entry.migrationGuide.issue}</p>
                  <div className={styles.migrationExamples}>
                    <CodeBlock code={entry.migrationGuide.wrongExample} caption="✗ Wrong" />
                    <CodeBlock code={entry.migrationGuide.rightExample} caption="✓ Right" />
                  </div>
                  <p className={styles.tldr}>
                    <CheckCircle2 size={14} /> <strong>TL;DR</strong> {entry.migrationGuide.tldr}
                  </p>
                </div>
              ) : null}
            </article>
          </li>
        ))}
      </ol>
    </div>
  );
}
