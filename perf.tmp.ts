import { existsSync } from "node:fs";
import { openWarehouse, sandboxSettings } from "@epicenter/warehouse";
import { exportParquet, openDuckDb } from "./scripts/bench/duckdb";
import { benchQueries } from "./scripts/bench/queries";
const warehouse = openWarehouse({ path: "/work/bench-data/warehouse", poolSize: 1 });
const dir = "/work/bench-data/parquet";
if (!existsSync(`${dir}/k_markets_latest.parquet`)) await exportParquet(warehouse, dir);
const duck = await openDuckDb(dir, 2);
const settings = { ...sandboxSettings(), ...(JSON.parse(process.env.EXTRA ?? "{}")) };
const only = process.env.ONLY?.split(",");
const extra = process.env.QUERIES ? (await import(process.env.QUERIES)).default : [];
const qs = [...benchQueries("x"), ...extra].filter((q) => !only || only.some((o) => q.id.startsWith(o)));
const runs = Number(process.env.RUNS ?? 9);
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const q of qs) {
  const e: number[] = [], d: number[] = [];
  let er = 0, dr = 0;
  for (let i = -1; i < runs; i++) {
    let t = performance.now(); er = (await warehouse.query(q.clickhouse, { settings })).length; const te = performance.now() - t;
    t = performance.now(); dr = q.duckdb ? await duck.run(q.duckdb) : NaN; const td = performance.now() - t;
    if (i >= 0) { e.push(te); d.push(td); }
  }
  console.log(`${q.id.padEnd(34)} engine ${med(e).toFixed(1).padStart(7)}  duck ${med(d).toFixed(1).padStart(7)}  ratio ${(med(e) / med(d)).toFixed(2)}  rows ${er}/${dr}`);
}
duck.close(); await warehouse.close();
