/**
 * Admission to a fixed number of sessions, fair between owners: each owner holds at most
 * `perOwner` at once, and when a session frees up the waiting owners are served in turn
 * (round robin), not in arrival order, so one caller with many queries queued cannot make
 * everyone else wait behind all of them.
 */
import { QueryCancelledError } from "./errors";

interface Waiter {
  owner: string;
  grant: () => void;
  reject: (error: Error) => void;
}

export class FairGate {
  private active = 0;
  private readonly activeByOwner = new Map<string, number>();
  /** Waiters per owner, owners in the order they will next be served. */
  private readonly waiting = new Map<string, Waiter[]>();
  private isClosed = false;

  constructor(
    readonly capacity: number,
    readonly perOwner: number,
  ) {}

  /** Resolves with a release function once `owner` may use a session. */
  enter(owner: string, signal?: AbortSignal): Promise<() => void> {
    if (this.isClosed) return Promise.reject(new Error("the sandbox is closed"));
    if (signal?.aborted) return Promise.reject(new QueryCancelledError());
    if (this.mayStart(owner) && !this.waiting.has(owner)) return Promise.resolve(this.start(owner));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const queue = this.waiting.get(owner) ?? [];
        const index = queue.indexOf(waiter);
        if (index !== -1) queue.splice(index, 1);
        if (queue.length === 0) this.waiting.delete(owner);
        reject(new QueryCancelledError());
      };
      const waiter: Waiter = {
        owner,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.start(owner));
        },
        reject,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const queue = this.waiting.get(owner);
      if (queue) queue.push(waiter);
      else this.waiting.set(owner, [waiter]);
    });
  }

  /** Sessions in use and owners waiting, for the admin and tests. */
  get load(): { active: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { active: this.active, waiting };
  }

  close(): void {
    this.isClosed = true;
    for (const queue of this.waiting.values())
      for (const waiter of queue) waiter.reject(new Error("the sandbox is closed"));
    this.waiting.clear();
  }

  private mayStart(owner: string): boolean {
    return this.active < this.capacity && (this.activeByOwner.get(owner) ?? 0) < this.perOwner;
  }

  private start(owner: string): () => void {
    this.active += 1;
    this.activeByOwner.set(owner, (this.activeByOwner.get(owner) ?? 0) + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.active -= 1;
      const left = (this.activeByOwner.get(owner) ?? 1) - 1;
      if (left === 0) this.activeByOwner.delete(owner);
      else this.activeByOwner.set(owner, left);
      this.serveNext();
    };
  }

  private serveNext(): void {
    for (const [owner, queue] of this.waiting) {
      if (this.active >= this.capacity) return;
      if (!this.mayStart(owner)) continue;
      const waiter = queue.shift() as Waiter;
      this.waiting.delete(owner);
      // Served once: to the back of the line.
      if (queue.length > 0) this.waiting.set(owner, queue);
      waiter.grant();
    }
  }
}
