/**
 * The readers of untrusted text in linear time (`npm run bench -- --only linear`): each is
 * timed on an input of `n` and of `8n` units of its hostile shape, the fastest of five runs
 * of each, and the ratio printed. Linear is about 8; quadratic about 64. The tests run the
 * same inputs and check what the readers return (a quadratic reader would not return within
 * a test's timeout on the large ones); the ratios live here, where a loaded machine moving
 * them is a figure to read with its load average, not a failed test.
 */
import { adviseQuery } from "@epicenter/contracts";
import { prepareStatement } from "../../apps/server/src/services/clickhouse/statement";
import { tablesReadBy } from "../../apps/web/src/features/queries/editor/sql-completion";
import { parseAstDump } from "../../packages/warehouse/src/sandbox/allow-list";
import { cleanMessage } from "../../packages/warehouse/src/sandbox/errors";

export interface LinearReader {
  name: string;
  /** Units of the hostile shape in the smaller input. */
  units: number;
  /** Milliseconds on `units` and on eight times as many, the fastest of five each. */
  smallMs: number;
  largeMs: number;
  ratio: number;
}

/** Above this the reader is reported as not linear (between 8 and 64, far from both). */
export const LINEAR_RATIO_BOUND = 24;

const SERVER = { version: "26.7.2.1", revision: 54500 };
const WINDOW = "row_number() OVER (PARTITION BY id ORDER BY sync_timestamp DESC) AS rn";
const TABLES = [
  { namespace: "polymarket", name: "markets", columns: [{ name: "id", type: "String" }] },
  { namespace: "kalshi", name: "markets", columns: [{ name: "id", type: "String" }] },
] as unknown as Parameters<typeof tablesReadBy>[1];

/** `SELECT * FROM values(<one literal>)` as the engine dumps it. */
function valuesDump(literal: string): string {
  return [
    "SelectWithUnionQuery (children 1)",
    " ExpressionList (children 1)",
    "  SelectQuery (children 2)",
    "   ExpressionList (children 1)",
    "    Asterisk",
    "   TablesInSelectQuery (children 1)",
    "    TablesInSelectQueryElement (children 1)",
    "     TableExpression (children 1)",
    "      Function values (children 1)",
    "       ExpressionList (children 1)",
    `        ${literal}`,
    "",
  ].join("\n");
}

/** Each reader and its hostile input of `n` units. */
const READERS: Array<{ name: string; units: number; run: (n: number) => void }> = [
  {
    name: "prepareStatement: server calls in one SELECT",
    units: 5_000,
    run: (n) => prepareStatement(`SELECT ${"version(),".repeat(n)} 1`, "polymarket", SERVER),
  },
  {
    name: "adviseQuery: unclosed nested SELECTs",
    units: 750,
    run: (n) =>
      adviseQuery(`SELECT a FROM (SELECT b, ${WINDOW} ${"SELECT c FROM ( ".repeat(n)} FROM polymarket.markets)`, [
        "polymarket.markets",
        "polymarket.markets_latest",
      ]),
  },
  {
    name: "tablesReadBy: repeated FROM",
    units: 4_000,
    run: (n) => tablesReadBy(`${"FROM ".repeat(n)}x`, TABLES),
  },
  {
    name: "parseAstDump: a literal of spaces",
    units: 250_000,
    run: (n) => {
      const spaces = " ".repeat(n);
      parseAstDump(valuesDump(`Literal '${spaces}x' (alias ${spaces})`));
    },
  },
  {
    name: "cleanMessage: an engine message of spaces",
    units: 250_000,
    run: (n) => {
      const spaces = " ".repeat(n);
      cleanMessage(`Code: 62. DB::Exception: Syntax error: failed at position 9 (${spaces}): ${spaces}In scope x`);
    },
  },
];

function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

export function runLinearBench(log: (line: string) => void): LinearReader[] {
  return READERS.map(({ name, units, run }) => {
    run(units); // warm the JIT
    const smallMs = fastest(() => run(units));
    const largeMs = fastest(() => run(units * 8));
    const reader = { name, units, smallMs, largeMs, ratio: largeMs / Math.max(smallMs, 0.001) };
    log(
      `linear: ${name}: ${units.toLocaleString("en-US")} units ${smallMs.toFixed(2)} ms, ${(units * 8).toLocaleString("en-US")} units ${largeMs.toFixed(2)} ms, ratio ${reader.ratio.toFixed(1)}${reader.ratio > LINEAR_RATIO_BOUND ? " — NOT LINEAR" : ""}`,
    );
    return reader;
  });
}
