import type { MarketResolution } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { resolutionLine } from "./resolution-line";

const base: MarketResolution = {
  outcome_type: "yes",
  winning_outcome: "Yes",
  payouts: [1, 0],
  scalar_value: null,
  source: "UMA",
  source_detail: null,
  end_date: "2025-12-30T12:00:00.000Z",
  closed_at: "2025-12-31T09:10:57.000Z",
  resolved_at: "2025-12-31T09:10:57.000Z",
  proposed_at: "2025-12-30T14:00:00.000Z",
  disputed_at: "2025-12-30T20:00:00.000Z",
  disputed: true,
  flipped: false,
  status_history: [],
  last_prices: [0.83, 0.17],
  last_price_at: "2025-12-30T20:00:00.000Z",
  last_price_from: "snapshot",
  event_winner: "32-33°F",
};

describe("the market page's resolution line", () => {
  it("says a disputed UMA resolution step by step, in UTC, with the last price before the close", () => {
    expect(resolutionLine(base)).toBe(
      "Resolved YES on Dec 31, 2025 09:10 UTC via UMA, proposed Dec 30, 2025 14:00 UTC, disputed Dec 30, 2025 20:00 UTC, after its scheduled end (Dec 30, 2025 12:00 UTC); last price 0.83 (Dec 30, 2025 20:00 UTC, snapshot).",
    );
  });

  it("says a 50-50, a Kalshi scalar, a void and a named side as each settled", () => {
    const plain = { ...base, proposed_at: null, disputed_at: null, disputed: false, end_date: null };
    expect(resolutionLine({ ...plain, outcome_type: "split", winning_outcome: null, payouts: [0.5, 0.5] })).toMatch(
      /^Resolved 50-50 on Dec 31, 2025 09:10 UTC via UMA; last price/,
    );
    expect(
      resolutionLine({
        ...plain,
        outcome_type: "scalar",
        winning_outcome: null,
        payouts: [0.29, 0.71],
        scalar_value: 0.29,
        source: "Kalshi",
      }),
    ).toMatch(/^Settled at 0\.29 per Yes contract on .* by Kalshi;/);
    expect(resolutionLine({ ...plain, outcome_type: "void", payouts: [], source: "Kalshi" })).toMatch(/^Voided/);
    expect(resolutionLine({ ...plain, outcome_type: "no", winning_outcome: "Celtics" })).toMatch(/^Resolved Celtics/);
  });

  it("says when the outcome changed and when no price was captured", () => {
    const line = resolutionLine({
      ...base,
      flipped: true,
      last_prices: [],
      last_price_at: null,
      last_price_from: null,
    });
    expect(line).toMatch(/; the outcome changed after it was first published; no price captured before the close\.$/);
  });
});
