import { LANDING_SAMPLE_SQL } from "@epicenter/contracts";
import { ArrowRight, BookOpen, Code2, Database } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useDocumentTitle } from "../../lib/document-title";
import { Button } from "../../ui/Button";
import { editorUrl } from "../../ui/editor-link";
import { formatCount, formatDate, formatDuration } from "../../ui/format";
import { usePlatformStats } from "../hub/api";
import styles from "./LandingPage.module.css";
import { AboutModal, PricingModal, UseCasesModal } from "./landing-modals";

type LandingModal = "about" | "use-cases" | "pricing" | null;

/**
 * The figures under the hero, from the same live source as About (`GET /api/stats`), so
 * the two never disagree; a figure not yet known shows a dash rather than a claim.
 */
function LiveHighlights() {
  const stats = usePlatformStats();
  const data = stats.isSuccess ? stats.data : undefined;
  const highlights = [
    {
      id: "markets",
      value: data ? formatCount(data.markets_tracked) : "—",
      label: "markets tracked in this archive",
      raw: data?.markets_tracked,
    },
    {
      id: "freshness",
      value: data ? (data.freshness_seconds === null ? "none yet" : formatDuration(data.freshness_seconds)) : "—",
      label: "since the last snapshot",
      raw: data?.freshness_seconds ?? undefined,
    },
    {
      id: "sources",
      value: data ? String(data.sources) : "—",
      label: "venues, Polymarket and Kalshi",
      raw: data?.sources,
    },
    {
      id: "archive-start",
      value: data?.archive_start ? formatDate(data.archive_start) : "—",
      label: "archive start, kept without limit",
      raw: data?.archive_start ?? undefined,
    },
  ];
  return (
    <section className={styles.highlights} aria-label="Live figures" aria-busy={stats.isPending}>
      {highlights.map((highlight) => (
        <div
          key={highlight.id}
          className={styles.highlight}
          data-testid={`highlight-${highlight.id}`}
          data-value={highlight.raw ?? ""}
        >
          <strong>{highlight.value}</strong>
          <span>{highlight.label}</span>
        </div>
      ))}
    </section>
  );
}

export function LandingPage() {
  useDocumentTitle(undefined);
  const navigate = useNavigate();
  const [modal, setModal] = useState<LandingModal>(null);
  const close = () => setModal(null);

  return (
    <div className={styles.landing}>
      <div className={styles.glow} aria-hidden="true" />
      <section className={styles.hero}>
        <div className={styles.badge}>
          <span className={styles.pulse} aria-hidden="true" />
          Free during alpha · unlimited queries
        </div>
        <h1 className={styles.headline}>The Data Terminal for Prediction Markets</h1>
        <p className={styles.lead}>
          Every Polymarket and Kalshi event and market, archived as a snapshot about every 10 minutes. Query the whole
          history with SQL, browse the catalog, watch the dashboards, or ask Seismo.
        </p>
        <div className={styles.actions}>
          <Button variant="accent" size="lg" icon={<Code2 size={18} />} onClick={() => navigate("/queries")}>
            Start Querying
          </Button>
          <Button variant="secondary" size="lg" icon={<Database size={18} />} onClick={() => navigate("/datasets")}>
            Browse Data
          </Button>
          <Button variant="ghost" size="lg" icon={<BookOpen size={18} />} onClick={() => navigate("/hub/api")}>
            View API
          </Button>
        </div>
        <nav className={styles.links} aria-label="About Epicenter">
          <button type="button" onClick={() => setModal("about")}>
            About
          </button>
          <button type="button" onClick={() => setModal("use-cases")}>
            Use Cases
          </button>
          <button type="button" onClick={() => setModal("pricing")}>
            Pricing
          </button>
        </nav>
      </section>

      <section className={styles.terminal} aria-label="Example query">
        <div className={styles.terminalBar}>
          <span className={styles.dot} />
          <span className={styles.dot} />
          <span className={styles.dot} />
          <span className={styles.terminalTitle}>top-markets.sql</span>
        </div>
        <pre className={styles.code}>
          <code>{LANDING_SAMPLE_SQL}</code>
        </pre>
        <button
          type="button"
          className={styles.terminalCta}
          onClick={() => navigate(editorUrl({ sql: LANDING_SAMPLE_SQL, title: "Most traded open markets" }))}
        >
          Open the editor <ArrowRight size={14} />
        </button>
      </section>

      <LiveHighlights />

      <AboutModal isOpen={modal === "about"} onClose={close} />
      <UseCasesModal isOpen={modal === "use-cases"} onClose={close} />
      <PricingModal isOpen={modal === "pricing"} onClose={close} />
    </div>
  );
}
