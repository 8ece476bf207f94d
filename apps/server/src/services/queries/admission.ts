/**
 * Back-pressure for user SQL. The sandbox runs a few queries at a time and queues the
 * rest; past a bound, a new query is refused at once with "busy, retry in N seconds"
 * instead of joining a queue that would only time out, so the server degrades into clear
 * 503s under overload rather than into growing memory and latency.
 */
export class QueryServiceBusy extends Error {
  constructor(
    readonly waiting: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `The query service is busy (${waiting} queries are running or waiting). Retry in ${retryAfterSeconds} seconds.`,
    );
  }
}

export interface QueryAdmission {
  /** Runs `work` if there is room, else throws `QueryServiceBusy`. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly active: number;
}

export function createQueryAdmission(maxActive: number, retryAfterSeconds = 2): QueryAdmission {
  let active = 0;
  return {
    get active() {
      return active;
    },
    async run(work) {
      if (active >= maxActive) throw new QueryServiceBusy(active, retryAfterSeconds);
      active += 1;
      try {
        return await work();
      } finally {
        active -= 1;
      }
    },
  };
}
