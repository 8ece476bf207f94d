/**
 * Every source the archive takes in, by name. The frame finds a source here and runs it
 * through its `Source` shape (`../source.ts`); adding a venue is a folder beside these
 * with an `index.ts` exporting its `Source`, one line below, and its warehouse migration.
 */
import type { Source } from "../source";
import { kalshi } from "./kalshi";
import { polymarket } from "./polymarket";

const BY_NAME = { polymarket, kalshi } satisfies Record<string, Source>;

export type SourceName = keyof typeof BY_NAME;

/** In the order they are run and shown. */
export const SOURCE_LIST: readonly Source<SourceName>[] = Object.values(BY_NAME);

export const SOURCES: readonly SourceName[] = SOURCE_LIST.map((source) => source.name);

export function sourceNamed(name: SourceName): Source<SourceName> {
  return BY_NAME[name];
}
