import { describe, expect, it } from "vitest";
import { editorUrl, paramValuesOf, prefillOf, withParamValues } from "./editor-link";

describe("parameter values in the editor's URL", () => {
  it("reads param_<name> as the value of {name:Type}", () => {
    const params = new URLSearchParams("sql=SELECT+1&param_days=7&param_market_id=512272&title=t");
    expect(paramValuesOf(params)).toEqual({ days: "7", market_id: "512272" });
  });

  it("ignores keys that are not a parameter name", () => {
    expect(paramValuesOf(new URLSearchParams("param_=1&param_a-b=2&param_1x=3&paramx=4&days=5"))).toEqual({});
  });

  it("keeps values exactly, spaces, quotes and ampersands included", () => {
    const values = { q: "Trump & 'Biden' 100%", when: "2025-01-01 10:00:00" };
    const params = withParamValues(new URLSearchParams(), values);
    expect(paramValuesOf(new URLSearchParams(params.toString()))).toEqual(values);
  });

  it("replaces the parameter values and keeps everything else", () => {
    const params = new URLSearchParams("sql=SELECT+1&param_days=7&param_gone=1&title=t");
    const next = withParamValues(params, { days: "30", market_id: "512272", empty: "" });
    expect(next.toString()).toBe("sql=SELECT+1&title=t&param_days=30&param_market_id=512272");
    expect(params.get("param_gone")).toBe("1");
  });

  it("puts the values on a prefill link, which still opens the same statement", () => {
    const url = editorUrl({ sql: "SELECT {days:UInt16}", title: "Window" }, { days: "7" });
    const params = new URL(url, "http://x").searchParams;
    expect(url.startsWith("/queries/new?")).toBe(true);
    expect(paramValuesOf(params)).toEqual({ days: "7" });
    expect(prefillOf(params)).toEqual({ sql: "SELECT {days:UInt16}", title: "Window" });
  });
});
