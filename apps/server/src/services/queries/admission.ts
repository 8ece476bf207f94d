/**
 * Back-pressure for user SQL. The sandbox runs a few queries at a time, fairly between
 * callers, and queues the rest; past a bound, a new query is refused at once with "busy,
 * retry in N seconds" instead of joining a queue that would only time out, so the server
 * degrades into clear 503s under overload rather than into growing memory and latency.
 * The bound is per caller as well as overall, so one caller cannot fill the queue for
 * everyone else.
 */
export class QueryServiceBusy extends Error {
  constructor(
    readonly waiting: number,
    readonly retryAfterSeconds: number,
    readonly isOwnLimit = false,
  ) {
    super(
      isOwnLimit
        ? `You have ${waiting} queries running or waiting; wait for one to finish. Retry in ${retryAfterSeconds} seconds.`
        : `The query service is busy (${waiting} queries are running or waiting). Retry in ${retryAfterSeconds} seconds.`,
    );
  }
}

export interface QueryAdmission {
  /** Runs `work` for `owner` if there is room, else throws `QueryServiceBusy`. */
  run<T>(owner: string, work: () => Promise<T>): Promise<T>;
  readonly active: number;
}

export function createQueryAdmission(
  maxActive: number,
  retryAfterSeconds = 2,
  maxPerOwner = Math.max(1, Math.floor(maxActive / 4)),
): QueryAdmission {
  let active = 0;
  const byOwner = new Map<string, number>();
  return {
    get active() {
      return active;
    },
    async run(owner, work) {
      const own = byOwner.get(owner) ?? 0;
      if (active >= maxActive) throw new QueryServiceBusy(active, retryAfterSeconds);
      if (own >= maxPerOwner) throw new QueryServiceBusy(own, retryAfterSeconds, true);
      active += 1;
      byOwner.set(owner, own + 1);
      try {
        return await work();
      } finally {
        active -= 1;
        const left = (byOwner.get(owner) ?? 1) - 1;
        if (left === 0) byOwner.delete(owner);
        else byOwner.set(owner, left);
      }
    },
  };
}
