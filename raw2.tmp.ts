import { Session } from "chdb";
import { benchQueries } from "./scripts/bench/queries";
const s = new Session("/work/bench-data/warehouse");
const q = Object.fromEntries(benchQueries("x").map((b) => [b.id, b.clickhouse]));
const base = "max_threads=2, optimize_aggregation_in_order=1, output_format_json_quote_64bit_integers=1";
const list: Array<[string, string]> = JSON.parse(process.env.L!).map(([n, sql]: [string, string]) => [n, q[sql] ?? sql]);
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const reps = Number(process.env.R ?? 9);
for (const [name, sql] of list) {
  const full = `${sql}\nSETTINGS ${base}${process.env.X ? `, ${process.env.X}` : ""}`;
  const xs: number[] = [];
  let out = "";
  for (let i = 0; i < reps + 2; i++) { const t = performance.now(); out = (await s.queryAsync(full, { format: "TSV" })).text(); if (i >= 2) xs.push(performance.now() - t); }
  console.log(name.padEnd(20), med(xs).toFixed(1).padStart(7), "ms  ", out.split("\n").slice(0, 2).join(" | ").slice(0, 100));
}
