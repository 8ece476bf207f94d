import { describe, expect, it } from "vitest";
import { QueryCancelledError } from "./errors";
import { FairGate } from "./fair-gate";

/** Enters and records the order in which callers got in. */
function enterAll(gate: FairGate, owners: string[], order: string[]): Promise<() => void>[] {
  return owners.map((owner, index) =>
    gate.enter(owner).then((release) => {
      order.push(`${owner}${index}`);
      return release;
    }),
  );
}

describe("FairGate", () => {
  it("lets one owner hold no more than its share while others wait", async () => {
    const gate = new FairGate(3, 2);
    const order: string[] = [];
    const entries = enterAll(gate, ["a", "a", "a", "b"], order);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // a holds two (its share), b takes the third session although a asked first.
    expect(order).toEqual(["a0", "a1", "b3"]);
    expect(gate.load).toEqual({ active: 3, waiting: 1 });
    (await entries[0])?.();
    await entries[2];
    expect(order).toEqual(["a0", "a1", "b3", "a2"]);
  });

  it("serves waiting owners in turn rather than in arrival order", async () => {
    const gate = new FairGate(1, 1);
    const order: string[] = [];
    const first = await gate.enter("x");
    // Each caller leaves as soon as it is let in.
    const entries = ["a", "a", "a", "b", "c"].map((owner, index) =>
      gate.enter(owner).then((release) => {
        order.push(`${owner}${index}`);
        setTimeout(release, 0);
      }),
    );
    first();
    await Promise.all(entries);
    expect(order).toEqual(["a0", "b3", "c4", "a1", "a2"]);
  });

  it("gives up a place in the queue when the caller aborts", async () => {
    const gate = new FairGate(1, 1);
    const held = await gate.enter("a");
    const controller = new AbortController();
    const waiting = gate.enter("b", controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(QueryCancelledError);
    expect(gate.load.waiting).toBe(0);
    held();
    (await gate.enter("c"))();
  });
});
