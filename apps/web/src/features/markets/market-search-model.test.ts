import { describe, expect, it } from "vitest";
import { nextActive } from "./market-search-model";

describe("nextActive", () => {
  it("moves down and up, wrapping at both ends", () => {
    expect(nextActive("ArrowDown", 0, 3)).toBe(1);
    expect(nextActive("ArrowDown", 2, 3)).toBe(0);
    expect(nextActive("ArrowUp", 0, 3)).toBe(2);
    expect(nextActive("ArrowUp", 2, 3)).toBe(1);
  });

  it("stays at 0 without results and clamps a stale position", () => {
    expect(nextActive("ArrowDown", 4, 0)).toBe(0);
    expect(nextActive("ArrowDown", 7, 3)).toBe(0);
  });
});
