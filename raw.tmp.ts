import { Session } from "chdb";
import { benchQueries } from "./scripts/bench/queries";
const s = new Session("/work/bench-data/warehouse");
const q = Object.fromEntries(benchQueries("x").map((b) => [b.id, b.clickhouse]));
const base = "max_threads=2, optimize_aggregation_in_order=1, output_format_json_quote_64bit_integers=1";
const variants = (process.env.V ?? "").split("|").filter(Boolean);
const list: Array<[string, string]> = [
  ["select1", "SELECT 1"],
  ["q4", q["q4-open-per-platform"]!],
  ["q7", q["q7-latest-table"]!],
  ["q1", q["q1-open-by-category"]!],
  ["count-final", "SELECT count() FROM polymarket.markets_latest FINAL"],
  ["count", "SELECT count() FROM polymarket.markets_latest"],
  ["pm-open-sum", "SELECT count(), sum(volume24hr) FROM polymarket.markets_latest FINAL WHERE NOT ifNull(closed, false)"],
];
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const extra of ["", ...variants]) {
  const settings = extra ? `${base}, ${extra}` : base;
  const out: string[] = [];
  for (const [name, sql] of list) {
    const full = `${sql}\nSETTINGS ${settings}`;
    const xs: number[] = [];
    for (let i = 0; i < 25; i++) { const t = performance.now(); await s.queryAsync(full, { format: "JSONCompactEachRowWithNamesAndTypes" }); if (i >= 5) xs.push(performance.now() - t); }
    out.push(`${name} ${med(xs).toFixed(2)}`);
  }
  console.log((extra || "base").padEnd(50), out.join("  "));
}
s.cleanup?.();
