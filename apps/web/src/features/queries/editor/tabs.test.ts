import { describe, expect, it } from "vitest";
import { MAX_TABS, pathOf, type QueryTab, tabKeyOf, withoutTab, withTab } from "./tabs";

const tab = (key: string, title = key): QueryTab => ({ key, path: `/queries/${key}`, title });

describe("query tabs", () => {
  it("names a tab by its saved id, or by its draft for new work", () => {
    expect(tabKeyOf("abc", undefined)).toBe("abc");
    expect(tabKeyOf(null, undefined)).toBe("new");
    expect(tabKeyOf(null, "x1")).toBe("new.x1");
    expect(pathOf(null, "x1")).toBe("/queries/new?draft=x1");
    expect(pathOf("abc", undefined)).toBe("/queries/abc");
    // A link that opens SQL has a tab of its own, the same for the same link.
    const fork = tabKeyOf(null, undefined, { sql: "SELECT 1", title: "One" });
    expect(fork).toMatch(/^new\.link-/);
    expect(tabKeyOf(null, undefined, { sql: "SELECT 1", title: "One" })).toBe(fork);
    expect(tabKeyOf(null, undefined, { sql: "SELECT 2", title: "One" })).not.toBe(fork);
  });

  it("adds a tab once, updates it in place, and keeps the newest twelve", () => {
    const tabs = withTab(withTab([tab("a"), tab("b")], tab("a", "renamed")), tab("c"));
    expect(tabs.map((open) => [open.key, open.title])).toEqual([
      ["a", "renamed"],
      ["b", "b"],
      ["c", "c"],
    ]);
    let many: QueryTab[] = [];
    for (let index = 0; index < MAX_TABS + 2; index++) many = withTab(many, tab(`q${index}`));
    expect(many).toHaveLength(MAX_TABS);
    expect(many[0]?.key).toBe("q2");
  });

  it("never closes a tab holding unsaved work to make room", () => {
    let many: QueryTab[] = [tab("new.work")];
    const hasWork = (key: string) => key === "new.work";
    for (let index = 0; index < MAX_TABS + 2; index++) many = withTab(many, tab(`q${index}`), { hasWork });
    expect(many[0]?.key).toBe("new.work");
    expect(many).toHaveLength(MAX_TABS);
  });

  it("turns a new query's tab into the saved query's where it stood", () => {
    const tabs = withTab([tab("a"), tab("new.x1"), tab("b")], tab("saved-1"), { replacing: "new.x1" });
    expect(tabs.map((open) => open.key)).toEqual(["a", "saved-1", "b"]);
  });

  it("closes a tab and shows its right neighbour, else its left", () => {
    const tabs = [tab("a"), tab("b"), tab("c")];
    expect(withoutTab(tabs, "b").next?.key).toBe("c");
    expect(withoutTab(tabs, "c").next?.key).toBe("b");
    expect(withoutTab([tab("a")], "a")).toEqual({ tabs: [], next: undefined });
  });
});
