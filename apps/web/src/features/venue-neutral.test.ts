/**
 * The SPA's features read each venue through its facts (`VENUES`, `VENUE_FACTS` in the
 * contracts), never by its name: a venue added there appears in the market pages, search,
 * status, dashboards and catalog without a change here. This reads the features' code for
 * what would break that — a comparison with a venue's id, a `case` on one, a list of them —
 * in every file, including ones written after this test. Prose that names a venue (the
 * spec's texts, the docs' examples) is not code and is not matched.
 *
 * One place is two-venue by definition and is left out: the review of cross-venue pairs,
 * whose pairs are a Polymarket market and a Kalshi market by the crossvenue contract.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { VENUES } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";

const FEATURES = new URL(".", import.meta.url).pathname;
const PAIR_REVIEW = new Set(["admin/CrossVenueSection.tsx", "admin/PairCells.tsx", "admin/PairReviewLog.tsx"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const ids = VENUES.join("|");
const BRANCHES: ReadonlyArray<[string, RegExp]> = [
  ["compares with a venue's id", new RegExp(`[!=]==\\s*["'\`](${ids})["'\`]|["'\`](${ids})["'\`]\\s*[!=]==`)],
  ["has a case for a venue", new RegExp(`case\\s+["'\`](${ids})["'\`]`)],
  ["lists the venues by name", new RegExp(`\\[\\s*["'\`](${ids})["'\`]\\s*,\\s*["'\`](${ids})["'\`]`)],
  ["types a venue by name", new RegExp(`:\\s*["'\`](${ids})["'\`]\\s*\\|`)],
];

/** Where a file branches on a venue's name: `file:line what`. */
function branchesIn(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .flatMap((line, index) =>
      BRANCHES.filter(([, pattern]) => pattern.test(line)).map(
        ([what]) => `${relative(FEATURES, path)}:${index + 1} ${what}`,
      ),
    );
}

describe("the features, for a venue they have not seen", () => {
  it("read every venue through its facts: no feature file branches on a venue's name", () => {
    const files = sourceFiles(FEATURES).filter((path) => !PAIR_REVIEW.has(relative(FEATURES, path)));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(branchesIn)).toEqual([]);
  });

  it("would see a branch if one were written", () => {
    const branch = (line: string) => BRANCHES.some(([, pattern]) => pattern.test(line));
    expect(branch('market.venue === "kalshi" ? "ct" : ""')).toBe(true);
    expect(branch('case "polymarket":')).toBe(true);
    expect(branch('for (const venue of ["polymarket", "kalshi"] as const)')).toBe(true);
    expect(branch('name: "Polymarket" | "Kalshi";')).toBe(false);
    expect(branch('description="Every Polymarket and Kalshi table of the archive"')).toBe(false);
  });
});
