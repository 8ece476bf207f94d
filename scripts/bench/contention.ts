/**
 * The gallery under contention (issue 30): every example through `POST /api/query` on a
 * quiet server, then again while another user keeps two queries that take both cores
 * running through the same server (each replaced as soon as it ends). An example must
 * still answer, and stay under a third of the sandbox's time limit, however busy the
 * machine is: what fits on a quiet machine only is not a gallery example.
 */
import { queryParameters } from "@epicenter/contracts";
import { EXAMPLE_QUERIES } from "../../apps/server/src/services/queries/examples";

export interface ContentionTiming {
  title: string;
  quietMs: number;
  busyMs: number;
  rows: number;
  /** The error a busy run answered, if one did. */
  failure: string | undefined;
}

export interface ContentionTarget {
  baseUrl: string;
  /** The gallery's user. */
  apiKey: string;
  /** Another user, who keeps the machine busy. */
  hogKey: string;
}

/** A scan of both cores that runs for seconds: what another user's heavy query costs the rest. */
const HOG_SQL = "SELECT count() FROM numbers_mt(400000000) WHERE sipHash64(number) % 7 = 1";

export async function runExamplesUnderContention(
  target: ContentionTarget,
  paramsFor: (sql: string) => Promise<Record<string, string>>,
  runs: number,
  log: (line: string) => void,
): Promise<ContentionTiming[]> {
  const post = async (key: string, query: string, params: Record<string, string>) => {
    const started = performance.now();
    const response = await fetch(`${target.baseUrl}/api/query`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query, limit: 1000, ...(Object.keys(params).length > 0 ? { params } : {}) }),
    });
    const body = (await response.json()) as { result?: { row_count: number }; error?: { message: string } };
    return {
      ms: performance.now() - started,
      rows: body.result?.row_count ?? 0,
      failure: response.ok ? undefined : `${response.status}: ${body.error?.message ?? "no message"}`,
    };
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

  const examples = await Promise.all(
    EXAMPLE_QUERIES.map(async (example) => ({ example, params: await paramsFor(example.sql) })),
  );
  const quiet = new Map<string, number[]>();
  for (const { example, params } of examples) {
    await post(target.apiKey, example.sql, params); // warm-up
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) times.push((await post(target.apiKey, example.sql, params)).ms);
    quiet.set(example.id, times);
  }
  log("  gallery quiet done; now beside another user's two scans");

  let isBusy = true;
  const hog = async () => {
    while (isBusy) await post(target.hogKey, HOG_SQL, {});
  };
  const hogs = [hog(), hog()];
  // Let both scans start before the first example.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const out: ContentionTiming[] = [];
  try {
    for (const { example, params } of examples) {
      const times: number[] = [];
      let rows = 0;
      let failure: string | undefined;
      for (let i = 0; i < runs; i += 1) {
        const run = await post(target.apiKey, example.sql, params);
        times.push(run.ms);
        rows = run.rows;
        failure ??= run.failure;
      }
      out.push({
        title: example.title,
        quietMs: median(quiet.get(example.id) ?? []),
        busyMs: median(times),
        rows,
        failure,
      });
    }
  } finally {
    isBusy = false;
    await Promise.all(hogs);
  }
  return out;
}

/** Values for the examples' parameters on the benchmark's data: a market of each venue, the last month. */
export function benchParams(lookupId: string, ticker: string): (sql: string) => Promise<Record<string, string>> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const known: Record<string, string> = {
    market_id: lookupId,
    polymarket_id: lookupId,
    ticker,
    from: day(-30),
    to: day(0),
    days: "30",
  };
  return async (sql) => Object.fromEntries(queryParameters(sql).map(({ name }) => [name, known[name] ?? ""]));
}
