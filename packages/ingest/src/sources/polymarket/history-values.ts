/**
 * Polymarket's history values: a `/prices-history` answer and a Data API trades page as
 * rows of `polymarket.prices` and `polymarket.trades`, shared by the per-market step
 * (`history.ts`) and the exchange-wide tape (`tape.ts`).
 *
 * The Data API has no fill id. A fill is keyed by its transaction hash and `trade_index`,
 * its place among that transaction's fills of one market ordered by (token, side, price,
 * size, wallet). Fills of one transaction share a second, so whoever maps them must hold
 * every fill of that second for the market: a market's own walk does, and the tape holds
 * a page's oldest second back until the next page.
 */
import { z } from "zod";

export interface PolymarketPriceRow {
  id: string;
  token_id: string;
  outcome: string;
  ts: number;
  price: number;
  fidelity_minutes: number;
}

export interface PolymarketTradeRow {
  id: string;
  condition_id: string;
  transaction_hash: string;
  trade_index: number;
  token_id: string;
  outcome: string;
  outcome_index: number;
  ts: number;
  price: number;
  size: number;
  side: string;
  proxy_wallet: string;
}

export const ZPricesHistory = z.object({ history: z.array(z.unknown()) });
const ZPoint = z.object({ t: z.number().int().positive(), p: z.number().min(0).max(1) });

/** The Data API's trades page: `{ trades, next_cursor, has_more }` (a bare list from v1). */
export const ZTradesPage = z.union([
  z.object({
    trades: z.array(z.unknown()),
    next_cursor: z.string().nullish(),
    has_more: z.boolean().optional(),
  }),
  z.array(z.unknown()).transform((trades) => ({ trades, next_cursor: null, has_more: false })),
]);

export const ZTrade = z.object({
  transactionHash: z.string().min(1),
  asset: z.string().min(1),
  conditionId: z.string().optional(),
  side: z.string().default(""),
  size: z.coerce.number(),
  price: z.coerce.number().min(0).max(1),
  timestamp: z.coerce.number().int().positive(),
  outcome: z.string().default(""),
  outcomeIndex: z.coerce.number().int().min(0).default(0),
  proxyWallet: z.string().default(""),
});

export interface PolymarketMarketRef {
  id: string;
  conditionId: string;
  tokens: readonly string[];
  outcomes: readonly string[];
}

/** A `/prices-history` answer as rows; points that are not a time and a 0–1 price are counted out. */
export function mapPricePoints(
  market: PolymarketMarketRef,
  token: string,
  fidelityMinutes: number,
  body: unknown,
): { rows: PolymarketPriceRow[]; skipped: number } {
  const { history } = ZPricesHistory.parse(body);
  const index = market.tokens.indexOf(token);
  const outcome = market.outcomes[index] ?? "";
  const rows: PolymarketPriceRow[] = [];
  let skipped = 0;
  for (const item of history) {
    const point = ZPoint.safeParse(item);
    if (!point.success) {
      skipped += 1;
      continue;
    }
    rows.push({
      id: market.id,
      token_id: token,
      outcome,
      ts: point.data.t,
      price: point.data.p,
      fidelity_minutes: fidelityMinutes,
    });
  }
  return { rows, skipped };
}

/** Trades of one market as rows, each fill numbered within its transaction (see the header). */
export function mapTrades(
  market: PolymarketMarketRef,
  trades: readonly unknown[],
): {
  rows: PolymarketTradeRow[];
  skipped: number;
} {
  const parsed: Array<z.infer<typeof ZTrade>> = [];
  let skipped = 0;
  for (const item of trades) {
    const trade = ZTrade.safeParse(item);
    if (trade.success) parsed.push(trade.data);
    else skipped += 1;
  }
  parsed.sort(
    (a, b) =>
      a.transactionHash.localeCompare(b.transactionHash) ||
      a.asset.localeCompare(b.asset) ||
      a.side.localeCompare(b.side) ||
      a.price - b.price ||
      a.size - b.size ||
      a.proxyWallet.localeCompare(b.proxyWallet),
  );
  const rows: PolymarketTradeRow[] = [];
  let index = 0;
  parsed.forEach((trade, i) => {
    index = i > 0 && parsed[i - 1]?.transactionHash === trade.transactionHash ? index + 1 : 0;
    rows.push({
      id: market.id,
      condition_id: trade.conditionId ?? market.conditionId,
      transaction_hash: trade.transactionHash,
      trade_index: index,
      token_id: trade.asset,
      outcome: trade.outcome || (market.outcomes[market.tokens.indexOf(trade.asset)] ?? ""),
      outcome_index: trade.outcomeIndex,
      ts: trade.timestamp,
      price: trade.price,
      size: trade.size,
      side: trade.side,
      proxy_wallet: trade.proxyWallet,
    });
  });
  return { rows, skipped };
}
