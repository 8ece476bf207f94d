/**
 * Support (SPEC §2 hub support): e-mail support, the community link and an FAQ. The
 * address and link come from the server's configuration (SUPPORT_EMAIL, COMMUNITY_URL).
 * A card whose contact is not configured is left out for users, never invented; an
 * admin sees instead which setting would fill it.
 */
import { Mail, MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import { Spinner } from "../../ui/Spinner";
import { useCurrentUser } from "../auth/session";
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
  const isAdmin = useCurrentUser().is_admin;
  const support = config.data?.support;
  const hasEmail = Boolean(support?.email);
  const hasCommunity = Boolean(support?.community_url);
  const showEmail = config.isPending || hasEmail || isAdmin;
  const showCommunity = config.isPending || hasCommunity || isAdmin;
  return (
    <div className={styles.stack}>
      {showEmail || showCommunity ? (
        <div className={styles.supportGrid}>
          {showEmail ? (
            <article className={styles.supportCard} data-testid="support-email">
              <Mail size={20} />
              <h2>E-mail support</h2>
              {config.isPending ? (
                <Spinner />
              ) : support?.email ? (
                <>
                  <p className={styles.muted}>We answer 24/7. Include the query or the page you were on.</p>
                  <a href={`mailto:${support.email}`} className={styles.link}>
                    {support.email}
                  </a>
                </>
              ) : (
                <p className={styles.notConfigured}>
                  Only you see this: set SUPPORT_EMAIL on the server to show users a support address here.
                </p>
              )}
            </article>
          ) : null}
          {showCommunity ? (
            <article className={styles.supportCard} data-testid="support-community">
              <MessagesSquare size={20} />
              <h2>Community</h2>
              {config.isPending ? (
                <Spinner />
              ) : support?.community_url ? (
                <>
                  <p className={styles.muted}>
                    Share queries, ask other users and hear about changes first on our Discord.
                  </p>
                  <a href={support.community_url} className={styles.link} target="_blank" rel="noreferrer">
                    Join the community
                  </a>
                </>
              ) : (
                <p className={styles.notConfigured}>
                  Only you see this: set COMMUNITY_URL on the server to show users a community link here.
                </p>
              )}
            </article>
          ) : null}
        </div>
      ) : null}
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
