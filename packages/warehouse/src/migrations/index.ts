import { namespaces } from "./0001-namespaces";
import { snapshotTables } from "./0002-snapshot-tables";
import { snapshotTimeIndex } from "./0003-snapshot-time-index";
import { marketTextLowCardinality } from "./0004-market-text-low-cardinality";
import { marketDayProjection } from "./0005-market-day-projection";
import { latestWithoutRaw } from "./0006-latest-without-raw";
import { historyTables } from "./0007-history-tables";
import { catalogViews } from "./0008-catalog-views";
import { crossVenue } from "./0009-crossvenue";
import { pairReviews } from "./0010-pair-reviews";
import { matcherRuns } from "./0011-matcher-runs";
import { pairJudgements } from "./0012-pair-judgements";
import { historyAtScale } from "./0013-history-at-scale";
import { dailyCloses } from "./0014-daily-closes";
import { coverageLedger } from "./0015-coverage";
import { coverageDays } from "./0016-coverage-days";
import { coverageDaysHistory } from "./0017-coverage-days-history";
import { orderBooks } from "./0018-books";
import { resolutions } from "./0019-resolutions";
import { liveFeeds } from "./0020-live";
import { tradeSource } from "./0021-trade-source";
import { bookAsOfStream } from "./0022-book-asof-stream";
import type { WarehouseMigration } from "./types";

/** Every warehouse migration, in the order it is applied. Append only. */
export const warehouseMigrations: readonly WarehouseMigration[] = [
  namespaces,
  snapshotTables,
  snapshotTimeIndex,
  marketTextLowCardinality,
  marketDayProjection,
  latestWithoutRaw,
  historyTables,
  catalogViews,
  crossVenue,
  pairReviews,
  matcherRuns,
  pairJudgements,
  historyAtScale,
  dailyCloses,
  coverageLedger,
  coverageDays,
  coverageDaysHistory,
  orderBooks,
  resolutions,
  liveFeeds,
  tradeSource,
  bookAsOfStream,
];

export type { WarehouseMigration } from "./types";
