/**
 * Kalshi's closed history, by cursor, through the same mapping and row writer as a snapshot:
 * - `settled_events`: `/events?status=settled` with nested markets;
 * - `historical_markets`: `/historical/markets` (markets settled before the historical
 *   cutoff exist only there), `mve_filter=exclude`, combos dropped all the same.
 */
import type { Rejection } from "../../rejection";
import type { BackfillPosition, BackfillStep } from "../../source";
import { listKalshiEvents, listKalshiMarkets } from "./client";
import { isComboMarket, mapKalshiMarket } from "./map";
import { KALSHI_MARKETS, writeKalshiEventsPage, writeKalshiRows } from "./sync";

export const settledEvents: BackfillStep = {
  eventType: "settled_events",
  async run(run, from, pages) {
    let position: BackfillPosition = { ...from };
    let done = false;
    const outcome = await writeKalshiRows(run, async (writer, tally) => {
      let left = pages;
      for await (const page of listKalshiEvents(
        run.fetchPage,
        run.baseUrl,
        { status: "settled" },
        { startCursor: position.cursor, ...(run.signal ? { signal: run.signal } : {}) },
      )) {
        await writeKalshiEventsPage(writer, tally, { syncTimestamp: run.syncTimestamp }, page);
        position = { ...position, cursor: page.nextCursor };
        left -= 1;
        if (!page.nextCursor) done = true;
        if (left === 0) return;
      }
    });
    return { ...outcome, position, done };
  },
};

export const historicalMarkets: BackfillStep = {
  eventType: "historical_markets",
  async run(run, from, pages) {
    let position: BackfillPosition = { ...from };
    let done = false;
    const outcome = await writeKalshiRows(run, async (writer, tally) => {
      let left = pages;
      for await (const page of listKalshiMarkets(
        run.fetchPage,
        run.baseUrl,
        "/historical/markets",
        {},
        { startCursor: position.cursor, ...(run.signal ? { signal: run.signal } : {}) },
      )) {
        tally.pages += 1;
        const rejections: Rejection[] = [];
        for (const raw of page.items) {
          if (raw && typeof raw === "object" && isComboMarket(raw as Record<string, unknown>)) {
            tally.combosExcluded += 1;
            continue;
          }
          const mapped = mapKalshiMarket(raw, { syncTimestamp: run.syncTimestamp });
          if ("row" in mapped) await writer.add(KALSHI_MARKETS, mapped.row.ticker, mapped.row);
          else rejections.push(mapped.rejection);
        }
        tally.reject(page.url, rejections);
        position = { ...position, cursor: page.nextCursor };
        left -= 1;
        if (!page.nextCursor) done = true;
        if (left === 0) return;
      }
    });
    return { ...outcome, position, done };
  },
};
