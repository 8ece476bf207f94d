/**
 * The matcher on the labelled pairs (issue 25): `npm run bench -- --only matcher-labels`.
 * Precision, recall and orientation errors of the same contract on the development part
 * and the two frozen test parts (`fixtures/crossvenue/SPLIT.md`), per topic family, by the
 * rules alone and, where Seismo's endpoint is configured (SEISMO_BASE_URL, SEISMO_MODEL,
 * SEISMO_API_KEY), with the adjudicator reading the pairs the rules leave to it.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import {
  type Evaluation,
  evaluateByFamily,
  evaluatePairs,
  evaluateWithAdjudicator,
  LABELLED_FILES,
  type LabelledPair,
  type MarketPool,
  sameContractsInPool,
} from "@epicenter/ingest";
import { seismoAdjudicator } from "../apps/server/src/services/crossvenue/adjudicator";

const pairsOf = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/crossvenue/${name}`, import.meta.url), "utf8")) as LabelledPair[];

export const LABELLED_PARTS = {
  development: () => LABELLED_FILES.development.flatMap(pairsOf),
  test: () => LABELLED_FILES.test.flatMap(pairsOf),
  "test, June 2026 (b)": () => LABELLED_FILES.testJune.flatMap(pairsOf),
};

const line = (name: string, evaluation: Evaluation) => {
  const same = evaluation.confusion.same_contract;
  return `${name.padEnd(13)} pairs ${String(evaluation.pairs).padStart(3)}  same_contract ${String(same.same_contract + same.related + same.different).padStart(3)}  precision ${evaluation.precision.toFixed(3)}  recall ${evaluation.recall.toFixed(3)}  orientation errors ${evaluation.wrongOrientation}`;
};

export async function runMatcherLabelsBench(log: (line: string) => void): Promise<void> {
  const env = process.env;
  const adjudicator = seismoAdjudicator({
    ...(env.SEISMO_BASE_URL ? { baseUrl: env.SEISMO_BASE_URL } : {}),
    ...(env.SEISMO_MODEL ? { model: env.SEISMO_MODEL } : {}),
    ...(env.SEISMO_API_KEY ? { apiKey: env.SEISMO_API_KEY } : {}),
  });
  const pool = JSON.parse(
    gunzipSync(readFileSync(new URL(`../fixtures/crossvenue/${LABELLED_FILES.pool}`, import.meta.url))).toString(
      "utf8",
    ),
  ) as MarketPool;
  const started = performance.now();
  const { compared, called } = sameContractsInPool(pool, LABELLED_PARTS.development());
  const count = (label: string | undefined) => called.filter((pair) => pair.label === label).length;
  log(
    `development captures, whole (${pool.polymarket.length} Polymarket x ${pool.kalshi.length} Kalshi markets, ${compared} pairs sharing two title words, ${((performance.now() - started) / 1000).toFixed(1)} s):`,
  );
  log(
    `  called the same contract ${called.length}: labelled same_contract ${count("same_contract")}, related ${count("related")}, different ${count("different")}, unlabelled ${count(undefined)}`,
  );
  for (const pair of called.filter((pair) => pair.label !== "same_contract")) {
    log(
      `    ${pair.label ?? "unlabelled"}: ${pair.polymarket.question} / ${pair.kalshi.title} (${pair.kalshi.ticker})`,
    );
  }
  for (const [part, pairs] of Object.entries(LABELLED_PARTS).map(([name, read]) => [name, read()] as const)) {
    log(`${part}, the rules alone:`);
    log(`  ${line("all", evaluatePairs(pairs))}`);
    for (const { family, evaluation } of evaluateByFamily(pairs)) log(`  ${line(family, evaluation)}`);
    if (!adjudicator) {
      log(`${part}, with the adjudicator: not measured (set SEISMO_BASE_URL and SEISMO_MODEL to a model endpoint)`);
      continue;
    }
    const judged = await evaluateWithAdjudicator(pairs, adjudicator);
    log(
      `${part}, with the adjudicator (${adjudicator.model}): asked ${judged.asked}, answers used ${judged.used}, calls failed ${judged.failed}`,
    );
    log(`  ${line("all", judged)}`);
  }
}
