import { describe, expect, it } from "vitest";
import { formatRelative } from "./time";

const now = new Date("2026-11-22T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe("formatRelative", () => {
  it("says Never when there is no time", () => {
    expect(formatRelative(null, now)).toBe("Never");
    expect(formatRelative(undefined, now)).toBe("Never");
  });

  it("says Just now under a minute, also for a clock slightly ahead", () => {
    expect(formatRelative(ago(59_000), now)).toBe("Just now");
    expect(formatRelative(ago(-5_000), now)).toBe("Just now");
  });

  it("counts minutes, hours and days with the right plural", () => {
    expect(formatRelative(ago(60_000), now)).toBe("1 minute ago");
    expect(formatRelative(ago(5 * 60_000), now)).toBe("5 minutes ago");
    expect(formatRelative(ago(60 * 60_000), now)).toBe("1 hour ago");
    expect(formatRelative(ago(23 * 60 * 60_000), now)).toBe("23 hours ago");
    expect(formatRelative(ago(24 * 60 * 60_000), now)).toBe("1 day ago");
    expect(formatRelative(ago(40 * 24 * 60 * 60_000), now)).toBe("40 days ago");
  });
});
