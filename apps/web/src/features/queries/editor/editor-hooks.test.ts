/**
 * The editor's decisions behind its hooks, without a browser: what a run leaves of the
 * chart and how a failure reads (`useQueryRun`), what the editor opens with and when work
 * is unsaved (`useDraft`), and when leaving asks first (`useLeaveGuard`).
 */
import type { ChartSpec, QueryColumn } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../../../lib/api";
import { hasUnsavedWork, openingOf } from "./use-draft";
import { isEditorPath, mustAskBeforeLeaving } from "./use-leave-guard";
import { chartAfterRun, runFailureOf } from "./use-query-run";

const columns = (...names: string[]): QueryColumn[] =>
  names.map((name) => ({ name, type: name === "day" ? "Date" : "Float64" }));

describe("useQueryRun's decisions", () => {
  const chosen: ChartSpec = { kind: "chart", type: "bar", x: "day", y: ["volume"] };

  it("keeps the chart the user chose while its columns are in the result, else draws one from them", () => {
    expect(chartAfterRun(chosen, columns("day", "volume", "markets"))).toBe(chosen);
    const redrawn = chartAfterRun(chosen, columns("day", "markets"));
    expect(redrawn).not.toBe(chosen);
    expect(redrawn?.y).not.toContain("volume");
    expect(chartAfterRun({ ...chosen, series: "venue" }, columns("day", "volume"))).not.toEqual({
      ...chosen,
      series: "venue",
    });
  });

  it("says a cancelled run was cancelled, and keeps an engine error's position", () => {
    expect(runFailureOf(new Error("aborted"), true)).toEqual({
      status: "error",
      message: "Query cancelled.",
      details: null,
    });
    const failed = runFailureOf(
      new ApiRequestError(400, "invalid_sql", "Unknown identifier nope", {
        details: { position: { line: 1, column: 8, offset: 7 } },
      }),
      false,
    );
    expect(failed.message).toBe("Unknown identifier nope");
    expect(failed.details?.position).toEqual({ line: 1, column: 8, offset: 7 });
    expect(runFailureOf("a string thrown", false).message).toBe("The query failed.");
  });
});

describe("useDraft's decisions", () => {
  const saved = { sql: "SELECT 1", title: "Saved" };

  it("opens with the draft a reload left, over what the query holds", () => {
    expect(openingOf(saved, undefined)).toEqual(saved);
    expect(openingOf(saved, { sql: "SELECT 2", title: "Saved" })).toEqual({ sql: "SELECT 2", title: "Saved" });
  });

  it("counts the text or the title changed as unsaved work, and nothing else", () => {
    expect(hasUnsavedWork(saved, { ...saved })).toBe(false);
    expect(hasUnsavedWork(saved, { ...saved, sql: "SELECT 1 " })).toBe(true);
    expect(hasUnsavedWork(saved, { ...saved, title: "Renamed" })).toBe(true);
  });
});

describe("useLeaveGuard's decisions", () => {
  const leave = (change: Partial<Parameters<typeof mustAskBeforeLeaving>[0]>) =>
    mustAskBeforeLeaving({ isDirty: true, isLeavingSaved: false, from: "/queries/new", to: "/datasets", ...change });

  it("asks before unsaved work leaves the editor", () => {
    expect(leave({})).toBe(true);
    expect(leave({ isDirty: false })).toBe(false);
  });

  it("does not ask on the way to the query just saved, though the save's state has not landed yet", () => {
    expect(leave({ isLeavingSaved: true, to: "/queries/0d9f5a3e-1c2b-4e5f-8a7b-6c5d4e3f2a1b" })).toBe(false);
    expect(leave({ isLeavingSaved: true, to: "/datasets" })).toBe(false);
  });

  it("does not ask between query tabs, nor for a change of the URL's search alone", () => {
    expect(isEditorPath("/queries/new")).toBe(true);
    expect(isEditorPath("/queries")).toBe(false);
    expect(leave({ to: "/queries/new" })).toBe(false);
    expect(leave({ to: "/queries/new", from: "/queries/new" })).toBe(false);
    expect(leave({ to: "/queries" })).toBe(true);
  });
});
