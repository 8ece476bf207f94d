/**
 * Support (SPEC §2 hub support): e-mail support, the community link and an FAQ. The
 * address and link come from the server's configuration (SUPPORT_EMAIL, COMMUNITY_URL);
 * when they are not set the page says so instead of inventing one.
 */
import { Mail, MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import { Spinner } from "../../ui/Spinner";
import { useClientConfig } from "./api";
import hubStyles from "./hub.module.css";
import sectionStyles from "./support.module.css";

/** The hub's shared styles plus this section's own. */
const styles = { ...hubStyles, ...sectionStyles };

const FAQ: ReadonlyArray<{ question: string; answer: string }> = [
  {
    question: "How fresh is the data?",
    answer:
      "Both venues are snapshotted about every 10 minutes; new data appears within 5 to 10 minutes. The Status page shows each source's last sync.",
  },
  {
    question: "Why does my count look too high?",
    answer:
      "The snapshot tables hold one row per object per sync. Use the latest-row pattern (row_number over sync_timestamp) or the *_latest tables with FINAL — see Docs.",
  },
  {
    question: "Are Kalshi volumes in dollars?",
    answer:
      "No: Kalshi volume, volume_24h and open_interest count contracts. Prices (…_dollars) are dollars from 0 to 1; multiply contracts by a price for dollars. Polymarket amounts are USDC.",
  },
  {
    question: "How far back does the archive go?",
    answer:
      "Snapshots start on Oct 6 2025 and are kept without limit; closed history was backfilled from 2020 (Polymarket) and 2021 (Kalshi).",
  },
  {
    question: "Is there a rate limit on the API?",
    answer:
      "No rate limit applies to authenticated requests. Queries have a time and memory limit, and results a row limit.",
  },
  {
    question: "What does it cost?",
    answer:
      "Free during the alpha, with unlimited queries. Pricing afterwards is not decided yet; alpha users will get preferential pricing.",
  },
  {
    question: "How do I get access for a colleague?",
    answer:
      "Access is by allow-listed e-mail. Ask them to request access on the sign-in page: they join the waitlist and get a magic link once approved.",
  },
];

export function SupportSection() {
  const config = useClientConfig();
  const support = config.data?.support;
  return (
    <div className={styles.stack}>
      <div className={styles.supportGrid}>
        <article className={styles.supportCard} data-testid="support-email">
          <Mail size={20} />
          <h2>E-mail support</h2>
          <p className={styles.muted}>We answer 24/7. Include the query or the page you were on.</p>
          {config.isPending ? (
            <Spinner />
          ) : support?.email ? (
            <a href={`mailto:${support.email}`} className={styles.link}>
              {support.email}
            </a>
          ) : (
            <p className={styles.notConfigured}>No support address is configured on this server (SUPPORT_EMAIL).</p>
          )}
        </article>
        <article className={styles.supportCard} data-testid="support-community">
          <MessagesSquare size={20} />
          <h2>Community</h2>
          <p className={styles.muted}>Share queries, ask other users and hear about changes first on our Discord.</p>
          {config.isPending ? (
            <Spinner />
          ) : support?.community_url ? (
            <a href={support.community_url} className={styles.link} target="_blank" rel="noreferrer">
              Join the community
            </a>
          ) : (
            <p className={styles.notConfigured}>No community link is configured on this server (COMMUNITY_URL).</p>
          )}
        </article>
      </div>
      <section className={styles.faq} aria-label="FAQ">
        <h2>FAQ</h2>
        {FAQ.map((entry) => (
          <details key={entry.question}>
            <summary>{entry.question}</summary>
            <p>{entry.answer}</p>
          </details>
        ))}
      </section>
      <p className={styles.muted}>
        Something broken right now? Check the{" "}
        <Link to="/hub/status" className={styles.link}>
          Status page
        </Link>{" "}
        first.
      </p>
    </div>
  );
}
