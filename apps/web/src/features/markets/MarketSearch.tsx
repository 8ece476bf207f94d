/**
 * Find a market by the words of its question, its id or its ticker, and open its page: a
 * combobox (WAI-ARIA pattern with a listbox popup). It asks once typing pauses; ↓/↑ move
 * through the results, Enter opens the one marked (the first unless moved), Escape closes
 * the list. Open markets come first, the venues alternating (the API's order); the venue
 * chips narrow to one venue.
 */
import { type MarketSummary, VENUE_FACTS, VENUES, type Venue } from "@epicenter/contracts";
import { Search, X } from "lucide-react";
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Badge } from "../../ui/Badge";
import { formatValue } from "../../ui/format";
import { SourceMark } from "../../ui/SourceMark";
import { Spinner } from "../../ui/Spinner";
import { useMarketSearch } from "./api";
import styles from "./MarketSearch.module.css";
import { marketPath } from "./market-keys";
import { STATUS_LABELS, STATUS_TONES, VENUE_NAMES } from "./market-model";
import { nextActive, SEARCH_DEBOUNCE_MS, SEARCH_LIMIT } from "./market-search-model";

const VENUE_CHOICES: ReadonlyArray<{ id: Venue | "all"; label: string }> = [
  { id: "all", label: "All" },
  ...VENUES.map((venue) => ({ id: venue, label: VENUE_FACTS[venue].label })),
];

/** `value`, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function MarketSearch() {
  const navigate = useNavigate();
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [venue, setVenue] = useState<Venue | "all">("all");
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(0);
  /** Enter was pressed before the answer for the words typed arrived: open its first result then. */
  const [isOpenPending, setIsOpenPending] = useState(false);
  const words = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useMarketSearch(words, venue === "all" ? undefined : venue, SEARCH_LIMIT);
  const markets = words ? (search.data?.markets ?? []) : [];
  const isWaiting = text.trim() !== words || search.isFetching;
  const isSettled = !isWaiting && !search.isPlaceholderData && search.isSuccess;
  const isShown = isOpen && text.trim() !== "";

  const open = useCallback(
    (market: MarketSummary) => {
      setIsOpen(false);
      setIsOpenPending(false);
      void navigate(marketPath(market.venue, market.id));
    },
    [navigate],
  );
  useEffect(() => {
    if (!isOpenPending || !isSettled) return;
    const first = search.data?.markets[0];
    if (first) open(first);
    else setIsOpenPending(false);
  }, [isOpenPending, isSettled, search.data, open]);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        setIsOpen(true);
        setActive((current) => nextActive(event.key as "ArrowDown" | "ArrowUp", current, markets.length));
        return;
      }
      case "Enter": {
        if (!text.trim()) return;
        event.preventDefault();
        const market = markets[active] ?? markets[0];
        if (isSettled && market) open(market);
        else setIsOpenPending(true);
        return;
      }
      case "Escape":
        if (isOpen) {
          event.preventDefault();
          setIsOpen(false);
        } else setText("");
        return;
      default:
        return;
    }
  };
  const optionId = (index: number) => `${listId}-option-${index}`;
  const activeMarket = isShown ? markets[active] : undefined;

  return (
    <div className={styles.search}>
      <div className={styles.field}>
        <Search size={15} className={styles.icon} aria-hidden="true" />
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label="Search markets"
          aria-expanded={isShown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeMarket ? optionId(active) : undefined}
          placeholder="Find a market: question, id or ticker…"
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setIsOpen(true);
            setActive(0);
            setIsOpenPending(false);
          }}
          onFocus={() => setIsOpen(true)}
          onBlur={() => setIsOpen(false)}
          onKeyDown={onKeyDown}
          className={styles.input}
        />
        {isWaiting && text.trim() ? (
          <span className={styles.busy}>
            <Spinner size={13} />
          </span>
        ) : text ? (
          <button
            type="button"
            className={styles.clear}
            // Keep the focus in the box: the list stays open for the next words.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              setText("");
              input.current?.focus();
            }}
            aria-label="Clear market search"
          >
            <X size={14} />
          </button>
        ) : null}
      </div>
      {isShown ? (
        <div className={styles.popup}>
          <fieldset className={styles.venues}>
            <legend className="visually-hidden">Venue</legend>
            {VENUE_CHOICES.map((choice) => (
              <button
                key={choice.id}
                type="button"
                className={choice.id === venue ? `${styles.venue} ${styles.venueSelected}` : styles.venue}
                aria-pressed={choice.id === venue}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  setVenue(choice.id);
                  setActive(0);
                }}
              >
                {choice.label}
              </button>
            ))}
          </fieldset>
          <div id={listId} role="listbox" aria-label="Markets" className={styles.list}>
            {markets.map((market, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox's (↑/↓, Enter); an option never takes focus
              <div
                key={`${market.venue}/${market.id}`}
                id={optionId(index)}
                role="option"
                // Focus stays in the box (aria-activedescendant); a click must not take it.
                tabIndex={-1}
                aria-selected={index === active}
                className={index === active ? `${styles.option} ${styles.optionActive}` : styles.option}
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => open(market)}
                data-testid="market-search-result"
              >
                <SourceMark source={VENUE_NAMES[market.venue]} size={22} />
                <span className={styles.optionText}>
                  <span className={styles.question}>{market.question || market.id}</span>
                  <span className={styles.optionMeta}>
                    {market.subtitle ? <span className={styles.subtitle}>{market.subtitle}</span> : null}
                    {market.question ? <code>{market.id}</code> : null}
                  </span>
                </span>
                <span className={styles.optionSide}>
                  <Badge tone={STATUS_TONES[market.status]}>{STATUS_LABELS[market.status]}</Badge>
                  <span className={styles.volume}>
                    {formatValue(market.volume, VENUE_FACTS[market.venue].volumeUnit, { isCompact: true })}
                    {VENUE_FACTS[market.venue].volumeSuffix}
                  </span>
                </span>
              </div>
            ))}
          </div>
          {search.isError ? (
            <p className={styles.status} role="alert">
              The search failed: {search.error.message}
            </p>
          ) : markets.length === 0 ? (
            <p className={styles.status}>
              {isWaiting || search.isPending ? "Searching…" : `No market matches “${words}”.`}
            </p>
          ) : (
            <p className={styles.hint}>
              <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to open
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
