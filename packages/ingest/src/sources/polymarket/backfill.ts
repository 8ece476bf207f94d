/**
 * Polymarket's closed history, `closed_events`: `/events/keyset?closed=true` in 30-day
 * `end_date` windows from 2020-01-01 up to the pending-closed window (seven days ago),
 * paging each window with `after_cursor`, through the same engine mapping as a snapshot.
 */
import { type BackfillStep, PENDING_CLOSED_WINDOW_MS } from "../../source";
import { listGammaEventPages } from "./client";
import { writeGammaPages } from "./sync";

const HISTORY_START = Date.parse("2020-01-01T00:00:00Z");
const WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export const closedEvents: BackfillStep = {
  eventType: "closed_events",
  async run(run, from, pages) {
    const until = run.startedAt - PENDING_CLOSED_WINDOW_MS;
    let position = { ...from };
    let done = false;
    const outcome = await writeGammaPages(run, async (add) => {
      let left = pages;
      while (left > 0) {
        const windowStart = position.windowStart ?? HISTORY_START;
        if (windowStart >= until) {
          done = true;
          return;
        }
        const filters = {
          closed: true,
          end_date_min: new Date(windowStart).toISOString(),
          end_date_max: new Date(Math.min(windowStart + WINDOW_MS, until)).toISOString(),
        };
        let finishedWindow = true;
        for await (const page of listGammaEventPages(run.fetchPage, run.baseUrl, filters, {
          startCursor: position.cursor,
          ...(run.signal ? { signal: run.signal } : {}),
        })) {
          await add(page);
          position = { ...position, cursor: page.nextCursor };
          left -= 1;
          if (page.nextCursor && left === 0) {
            finishedWindow = false;
            break;
          }
        }
        if (finishedWindow) position = { windowStart: windowStart + WINDOW_MS, cursor: null };
      }
    });
    return { ...outcome, position, done };
  },
};
