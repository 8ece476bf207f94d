/**
 * Human descriptions of the market tables, for people who know the venues. Columns not
 * listed here have none yet; the catalog shows their name and type.
 */
const TABLES: Record<string, string> = {
  "polymarket.events":
    "Every Polymarket event (a question group such as an election) once per sync run, with volume, liquidity and status at that moment. Key: id.",
  "polymarket.markets":
    "Every Polymarket market (one tradable yes/no question) once per sync run: prices, order book, volume and status. Key: id.",
  "polymarket.events_latest": "The newest snapshot of each Polymarket event. Read with FINAL. Key: id.",
  "polymarket.markets_latest": "The newest snapshot of each Polymarket market. Read with FINAL. Key: id.",
  "kalshi.events":
    "Every Kalshi event (a group of related markets, e.g. one date's temperature brackets) once per sync run. Key: event_ticker.",
  "kalshi.markets":
    "Every Kalshi market once per sync run: prices in dollars, volume and open interest in contracts, status and result. Key: ticker.",
  "kalshi.events_latest": "The newest snapshot of each Kalshi event. Read with FINAL. Key: event_ticker.",
  "kalshi.markets_latest": "The newest snapshot of each Kalshi market. Read with FINAL. Key: ticker.",
};

const COMMON: Record<string, string> = {
  sync_timestamp: "When the sync run that took this snapshot started (UTC). One value per run.",
  raw: "The whole upstream object as JSON, so no field is ever lost. Use JSONExtract* to read fields without a column.",
};

const COLUMNS: Record<string, Record<string, string>> = {
  "polymarket.markets": {
    id: "Polymarket's market id (numeric string).",
    event_id: "The id of the event this market belongs to (polymarket.events.id).",
    question: "The market's question, e.g. 'Will X win the 2028 election?'.",
    outcomes: "Outcome labels, usually ['Yes', 'No'].",
    outcomePrices:
      "Price of each outcome in USDC (0–1), in the order of outcomes; a price is the market's probability.",
    yes_probability:
      "Derived: the price of the 'Yes' outcome (else the first outcome), or the bid/ask midpoint, or the last trade; NULL when there is no price.",
    lastTradePrice: "Price of the last trade, USDC 0–1.",
    bestBid: "Best bid for Yes, USDC 0–1.",
    bestAsk: "Best ask for Yes, USDC 0–1.",
    volume: "Cumulative traded volume in USDC since the market opened.",
    volume24hr: "Volume traded in the last 24 hours, USDC. NULL when the API omitted it (zero).",
    liquidity: "Order-book liquidity in USDC.",
    closed: "True once the market stopped trading. Use this, not active (true for nearly every market).",
    acceptingOrders: "Whether the order book takes orders now.",
    endDate: "When the market is scheduled to end (UTC).",
    lastTradeTime:
      "Derived: the first snapshot at which cumulative volume rose (accurate to one sync interval); NULL until a rise is seen.",
  },
  "kalshi.markets": {
    ticker: "Kalshi's market ticker, e.g. KXHIGHNY-25NOV21-B54.5.",
    event_ticker: "The event this market belongs to (kalshi.events.event_ticker).",
    status: "Lifecycle: initialized, active, inactive (paused), closed, determined, disputed, amended, finalized.",
    yes_sub_title: "The outcome label of Yes, e.g. '54° to 55°'.",
    yes_bid_dollars: "Best Yes bid in dollars (0–1); from *_dollars, or legacy cents / 100.",
    yes_ask_dollars: "Best Yes ask in dollars (0–1).",
    last_price_dollars: "Last traded Yes price in dollars (0–1).",
    volume: "Contracts traded since the market opened.",
    volume_24h: "Contracts traded in the last 24 hours.",
    open_interest: "Contracts outstanding.",
    liquidity: "Liquidity in cents as Kalshi reported it (can be negative); no longer published since 2026-03.",
    liquidity_dollars: "Liquidity in dollars; deprecated upstream and always 0 since 2026.",
    result: "Settlement result: yes, no, scalar, or empty while open.",
    close_time: "When trading closes (UTC).",
  },
  "kalshi.events": {
    event_ticker: "Kalshi's event ticker.",
    series_ticker: "The series the event belongs to.",
    total_open_interest: "Derived: open interest summed over the event's markets, in contracts.",
  },
  "polymarket.events": {
    id: "Polymarket's event id (numeric string).",
    title: "The event's title.",
    volume24hr: "Volume traded over the event's markets in the last 24 hours, USDC.",
  },
};

export function describeTable(namespace: string, name: string): string | null {
  return TABLES[`${namespace}.${name}`] ?? null;
}

export function describeColumn(namespace: string, table: string, column: string): string | null {
  const base = table.replace(/_latest$/, "");
  return COLUMNS[`${namespace}.${base}`]?.[column] ?? COMMON[column] ?? null;
}
