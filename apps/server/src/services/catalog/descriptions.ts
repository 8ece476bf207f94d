/**
 * Human descriptions of the market tables and every one of their columns, written
 * for people who know the venues: what a price means, which unit a number is in (USDC on
 * Polymarket; dollars, cents or contracts on Kalshi), which status values occur, which
 * upstream fields arrive JSON-encoded, and which columns we derive. The `*_latest` twins
 * share their snapshot table's columns. A unit test checks that no column of the
 * warehouse schema is left without a description.
 *
 * Shares that change with the data (for example how many Kalshi markets never traded) are
 * not written here: the docs compute them from the warehouse.
 */
import { BOOK_COLUMN_DESCRIPTIONS, BOOK_TABLE_DESCRIPTIONS } from "./descriptions-books";
import { LIVE_COLUMN_DESCRIPTIONS, LIVE_TABLE_DESCRIPTIONS } from "./descriptions-live";
import { RESOLUTION_COLUMN_DESCRIPTIONS, RESOLUTION_TABLE_DESCRIPTIONS } from "./descriptions-resolutions";

const TABLES: Record<string, string> = {
  ...BOOK_TABLE_DESCRIPTIONS,
  ...LIVE_TABLE_DESCRIPTIONS,
  ...RESOLUTION_TABLE_DESCRIPTIONS,
  "polymarket.events":
    "Every Polymarket event (a question group such as an election, holding one or more yes/no markets) once per sync run, with its volume, liquidity and status at that moment. Append-only snapshots every ~10 minutes; key: id. For the current state use polymarket.events_latest FINAL or the row-number pattern.",
  "polymarket.markets":
    "Every Polymarket market (one tradable question, usually Yes/No) once per sync run: outcome prices (USDC 0–1, i.e. probabilities), order book, volume, liquidity and status. Append-only snapshots every ~10 minutes; key: id.",
  "polymarket.events_latest":
    "The newest snapshot of each Polymarket event: one row per id after FINAL (ReplacingMergeTree on sync_timestamp). Every column of polymarket.events except raw (the upstream JSON is kept in the snapshots only).",
  "polymarket.markets_latest":
    "The newest snapshot of each Polymarket market: one row per id after FINAL (ReplacingMergeTree on sync_timestamp). Every column of polymarket.markets except raw (the upstream JSON is kept in the snapshots only); the fast way to ask about the current state.",
  "kalshi.events":
    "Every Kalshi event (a group of related markets, e.g. one day's temperature brackets or one election) once per sync run. Append-only snapshots every ~10 minutes; key: event_ticker. Combo events (KXMVE…) are excluded.",
  "kalshi.markets":
    "Every Kalshi market (one yes/no contract) once per sync run: prices in dollars (0–1, i.e. probabilities), volume and open interest in contracts, status and result. Append-only snapshots every ~10 minutes; key: ticker. Combo markets (KXMVE…) are excluded.",
  "kalshi.events_latest":
    "The newest snapshot of each Kalshi event: one row per event_ticker after FINAL (ReplacingMergeTree on sync_timestamp). Every column of kalshi.events except raw (the upstream JSON is kept in the snapshots only).",
  "kalshi.markets_latest":
    "The newest snapshot of each Kalshi market: one row per ticker after FINAL (ReplacingMergeTree on sync_timestamp). Every column of kalshi.markets except raw (the upstream JSON is kept in the snapshots only); the fast way to ask about the current state.",
  "polymarket.prices":
    "Polymarket's price history of every outcome of every market, from the venue's own record (CLOB prices-history), back to the market's first day: one row per (id, token_id, ts). Hourly points over a market's whole life, 1-minute points for recent days. A point fetched twice is stored once, so counts need no FINAL. A gap is a time nobody traded or quoted, not missing data: carry the last price forward.",
  "polymarket.daily_closes":
    "Each outcome's last price point of each UTC day, rolled up from polymarket.prices as the points arrive: one row per (id, outcome, day) once merged. The fast way to ask about many markets' prices a day at a time (the calibration reads it). Before a merge a day can have several rows: take argMax(close, last_ts) per (id, outcome, day), or use FINAL.",
  "polymarket.coverage":
    "The coverage ledger: where each Polymarket market's history stands, one row per market the history worker has reached (FINAL keeps the newest). state is complete (a closed market's whole life is in), current (an open market up to date at updated_at, refreshed every refresh_minutes by its activity) or upstream error (the venue refused its requests: error, and retry_at). A market in polymarket.markets_latest with no row here is not reached yet; venue_has_none means the venue had no point of it.",
  "kalshi.coverage":
    "The coverage ledger: where each Kalshi market's history stands, one row per market the history worker has reached (FINAL keeps the newest). state is complete, current (refreshed every refresh_minutes by its activity) or upstream error (error, retry_at). A market in kalshi.markets_latest with no row here is not reached yet. Trades after the exchange-wide tape started are stored from the tape, whatever the row says.",
  "polymarket.coverage_days":
    "The coverage ledger per UTC day and Polymarket market: snapshots of it stored (snapshots) beside the venue's snapshots that day (venue_snapshots, about 144: a market open all day is in every one; fewer means it opened or closed that day, or a run missed it), and the history stored for the day: price points at each fidelity, trades, the first and last point. Filter by id (or day): the whole archive's days are a long read.",
  "kalshi.coverage_days":
    "The coverage ledger per UTC day and Kalshi market: snapshots of it stored (snapshots) beside the venue's snapshots that day (venue_snapshots, about 144), and the history stored for the day: candles at each period, trades, and the contracts those trades add up to (contracts_traded) beside the venue's own count from its hourly candles (venue_contracts): where they differ, trades of that day are missing. Filter by ticker (or day): the whole archive's days are a long read.",
  "polymarket.trades":
    "Every Polymarket trade (fill) of every market, from the venue's live WebSocket feed as it happens and its Data API: one row per (transaction_hash, trade_index), whichever path brought it first (source). Price in USDC per share (0–1), size in shares. Stored once however often fetched.",
  "kalshi.candles":
    "Kalshi's candles of every market, from the venue's live and historical APIs, back to the market's first day: one row per (ticker, period_minutes, end_period_ts) for periods of 1, 60 and 1440 minutes. Prices in dollars (0–1), volume and open interest in contracts, whatever shape the API used. Candles are sparse: a period exists only if something happened. A period with no trade has NULL trade prices (price_open … price_mean), not 0; forward-fill with price_previous or last_value(price_close) over the ticker's periods.",
  "crossvenue.market_pairs":
    "The same question on Polymarket and Kalshi: one row per matched pair (polymarket_id, kalshi_ticker) after FINAL, from the matcher that runs after each snapshot or from an admin's review. relation says whether the two are the same contract (identical criteria, source and window) or only related (another threshold, date or source); compare for arbitrage only same_contract pairs someone read both rules for (method confirmed or model); the matcher's own (auto) were the same contract 81 % and 95.1 % of the time on two held-out sets of labelled pairs. orientation says whether Polymarket's first outcome is Kalshi's yes (same) or no (inverse).",
  "crossvenue.event_pairs":
    "Polymarket events and Kalshi events that hold matched markets: one row per pair of events after FINAL, with how many of their markets are paired.",
  "kalshi.trades":
    "Every Kalshi trade of every market, from the venue's live WebSocket feed as it happens and its live and historical REST APIs: one row per trade_id, whichever path brought it first (source). Prices in dollars (0–1), count in contracts, taker side as Kalshi reports it. Stored once however often fetched.",
};

const COMMON: Record<string, string> = {
  sync_timestamp:
    "When the sync run that took this snapshot started (UTC, millisecond precision). One value per run, shared by every row of that run; the snapshot tables are ordered by it.",
  raw: "The whole upstream object as a JSON string, exactly as the API sent it, so no field is ever lost. Read fields without a column with JSONExtractString(raw, 'field') and friends.",
};

const POLYMARKET_EVENT: Record<string, string> = {
  id: "Polymarket's event id (a numeric string). Primary key.",
  ticker: "The event's ticker on Polymarket (often the same as slug).",
  slug: "URL slug: the event lives at polymarket.com/event/<slug>.",
  title: "The event's title, e.g. 'Presidential Election Winner 2028'.",
  description: "The event's description and resolution rules as Polymarket words them.",
  resolutionSource: "Where the outcome is read from (a URL or a named source); often empty.",
  category: "Polymarket's category label when it sets one (many events have none; tags are richer).",
  seriesSlug: "Slug of the recurring series the event belongs to (e.g. a weekly or daily series); empty otherwise.",
  startDate: "When the event's markets opened for trading (UTC).",
  creationDate: "When Polymarket created the event (UTC).",
  endDate: "When the event is scheduled to end or resolve (UTC).",
  createdAt: "When the event record was created in Polymarket's system (UTC).",
  updatedAt: "When Polymarket last changed the event record (UTC).",
  closedTime: "When the event closed (UTC); NULL while open.",
  active: "Polymarket's active flag. True for nearly every event, open or not: use closed to tell open from closed.",
  closed: "True once the event stopped trading. NULL when the API omitted it (it omits false values).",
  archived: "True when Polymarket archived the event (hidden from its site).",
  new: "Polymarket's 'new' badge.",
  featured: "Featured on Polymarket's front page.",
  restricted: "Restricted in some jurisdictions.",
  enableOrderBook: "Whether the markets trade on the central limit order book (CLOB).",
  negRisk:
    "Negative-risk event: its markets are mutually exclusive outcomes of one question (exactly one resolves Yes), so a No share in one converts to Yes shares in all others.",
  enableNegRisk: "Whether negative-risk conversion is enabled for the event.",
  negRiskAugmented: "A negative-risk event that can gain new outcomes ('Other' placeholders) after launch.",
  negRiskMarketID: "The negative-risk market id shared by the event's markets; empty for ordinary events.",
  liquidity: "Liquidity over the event's markets, USDC.",
  liquidityClob: "Liquidity on the order book (CLOB) over the event's markets, USDC.",
  volume:
    "Cumulative volume traded over the event's markets since they opened, USDC. NULL from Oct 6 2025 16:22 UTC to Oct 10 2025 02:20 UTC (known issue, resolved).",
  volume24hr: "Volume traded over the event's markets in the last 24 hours, USDC. NULL when the API omitted it (zero).",
  volume1wk: "Volume traded in the last 7 days, USDC.",
  volume1mo: "Volume traded in the last 30 days, USDC.",
  volume1yr: "Volume traded in the last 365 days, USDC.",
  openInterest: "Open interest over the event's markets (value of outstanding shares), USDC.",
  competitive: "Polymarket's competitiveness score (0–1): how close to 50/50 the markets trade.",
  commentCount: "Comments on the event's page.",
  tags: "Tag labels (e.g. Politics, Crypto, Sports), from the upstream tags objects. Filter with has(tags, 'Politics').",
  tag_ids: "Ids of the tags, in the same order as tags.",
  series_ids: "Ids of the series the event belongs to.",
  market_count: "Derived: number of markets the event held in this snapshot.",
};

const POLYMARKET_MARKET: Record<string, string> = {
  id: "Polymarket's market id (a numeric string). Primary key.",
  event_id: "The event this market belongs to (polymarket.events.id).",
  question: "The market's question, e.g. 'Will X win the 2028 election?'.",
  conditionId: "The market's condition id on the Conditional Token Framework (hex, 0x…): its on-chain identity.",
  questionID: "The UMA question id the market resolves through (hex).",
  slug: "URL slug of the market.",
  groupItemTitle: "The market's label inside its event, e.g. a candidate's name or a price bracket.",
  groupItemThreshold: "Sort position of the market inside its event.",
  outcomes:
    "Outcome labels, usually ['Yes', 'No'] (sometimes ['Up', 'Down'] or two team names). JSON-encoded string upstream; decoded into an array here.",
  outcomePrices:
    "Price of each outcome, USDC 0–1, in the order of outcomes: a price is the market's probability of that outcome. JSON-encoded string upstream; decoded here. Resolved markets show 1 and 0.",
  clobTokenIds:
    "Order-book token ids of the outcomes, in the order of outcomes (for the CLOB API). JSON-encoded upstream; decoded here.",
  yes_probability:
    "Derived: the price of the 'Yes' outcome (else the first outcome), or the bid/ask midpoint when the book is real, or a positive last trade; NULL when there is no price. 0–1.",
  lastTradePrice: "Price of the last trade, USDC 0–1.",
  bestBid: "Best bid for the first outcome (Yes), USDC 0–1.",
  bestAsk: "Best ask for the first outcome (Yes), USDC 0–1.",
  spread: "bestAsk − bestBid, USDC.",
  oneHourPriceChange: "Change in the Yes price over the last hour, in price points (0.05 = 5 points).",
  oneDayPriceChange: "Change in the Yes price over the last 24 hours, in price points.",
  oneWeekPriceChange: "Change in the Yes price over the last 7 days, in price points.",
  oneMonthPriceChange: "Change in the Yes price over the last 30 days, in price points.",
  volume:
    "Cumulative volume traded since the market opened, USDC. The rise between two snapshots is what traded in between. NULL from Oct 6 2025 16:22 UTC to Oct 10 2025 02:20 UTC (known issue, resolved).",
  volume24hr: "Volume traded in the last 24 hours, USDC. NULL when the API omitted it (zero).",
  volume1wk: "Volume traded in the last 7 days, USDC.",
  volume1mo: "Volume traded in the last 30 days, USDC.",
  volume1yr: "Volume traded in the last 365 days, USDC.",
  volumeClob: "Cumulative volume traded on the order book (CLOB), USDC.",
  volume24hrClob: "Order-book volume of the last 24 hours, USDC.",
  liquidity:
    "Order-book liquidity, USDC. NULL from Oct 6 2025 16:22 UTC to Oct 10 2025 02:20 UTC (known issue, resolved).",
  liquidityClob: "Liquidity on the order book (CLOB), USDC.",
  competitive: "Polymarket's competitiveness score (0–1): how close to 50/50 the market trades.",
  orderPriceMinTickSize: "Smallest price step of an order, USDC (e.g. 0.01).",
  orderMinSize: "Smallest order size, in shares.",
  umaBond: "Bond posted to propose a resolution on UMA's optimistic oracle, USDC.",
  umaReward: "Reward paid to the resolution proposer, USDC.",
  umaResolutionStatus:
    "Where the UMA resolution stands: empty, proposed, disputed or resolved (the upstream values as sent).",
  umaResolutionStatuses: "History of UMA resolution statuses. JSON-encoded upstream; decoded into an array here.",
  active: "Polymarket's active flag. True for nearly every market: use closed to tell open from closed.",
  closed:
    "True once the market stopped trading (resolved or ended). NULL when the API omitted it: treat NULL as open (NOT ifNull(closed, false)).",
  archived: "True when Polymarket archived the market.",
  restricted: "Restricted in some jurisdictions.",
  acceptingOrders: "Whether the order book accepts orders right now.",
  enableOrderBook: "Whether the market trades on the central limit order book (CLOB).",
  negRisk: "Part of a negative-risk event (mutually exclusive outcomes; see polymarket.events.negRisk).",
  negRiskOther: "The 'Other' placeholder market of an augmented negative-risk event.",
  negRiskMarketID: "The negative-risk market id shared by the markets of the event; empty otherwise.",
  feeType: "The fee schedule the market trades under, as Polymarket names it; empty when fee-free.",
  comboStatus: "Polymarket's combo (parlay) status of the market, as sent; empty for ordinary markets.",
  makerRebatesFeeShareBps: "Share of taker fees rebated to makers, in basis points.",
  startDate: "When the market opened for trading (UTC).",
  endDate: "When the market is scheduled to end (UTC). Trading can stop earlier.",
  createdAt: "When the market record was created (UTC).",
  updatedAt: "When Polymarket last changed the market record (UTC).",
  closedTime: "When the market closed (UTC); NULL while open.",
  gameStartTime: "Kick-off of the game, for sports markets (UTC); NULL otherwise.",
  acceptingOrdersTimestamp: "When the order book started accepting orders (UTC).",
  lastTradeTime:
    "Derived (Polymarket has no trade timestamp): the first snapshot at which cumulative volume rose, carried forward while it stands still — a trade happened in the 10 minutes before. NULL until a rise is seen.",
};

const KALSHI_EVENT: Record<string, string> = {
  event_ticker: "Kalshi's event ticker, e.g. KXHIGHNY-25NOV21. Primary key.",
  series_ticker: "The series the event belongs to, e.g. KXHIGHNY (New York's daily high temperature).",
  title: "The event's title, e.g. 'Highest temperature in NYC on Nov 21, 2025?'.",
  sub_title: "Kalshi's subtitle of the event, often the date or the scope.",
  category: "Kalshi's category, e.g. Politics, Economics, Climate and Weather, Sports, Financials.",
  collateral_return_type: "How collateral is returned across the event's markets, as Kalshi names it (e.g. MECNET).",
  mutually_exclusive: "True when at most one of the event's markets can resolve Yes.",
  available_on_brokers: "Whether the event is offered through brokerages as well as on Kalshi.",
  strike_date: "The date the event's outcome is measured (UTC); NULL when it uses a period instead.",
  strike_period: "The period the outcome is measured over, e.g. 'week'; empty when a strike date is set.",
  last_updated_ts: "When Kalshi last changed the event (UTC).",
  total_open_interest:
    "Derived: open interest summed over the event's markets in this snapshot, in contracts. NULL when the markets were not fetched with the event.",
  total_volume:
    "Derived: cumulative volume summed over the event's markets, in contracts. NULL when the markets were not fetched with the event.",
  market_count: "Derived: number of markets the event held in this snapshot (combo markets excluded).",
};

const KALSHI_MARKET: Record<string, string> = {
  ticker: "Kalshi's market ticker, e.g. KXHIGHNY-25NOV21-B54.5. Primary key.",
  event_ticker: "The event this market belongs to (kalshi.events.event_ticker).",
  market_type: "binary (a yes/no contract paying $1) or scalar (pays along a range).",
  title: "The market's title; often the event's question with the outcome left to yes_sub_title.",
  subtitle: "Kalshi's older subtitle field; often empty.",
  yes_sub_title: "What Yes means for this market, e.g. '54° to 55°' or a candidate's name. Read it with title.",
  no_sub_title: "What No means for this market.",
  status:
    "Lifecycle: initialized (not yet open), active (trading), inactive (paused), closed (trading over), determined (outcome known), disputed, amended, finalized (settled and paid). Settlement states (finalized, determined, settled) are tracked from Oct 18 2025.",
  result: "Settlement result: yes, no, scalar, or empty while unresolved.",
  can_close_early: "Whether the market may close before close_time (e.g. when the outcome becomes certain).",
  fractional_trading_enabled: "Whether contracts trade in fractions.",
  is_provisional: "Kalshi's provisional flag: the market may still be removed.",
  created_time: "When the market was created (UTC).",
  updated_time: "When Kalshi last changed the market (UTC).",
  open_time: "When trading opened (UTC).",
  close_time: "When trading closes (UTC).",
  expiration_time: "When the contract expires (UTC).",
  expected_expiration_time: "When Kalshi expects the outcome to be known (UTC).",
  latest_expiration_time: "The latest the contract can expire (UTC).",
  settlement_ts: "When the market settled (UTC); NULL until settled.",
  yes_bid_dollars: "Best Yes bid, dollars 0–1 (a probability). From the *_dollars field, else legacy cents ÷ 100.",
  yes_ask_dollars: "Best Yes ask, dollars 0–1.",
  no_bid_dollars: "Best No bid, dollars 0–1.",
  no_ask_dollars: "Best No ask, dollars 0–1.",
  last_price_dollars: "Last traded Yes price, dollars 0–1: the market's probability of Yes.",
  previous_yes_bid_dollars: "Best Yes bid 24 hours ago, dollars 0–1.",
  previous_yes_ask_dollars: "Best Yes ask 24 hours ago, dollars 0–1.",
  previous_price_dollars: "Last traded Yes price 24 hours ago, dollars 0–1.",
  notional_value_dollars: "What one contract pays if it resolves in your favour, dollars (usually 1).",
  settlement_value_dollars: "What one Yes contract paid at settlement, dollars; NULL until settled.",
  yes_bid_size: "Contracts resting at the best Yes bid.",
  yes_ask_size: "Contracts resting at the best Yes ask.",
  volume:
    "Cumulative contracts traded since the market opened (from volume_fp, else the legacy integer). Many Kalshi markets never trade: their volume is 0. Multiply by a price for dollars.",
  volume_24h: "Contracts traded in the last 24 hours.",
  open_interest: "Contracts outstanding (held and not yet settled).",
  liquidity:
    "Liquidity in cents as Kalshi reported it; can be negative. Kalshi deprecated the figure, so it is NULL (or 0) on recent snapshots.",
  liquidity_dollars: "Liquidity in dollars (liquidity ÷ 100 on older snapshots); deprecated upstream and 0 since then.",
  expiration_value: "The measured value the market settled on, e.g. '54.3'; empty until known.",
  strike_type: "How the strike is defined: greater, less, between, functional, custom, structured…",
  floor_strike: "Lower bound of the strike (e.g. 54 in '54° to 55°'); NULL when not used.",
  cap_strike: "Upper bound of the strike; NULL when not used.",
  custom_strike: "A custom strike as a JSON object (e.g. a named outcome); empty when not used.",
  price_level_structure: "Kalshi's tick structure for prices, as named upstream.",
  tick_size: "Smallest price step, in cents.",
  settlement_timer_seconds: "Seconds between the outcome being determined and settlement.",
  rules_primary: "The market's primary rules: how it resolves.",
  rules_secondary: "Further rules and edge cases.",
  early_close_condition: "When the market closes before close_time, in Kalshi's words; empty when it cannot.",
};

const POLYMARKET_PRICE: Record<string, string> = {
  id: "The market's id, as in polymarket.markets.",
  token_id: "The outcome's CLOB token id (one of the market's clobTokenIds).",
  outcome: "The outcome's label, e.g. 'Yes' or 'No' (from the market's outcomes, same position as the token).",
  ts: "The point's time (UTC, seconds).",
  price:
    "The displayed price of the outcome at ts, USDC per share (0–1, a probability): Polymarket's mid/last-trade composite, not an executable bid or ask.",
  fidelity_minutes:
    "The resolution the point was fetched at: 60 for the hourly series over the market's life, 1 for the recent minute series.",
};

const POLYMARKET_DAILY_CLOSE: Record<string, string> = {
  id: "The market's id, as in polymarket.markets.",
  outcome: "The outcome's label, e.g. 'Yes' or 'No'.",
  day: "The UTC day.",
  token_id: "The outcome's CLOB token id.",
  last_ts: "The time of the day's last stored point (UTC, seconds).",
  close: "The outcome's price at last_ts (USDC 0–1, the same displayed price as polymarket.prices).",
};

const coverageColumns = (key: string, of: string): Record<string, string> => ({
  [key]: `The market's ${key}, as in ${of}.`,
  is_open: "Whether the market was open when its row was written.",
  state: "complete, current or upstream error (see the table).",
  history_until: "Up to when (UTC) its price or candle history and its trades are stored.",
  venue_has_none: "Its whole life was asked for and the venue had no point of it.",
  points: "Price points (or candles) and trades stored for it by the history worker.",
  last_trade: "Its newest stored trade (UTC), or NULL.",
  refresh_minutes:
    "How often it is refreshed while open: 10 while it trades or in the hour before its end date, 60 after a day's trading, 1440 otherwise.",
  error: "The venue's answer when its requests failed; empty otherwise.",
  failures: "Steps in a row that failed for it.",
  retry_at: "When a failed market is tried again (UTC).",
  updated_at: "When the row was written (UTC); FINAL keeps the newest.",
});

const coverageDayColumns = (key: string, of: string, history: Record<string, string>): Record<string, string> => ({
  day: "The UTC day.",
  [key]: `The market's ${key}, as in ${of}.`,
  snapshots: "Snapshots of the market stored that day (0 on a day with history only, before the archive began).",
  venue_snapshots: "Snapshots of the venue taken that day (any market): what a market open all day would have.",
  ...history,
  first_point: "The day's first stored history point (price point, candle end or trade; UTC), NULL with none.",
  last_point: "The day's last stored history point (UTC), NULL with none.",
});

const POLYMARKET_COVERAGE_DAY = coverageDayColumns("id", "polymarket.markets", {
  price_points_minute: "Price points stored that day at one-minute fidelity (polymarket.prices, every outcome).",
  price_points_hour: "Price points stored that day at hourly fidelity (older days of a market's life).",
  trades: "Trades (fills) stored that day (polymarket.trades).",
});

const KALSHI_COVERAGE_DAY = coverageDayColumns("ticker", "kalshi.markets", {
  candles_minute:
    "One-minute candles stored for periods beginning that day (sparse: a minute exists only if something happened).",
  candles_hour: "Hourly candles stored for periods beginning that day (sparse).",
  trades: "Trades stored that day (kalshi.trades).",
  contracts_traded: "Contracts the stored trades of the day add up to.",
  venue_contracts:
    "Contracts the venue itself counts for the day: the volume of its hourly candles beginning that day. Equal to contracts_traded when every trade of the day is stored.",
});

const POLYMARKET_TRADE: Record<string, string> = {
  id: "The market's id, as in polymarket.markets.",
  condition_id: "The market's condition id (conditionId), the key the Data API lists trades by.",
  transaction_hash: "The Polygon transaction that carried the fill.",
  trade_index:
    "Which fill of the transaction this is (0, 1, …), in a fixed order of its fills, so a transaction with several fills keeps them all.",
  token_id: "The traded outcome's CLOB token id.",
  outcome: "The traded outcome's label, e.g. 'Yes'.",
  outcome_index: "The traded outcome's position in the market's outcomes (0-based).",
  ts: "When the trade happened (UTC, seconds).",
  price: "Price per share in USDC (0–1).",
  size: "Shares traded.",
  side: "BUY or SELL, from the trading wallet's side, as the Data API reports it (maker/taker is not reliably flagged).",
  proxy_wallet: "The trading wallet (Polymarket proxy wallet address).",
  source:
    "How the trade came: stream, from the live WebSocket feed as it happened (side is the taker's, proxy_wallet empty, trade_index 1000 and up, transaction_hash empty when the feed sent none), or rest, from the Data API. A trade is stored once, by whichever came first: the two copies are matched on token, price and size (and the transaction where both know it) within two minutes; the Data API's tape fills in what the stream missed (polymarket.stream_gaps says when).",
};

const candlePart = (side: string, part: string) =>
  `The period's ${part} ${side}, in dollars (0–1). NULL when the venue sent none.`;

const KALSHI_CANDLE: Record<string, string> = {
  ticker: "The market's ticker, as in kalshi.markets.",
  period_minutes: "The candle's length: 1, 60 or 1440 minutes.",
  end_period_ts: "When the period ends (UTC); the candle covers the period_minutes before it.",
  ...Object.fromEntries(
    ["open", "high", "low", "close"].flatMap((part) => [
      [`yes_bid_${part}`, candlePart("best yes bid", part)],
      [`yes_ask_${part}`, candlePart("best yes ask", part)],
    ]),
  ),
  price_open: "First trade price of the period, in dollars; NULL when nothing traded in it.",
  price_high: "Highest trade price of the period, in dollars; NULL when nothing traded in it.",
  price_low: "Lowest trade price of the period, in dollars; NULL when nothing traded in it.",
  price_close: "Last trade price of the period, in dollars; NULL when nothing traded in it.",
  price_mean: "Volume-weighted mean trade price of the period, in dollars; NULL when nothing traded in it.",
  price_previous: "The last trade price before the period, in dollars: the value to carry forward over a quiet period.",
  volume: "Contracts traded in the period.",
  open_interest: "Contracts open at the end of the period.",
};

const KALSHI_TRADE: Record<string, string> = {
  trade_id: "Kalshi's id of the trade. Primary key.",
  ticker: "The market's ticker, as in kalshi.markets.",
  created_time: "When the trade happened (UTC, microseconds).",
  yes_price: "Price of the yes side, in dollars (0–1).",
  no_price: "Price of the no side, in dollars (0–1); yes_price + no_price = 1.",
  count: "Contracts traded (fractional since the fixed-point migration).",
  taker_side: "The taker's side, yes or no, as Kalshi reports it.",
  taker_outcome_side: "The outcome the taker bought, yes or no (newer trades; empty when not sent).",
  taker_book_side: "The book side the taker hit, bid or ask (newer trades; empty when not sent).",
  is_block_trade: "True for a block trade; NULL when not reported.",
  source:
    "How the trade came: stream, from the live WebSocket feed as it happened (created_time to the second, taker_book_side empty, is_block_trade NULL: the feed sends neither), or rest, from the REST tapes. Each trade_id is stored once, by whichever came first; the REST tape fills in what the stream missed (kalshi.stream_gaps says when).",
};

const MARKET_PAIR: Record<string, string> = {
  polymarket_id: "The Polymarket market's id, as in polymarket.markets.",
  kalshi_ticker: "The Kalshi market's ticker, as in kalshi.markets.",
  polymarket_event_id: "The Polymarket market's event id.",
  kalshi_event_ticker: "The Kalshi market's event ticker.",
  relation:
    "same_contract (identical resolution criteria, source and window: comparable prices) or related (the same question with another threshold, date or source).",
  orientation:
    "same when Polymarket's first outcome (usually Yes) means Kalshi's yes; inverse when it means Kalshi's no.",
  score: "How alike the two markets are, 0–1, from shared words and names, close dates and numbers.",
  method:
    "Who decided: auto (the matcher, from both markets' texts), model (the adjudicator, a language model reading both rules; its quotes are in reasons), confirmed or rejected (an admin). A rejected pair is never proposed again.",
  reasons: "What matched and what differs, in words (shared names, the same threshold, the close dates…).",
  matched_at: "When the pair was first proposed (UTC).",
  reviewed_by: "The admin who confirmed or rejected the pair (their user id); NULL for the matcher's own pairs.",
  updated_at: "When this row was written; FINAL keeps the newest.",
};

const EVENT_PAIR: Record<string, string> = {
  polymarket_event_id: "The Polymarket event's id, as in polymarket.events.",
  kalshi_event_ticker: "The Kalshi event's ticker, as in kalshi.events.",
  market_pairs: "Matched market pairs between the two events (rejected ones left out).",
  same_contract_pairs: "Of those, the pairs that are the same contract.",
  score: "The best score of their market pairs.",
  matched_at: "When the events were first paired (UTC).",
  updated_at: "When this row was written; FINAL keeps the newest.",
};

const COLUMNS: Record<string, Record<string, string>> = {
  ...BOOK_COLUMN_DESCRIPTIONS,
  ...LIVE_COLUMN_DESCRIPTIONS,
  ...RESOLUTION_COLUMN_DESCRIPTIONS,
  "crossvenue.market_pairs": MARKET_PAIR,
  "crossvenue.event_pairs": EVENT_PAIR,
  "polymarket.events": POLYMARKET_EVENT,
  "polymarket.markets": POLYMARKET_MARKET,
  "polymarket.prices": POLYMARKET_PRICE,
  "polymarket.daily_closes": POLYMARKET_DAILY_CLOSE,
  "polymarket.coverage": coverageColumns("id", "polymarket.markets"),
  "kalshi.coverage": coverageColumns("ticker", "kalshi.markets"),
  "polymarket.coverage_days": POLYMARKET_COVERAGE_DAY,
  "kalshi.coverage_days": KALSHI_COVERAGE_DAY,
  "polymarket.trades": POLYMARKET_TRADE,
  "kalshi.events": KALSHI_EVENT,
  "kalshi.markets": KALSHI_MARKET,
  "kalshi.candles": KALSHI_CANDLE,
  "kalshi.trades": KALSHI_TRADE,
};

export function describeTable(namespace: string, name: string): string | null {
  return TABLES[`${namespace}.${name}`] ?? null;
}

export function describeColumn(namespace: string, table: string, column: string): string | null {
  const base = table.replace(/_latest$|_asof$/, "");
  return (
    COLUMNS[`${namespace}.${table}`]?.[column] ?? COLUMNS[`${namespace}.${base}`]?.[column] ?? COMMON[column] ?? null
  );
}
