/**
 * A synthetic price history at the scale issue 15 asks its queries to hold up on
 * (200 M points by default), generated inside the engine: one `INSERT … SELECT` over
 * `numbers()` per chunk of markets straight into `polymarket.prices`, never through JSON,
 * and the same markets, resolved, in `polymarket.markets_latest` and as a snapshot in
 * `polymarket.markets`, which the resolutions ledger is derived from, so the calibration
 * example has its data.
 *
 * The shape (kept in this one place, as guesses):
 * - every market is a resolved yes/no market with two 77-digit token ids, as the CLOB's
 *   are, and `pointsPerToken` hourly points per token (`fidelity_minutes` 60) ending at
 *   its close; the venue's last two days of one-minute points are left out, so the table
 *   holds hourly points only;
 * - markets close one after another over the last two years, in the order of their ids
 *   (Polymarket's ids grow with time), so a chunk of markets spans a few monthly
 *   partitions rather than all of them;
 * - the Yes price follows the replay server's path (`pathPrice`): a slow wander around a
 *   base price with an hourly jiggle, drawn to the outcome over its last three days; the No
 *   token's price is 1 − Yes. Yes wins with the probability of its base price. Like the
 *   recorded sample (`fixtures/polymarket/history/clob_prices_history_hourly_2026-05.json`:
 *   midpoints on a 0.0005 grid, three points in four equal to the one before, times a few
 *   seconds past the hour), a price moves only every 1–6 hours (per market), sits on the
 *   0.0005 grid, and each point's time is 0–19 s past its hour.
 */
import type { Warehouse } from "@epicenter/warehouse";

export interface SyntheticHistoryOptions {
  /** Price points wanted (both tokens of every market); rounded to whole markets. */
  points: number;
  /** Epoch seconds: the last market closes just before it. */
  now: number;
  pointsPerToken?: number;
  /** Markets per `INSERT … SELECT` (each a few monthly partitions' worth of parts). */
  chunkMarkets?: number;
}

export interface SyntheticHistory {
  markets: number;
  pointsPerToken: number;
  points: number;
  from: string;
  to: string;
  generateMs: number;
}

const DAY = 86_400;
const SPAN_DAYS = 730;

/**
 * A token id of market `i`, 77 digits like the CLOB's: its first 21 carry a hash of the
 * market and side, the rest are fixed (the column's bytes depend on the length and on
 * rows of one token sitting together, not on the digits).
 */
const tokenId = (side: 0 | 1) => `concat('1', leftPad(toString(cityHash64(i, ${side})), 20, '0'), '${"7".repeat(56)}')`;

/** The market's columns from its number `i`: ids, close and open hour, base price, outcome. */
function marketColumns(markets: number, pointsPerToken: number, now: number): string {
  const first = now - SPAN_DAYS * DAY;
  return `toString(600000 + i) AS id,
    intDiv(${first} + intDiv(i * ${SPAN_DAYS * DAY}, ${markets}), 3600) * 3600 AS close_ts,
    close_ts - ${pointsPerToken} * 3600 AS open_ts,
    0.05 + 0.9 * (cityHash64(i, 'base') % 1000) / 1000 AS base,
    (cityHash64(i, 'won') % 1000) / 1000 < base AS yes_won`;
}

export async function generateSyntheticHistory(
  warehouse: Warehouse,
  options: SyntheticHistoryOptions,
  log: (line: string) => void = () => {},
): Promise<SyntheticHistory> {
  const perToken = options.pointsPerToken ?? 5_000;
  const markets = Math.max(1, Math.round(options.points / (2 * perToken)));
  const chunk = options.chunkMarkets ?? 1_000;
  const market = marketColumns(markets, perToken, options.now);
  const started = performance.now();

  // Each market resolved, as its last snapshot and the latest table hold it.
  for (const table of ["polymarket.markets_latest", "polymarket.markets"]) {
    await warehouse.command(
      `INSERT INTO ${table}
         (sync_timestamp, id, event_id, question, conditionId, outcomes, outcomePrices, clobTokenIds, yes_probability,
          volume, active, closed, umaResolutionStatus, startDate, createdAt, endDate, closedTime, updatedAt)
       SELECT toDateTime64(${options.now}, 3), id, toString(90000 + intDiv(i, 3)), concat('Synthetic market ', id, '?'),
         concat('0x', lower(hex(cityHash64(i, 'condition')))), ['Yes', 'No'], if(yes_won, [1., 0.], [0., 1.]),
         [${tokenId(0)}, ${tokenId(1)}], if(yes_won, 1., 0.), round(exp(4 + 8 * (cityHash64(i, 'volume') % 1000) / 1000), 2),
         false, true, 'resolved', toDateTime64(open_ts, 3), toDateTime64(open_ts, 3), toDateTime64(close_ts, 3),
         toDateTime64(close_ts, 3), toDateTime64(close_ts, 3)
       FROM (SELECT number AS i, ${market} FROM numbers(${markets}))`,
    );
  }

  // The replay server's `pathPrice` at whole hours (its jiggle is then the hour's noise),
  // held for `quiet` hours at a time.
  const price = `least(0.15, greatest(0.004, least(base, 1 - base) * 0.6)) AS amplitude,
    (cityHash64(i, 'phase') % 6283) / 1000 AS phase,
    1 + cityHash64(i, 'quiet') % 6 AS quiet,
    intDiv(h, quiet) * quiet AS moved_at,
    base + amplitude * (0.6 * sin(moved_at / 61 + phase) + 0.25 * sin(moved_at / 9.7 + 2 * phase)
      + 0.3 * ((cityHash64(i, moved_at) % 10000) / 10000 - 0.5)) AS wander,
    greatest(0., least(1., (moved_at - (${perToken} - 1 - 72)) / 72)) AS weight,
    round(least(0.9995, greatest(0.0005, wander * (1 - weight) + if(yes_won, 1, 0) * weight)) * 2000) / 2000 AS yes_price`;
  for (let from = 0; from < markets; from += chunk) {
    const count = Math.min(chunk, markets - from);
    await warehouse.command(
      `INSERT INTO polymarket.prices (id, token_id, outcome, ts, price, fidelity_minutes)
       SELECT id, if(side = 0, ${tokenId(0)}, ${tokenId(1)}), if(side = 0, 'Yes', 'No'),
         toDateTime(open_ts + h * 3600 + cityHash64(i, h, 'second') % 20, 'UTC'),
         if(side = 0, yes_price, round((1 - yes_price) * 2000) / 2000), 60
       FROM (
         SELECT intDiv(number, ${2 * perToken}) AS i, intDiv(number % ${2 * perToken}, ${perToken}) AS side,
           number % ${perToken} AS h, ${market}, ${price}
         FROM numbers(${from * 2 * perToken}, ${count * 2 * perToken})
       )`,
    );
    const done = from + count;
    if (done === markets || Math.floor(done / (chunk * 5)) > Math.floor(from / (chunk * 5)))
      log(
        `  ${(done * 2 * perToken).toLocaleString("en-US")} price points in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  const generateMs = performance.now() - started;
  const [range] = await warehouse.query<{ from: string; to: string }>(
    "SELECT toString(min(ts)) AS from, toString(max(ts)) AS to FROM polymarket.prices",
  );
  return {
    markets,
    pointsPerToken: perToken,
    points: markets * 2 * perToken,
    from: range?.from ?? "",
    to: range?.to ?? "",
    generateMs,
  };
}
