import { describe, expect, it } from "vitest";
import { truncationNotice } from "./truncation";

describe("truncationNotice (issue 24, defect 4)", () => {
  it("says to raise the limit only while there is a higher one", () => {
    expect(truncationNotice({ row_count: 1000, truncated_by: "rows" }, 1000)).toBe(
      "Showing the first 1,000 rows; the query returned more. Raise the limit or download the whole result.",
    );
    expect(truncationNotice({ row_count: 100000, truncated_by: "rows" }, 100000)).toMatch(
      /^Showing the first 100,000 rows, the most one answer holds; .* Download the whole result/,
    );
  });

  it("says a result cut by its bytes needs a download, whatever the limit", () => {
    const notice = truncationNotice({ row_count: 8924, truncated_by: "bytes" }, 100000);
    expect(notice).toMatch(/^Showing the first 8,924 rows: the result is larger than the 32 MiB one answer holds\./);
    expect(notice).not.toMatch(/Raise the limit/);
  });
});
