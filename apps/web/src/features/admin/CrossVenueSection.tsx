/**
 * Admin → Cross-venue: the pairs the matcher proposes between Polymarket and Kalshi
 * markets, to confirm or reject, the pairs already decided, the log of decisions, and a
 * form that pairs two markets by id.
 */
import type { CrossVenuePair, CrossVenuePairs } from "@epicenter/contracts";
import { Check, ChevronLeft, ChevronRight, X } from "lucide-react";
import { useEffect, useState } from "react";
import { formatDateTime, formatRelative } from "../../lib/time";
import { Button } from "../../ui/Button";
import { inputClassName } from "../../ui/Field";
import { SearchInput } from "../../ui/SearchInput";
import { Spinner } from "../../ui/Spinner";
import { TabPanel, Tabs } from "../../ui/Tabs";
import { AdminTable } from "./AdminTable";
import styles from "./admin.module.css";
import { useCrossVenuePairs, useDecidePair } from "./api";
import venue from "./cross-venue.module.css";
import { MatcherStatus } from "./MatcherStatus";
import { MarketCell, Reasons, RelationCell } from "./PairCells";
import { PairForm } from "./PairForm";
import { PairReviewLog } from "./PairReviewLog";

type View = "auto" | "model" | "confirmed" | "rejected" | "log";
type RelationFilter = "all" | "same_contract" | "related";

const PAGE_SIZE = 50;
const ID_PREFIX = "cross-venue";

const EMPTY: Record<Exclude<View, "log">, string> = {
  auto: "No candidates to review.",
  model:
    "No pairs settled by the adjudicator. It reads the pairs the rules cannot settle where Seismo's endpoint is configured.",
  confirmed: "No confirmed pairs.",
  rejected: "No rejected pairs.",
};

export function CrossVenueSection() {
  const [view, setView] = useState<View>("auto");
  // The log keeps the last list's query, so the tabs' counts stay as they were.
  const [method, setMethod] = useState<Exclude<View, "log">>("auto");
  const [relation, setRelation] = useState<RelationFilter>("all");
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [offset, setOffset] = useState(0);
  const pairs = useCrossVenuePairs({ method, relation, q, limit: PAGE_SIZE, offset });
  const onSelect = (next: View) => {
    setView(next);
    if (next !== "log") setMethod(next);
  };
  const counts = pairs.data?.counts;

  // A new filter starts at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are what resets the page
  useEffect(() => setOffset(0), [method, relation, q]);
  // A decision can empty the last page: step back to one that has rows.
  const total = pairs.data?.total;
  useEffect(() => {
    if (total !== undefined && offset > 0 && offset >= total) setOffset(Math.max(0, offset - PAGE_SIZE));
  }, [total, offset]);

  const tab = (id: Exclude<View, "log">, label: string) => ({
    id,
    label: (
      <>
        {label} <span className={venue.count}>{counts ? counts[id] : "…"}</span>
      </>
    ),
  });

  return (
    <section className={styles.section}>
      <MatcherStatus />
      <PairForm />
      <Tabs<View>
        label="Pairs"
        idPrefix={ID_PREFIX}
        variant="compact"
        className={venue.views}
        selected={view}
        onSelect={onSelect}
        tabs={[
          tab("auto", "Candidates"),
          tab("model", "By the model"),
          tab("confirmed", "Confirmed"),
          tab("rejected", "Rejected"),
          { id: "log", label: "Change log" },
        ]}
      />
      <TabPanel idPrefix={ID_PREFIX} tab={view} className={styles.section}>
        {view === "log" ? (
          <PairReviewLog />
        ) : (
          <>
            <div className={venue.filters}>
              <div className={venue.search}>
                <SearchInput
                  value={search}
                  onChange={setSearch}
                  label="Search pairs"
                  placeholder="Words of either market, an id or a ticker"
                />
              </div>
              <select
                className={`${inputClassName} ${venue.select}`}
                aria-label="Relation"
                value={relation}
                onChange={(event) => setRelation(event.target.value as RelationFilter)}
              >
                <option value="all">All relations</option>
                <option value="same_contract">Same contract</option>
                <option value="related">Related</option>
              </select>
              {pairs.isFetching && !pairs.isPending ? <Spinner label="Updating" /> : null}
            </div>
            <PairTable
              view={method}
              query={pairs}
              empty={q || relation !== "all" ? "No pairs match these filters." : EMPTY[method]}
            />
            {pairs.data ? <Pager data={pairs.data} offset={offset} onOffset={setOffset} /> : null}
          </>
        )}
      </TabPanel>
    </section>
  );
}

function PairTable({
  view,
  query,
  empty,
}: {
  view: Exclude<View, "log">;
  query: ReturnType<typeof useCrossVenuePairs>;
  empty: string;
}) {
  const decide = useDecidePair();
  const isDecided = view !== "auto";
  // While the last list's rows stand in for another tab's, that tab is loading.
  const pairs = query.data?.pairs ?? [];
  const isStandIn = query.isPlaceholderData && (pairs.length === 0 || pairs.some((pair) => pair.method !== view));
  const actionsOf = (pair: CrossVenuePair) => {
    const key = { polymarketId: pair.polymarket_id, kalshiTicker: pair.kalshi_ticker };
    const isThisPair = (action: "confirm" | "reject") =>
      decide.variables?.polymarketId === key.polymarketId &&
      decide.variables.kalshiTicker === key.kalshiTicker &&
      decide.variables.action === action;
    return (
      <div className={venue.actions}>
        <span className={venue.buttons}>
          {pair.method !== "confirmed" ? (
            <Button
              variant="secondary"
              size="xs"
              icon={<Check size={13} />}
              isLoading={decide.isPending && isThisPair("confirm")}
              disabled={decide.isPending}
              onClick={() => decide.mutate({ ...key, action: "confirm" })}
            >
              Confirm
            </Button>
          ) : null}
          {pair.method !== "rejected" ? (
            <Button
              variant="ghost"
              size="xs"
              icon={<X size={13} />}
              isLoading={decide.isPending && isThisPair("reject")}
              disabled={decide.isPending}
              onClick={() => decide.mutate({ ...key, action: "reject" })}
            >
              Reject
            </Button>
          ) : null}
        </span>
        {decide.isError && (isThisPair("confirm") || isThisPair("reject")) ? (
          <span className={styles.errorText} role="alert">
            {decide.error.message}
          </span>
        ) : null}
      </div>
    );
  };
  return (
    <AdminTable
      query={{ isPending: query.isPending || isStandIn, isError: query.isError, error: query.error }}
      rows={query.data?.pairs}
      rowKey={(pair) => `${pair.polymarket_id} ${pair.kalshi_ticker}`}
      empty={empty}
      className={venue.cards}
      columns={[
        { header: "Polymarket", cell: (pair) => <MarketCell pair={pair} venue="polymarket" /> },
        { header: "Kalshi", cell: (pair) => <MarketCell pair={pair} venue="kalshi" /> },
        {
          header: "Relation",
          cell: (pair) => <RelationCell relation={pair.relation} orientation={pair.orientation} />,
        },
        { header: "Score", cell: (pair) => pair.score.toFixed(2), isNumeric: true },
        { header: "Reasons", cell: (pair) => <Reasons reasons={pair.reasons} /> },
        isDecided
          ? {
              header: "Reviewed",
              cell: (pair) => (
                <span className={venue.stack}>
                  <span>{pair.reviewer_email ?? pair.reviewed_by ?? "—"}</span>
                  <span className={venue.muted} title={formatDateTime(pair.updated_at)}>
                    {formatRelative(pair.updated_at)}
                  </span>
                </span>
              ),
            }
          : {
              header: "Proposed",
              cell: (pair) => (
                <span className={venue.muted} title={formatDateTime(pair.matched_at)}>
                  {formatRelative(pair.matched_at)}
                </span>
              ),
            },
        { header: "", cell: actionsOf },
      ]}
    />
  );
}

function Pager({
  data,
  offset,
  onOffset,
}: {
  data: CrossVenuePairs;
  offset: number;
  onOffset: (offset: number) => void;
}) {
  if (data.total <= PAGE_SIZE && offset === 0) return null;
  const last = Math.min(offset + data.pairs.length, data.total);
  return (
    <div className={venue.pager}>
      <span className={venue.muted}>
        {data.pairs.length === 0 ? "None" : `${offset + 1}–${last}`} of {data.total}
      </span>
      <span className={styles.rowActions}>
        <Button
          size="xs"
          variant="secondary"
          icon={<ChevronLeft size={13} />}
          disabled={offset === 0}
          onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          Previous
        </Button>
        <Button
          size="xs"
          variant="secondary"
          icon={<ChevronRight size={13} />}
          disabled={offset + PAGE_SIZE >= data.total}
          onClick={() => onOffset(offset + PAGE_SIZE)}
        >
          Next
        </Button>
      </span>
    </div>
  );
}

/** The value once it has stopped changing for `ms`: a search asks once the typing pauses. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
