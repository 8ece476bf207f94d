/**
 * The labelled development pairs, for the scorer's tests: the test part is never read to
 * shape the matcher, so only `LABELLED_FILES.development` is here.
 */
import { readFileSync } from "node:fs";
import { LABELLED_FILES, type LabelledPair } from "./evaluate";
import { comparePair, type PairVerdict } from "./score";

export const readLabelled = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../../fixtures/crossvenue/${name}`, import.meta.url), "utf8"),
  ) as LabelledPair[];

export const development = LABELLED_FILES.development.flatMap(readLabelled);

/** The development pair of this question and Kalshi title. */
export function pairOf(question: string, kalshiTitle: string): LabelledPair {
  const pair = development.find(
    (candidate) => candidate.polymarket.question === question && candidate.kalshi.title === kalshiTitle,
  );
  if (!pair) throw new Error(`no development pair ${question} / ${kalshiTitle}`);
  return pair;
}

/** The development pair of this Kalshi ticker. */
export function pairWithTicker(ticker: string): LabelledPair {
  const pair = development.find((candidate) => candidate.kalshi.ticker === ticker);
  if (!pair) throw new Error(`no development pair with ${ticker}`);
  return pair;
}

/** The development pair of this Polymarket id and Kalshi ticker. */
export function pairWithIds(polymarketId: string, ticker: string): LabelledPair {
  const pair = development.find(
    (candidate) => candidate.polymarket.id === polymarketId && candidate.kalshi.ticker === ticker,
  );
  if (!pair) throw new Error(`no development pair ${polymarketId} / ${ticker}`);
  return pair;
}

/** The matcher's verdict on a labelled pair. */
export const verdictOf = (pair: LabelledPair): PairVerdict => comparePair(pair.polymarket, pair.kalshi);

/** The pair's verdict with Kalshi's market written otherwise. */
export const withKalshi = (pair: LabelledPair, kalshi: Partial<LabelledPair["kalshi"]>): PairVerdict =>
  comparePair(pair.polymarket, { ...pair.kalshi, ...kalshi });
