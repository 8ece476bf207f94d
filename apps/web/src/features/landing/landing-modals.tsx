import { BarChart3, Code2, LineChart, Megaphone } from "lucide-react";
import { Link } from "react-router";
import { formatCount, formatDate, formatDuration } from "../../ui/format";
import { Modal } from "../../ui/Modal";
import { Spinner } from "../../ui/Spinner";
import { usePlatformStats } from "../hub/api";
import styles from "./landing-modals.module.css";

interface ModalProps {
  isOpen: boolean;
  onClose: () => void;
}

const features = [
  "SQL over every snapshot, in the ClickHouse dialect",
  "A data catalog with schemas, sample values and row counts",
  "Polymarket Pulse and Kalshi Pulse dashboards",
  "Seismo, an AI assistant that writes SQL or analyses the data",
  "A REST API with your own keys",
];

/** The platform's figures, computed live from the warehouse by `GET /api/stats`. */
function LiveStats({ isOpen }: { isOpen: boolean }) {
  const stats = usePlatformStats({ isEnabled: isOpen });
  const value = (text: string) => (stats.isPending ? <Spinner size={14} /> : stats.isError ? "—" : text);
  const data = stats.data;
  return (
    <>
      <dl className={styles.stats} aria-busy={stats.isPending}>
        <div>
          <dt>Markets tracked</dt>
          <dd data-testid="stat-markets" data-value={data?.markets_tracked ?? ""}>
            {value(formatCount(data?.markets_tracked))}
          </dd>
        </div>
        <div>
          <dt>Freshness</dt>
          <dd data-testid="stat-freshness" data-value={data?.freshness_seconds ?? ""}>
            {value(data?.freshness_seconds === null ? "No sync yet" : formatDuration(data?.freshness_seconds))}
          </dd>
        </div>
        <div>
          <dt>Archive start</dt>
          <dd data-testid="stat-archive-start" data-value={data?.archive_start ?? ""}>
            {value(formatDate(data?.archive_start))}
          </dd>
        </div>
        <div>
          <dt>Sources</dt>
          <dd data-testid="stat-sources">{value(String(data?.sources ?? 2))}</dd>
        </div>
      </dl>
      {stats.isError ? (
        <p className={styles.statsNote} role="alert">
          Live figures are unavailable right now: {stats.error.message}
        </p>
      ) : (
        <p className={styles.statsNote}>
          Live from the warehouse: freshness is the time since the last successful snapshot; retention is unlimited.
        </p>
      )}
    </>
  );
}

export function AboutModal({ isOpen, onClose }: ModalProps) {
  return (
    <Modal isOpen={isOpen} onClose={onClose} title="About Epicenter" size="lg">
      <p className={styles.lead}>
        Epicenter archives and indexes the markets of Polymarket and Kalshi, with snapshots about every 10 minutes, and
        serves that archive to traders, researchers, developers and content creators.
      </p>
      <LiveStats isOpen={isOpen} />
      <h3 className={styles.heading}>Key features</h3>
      <ul className={styles.list}>
        {features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <Link to="/hub/changelog" className={styles.link} onClick={onClose}>
        Read the changelog →
      </Link>
    </Modal>
  );
}

const useCases = [
  {
    icon: LineChart,
    title: "Traders",
    text: "Track prices, volume and liquidity across both venues, and spot the same question priced differently.",
  },
  {
    icon: BarChart3,
    title: "Researchers",
    text: "Study how markets move from open to settlement with the full 10-minute history in SQL.",
  },
  {
    icon: Code2,
    title: "Developers",
    text: "Build on a REST API with your own keys instead of paging through two upstream APIs.",
    link: { to: "/hub/api", label: "API docs" },
  },
  {
    icon: Megaphone,
    title: "Content creators",
    text: "Pull the numbers behind a story, chart them, and share the query that made them.",
  },
];

export function UseCasesModal({ isOpen, onClose }: ModalProps) {
  return (
    <Modal isOpen={isOpen} onClose={onClose} title="Use Cases" size="lg">
      <div className={styles.cases}>
        {useCases.map((useCase) => (
          <article key={useCase.title} className={styles.case}>
            <useCase.icon size={20} className={styles.caseIcon} />
            <h3>{useCase.title}</h3>
            <p>{useCase.text}</p>
            {useCase.link ? (
              <Link to={useCase.link.to} className={styles.link} onClick={onClose}>
                {useCase.link.label} →
              </Link>
            ) : null}
          </article>
        ))}
      </div>
    </Modal>
  );
}

export function PricingModal({ isOpen, onClose }: ModalProps) {
  return (
    <Modal isOpen={isOpen} onClose={onClose} title="Pricing" size="md">
      <div className={styles.price}>
        <strong>Free</strong>
        <span>during alpha, with unlimited queries</span>
      </div>
      <p className={styles.lead}>
        Pricing after the alpha is not decided yet: credit subscriptions, pay-per-use and enterprise plans are all on
        the table. Alpha users will get preferential pricing.
      </p>
    </Modal>
  );
}
