import { describe, expect, it } from "vitest";
import { defuseCsvCells } from "./csv-cells";

async function defuse(...chunks: string[]): Promise<string> {
  const parts: Buffer[] = [];
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  for await (const part of defuseCsvCells(source())) parts.push(part);
  return Buffer.concat(parts).toString("utf8");
}

describe("defuseCsvCells", () => {
  it("puts a quote mark before text cells a spreadsheet would run, and leaves numbers alone", async () => {
    const csv = '"s","f"\n"=1+2",-5\n"+x","@SUM(A1)"\n"-y",-1.5e300\n"\tz","\rw"\n"ok","a=b"\n';
    expect(await defuse(csv)).toBe(
      `"s","f"\n"'=1+2",-5\n"'+x","'@SUM(A1)"\n"'-y",-1.5e300\n"'\tz","'\rw"\n"ok","a=b"\n`,
    );
  });

  it("reads escaped quotes and line breaks inside cells, across chunk boundaries", async () => {
    const csv = '"a ""=x"" b","=HYPERLINK(""http://evil"")"\n"line\n=two",\\N\n';
    const whole = await defuse(csv);
    expect(whole).toBe('"a ""=x"" b","\'=HYPERLINK(""http://evil"")"\n"line\n=two",\\N\n');
    // The same bytes cut at every position give the same answer.
    for (let cut = 1; cut < csv.length; cut++) {
      expect(await defuse(csv.slice(0, cut), csv.slice(cut))).toBe(whole);
    }
  });

  it("leaves a cell that only starts with an escaped quote as it is", async () => {
    expect(await defuse('"""=x"""\n')).toBe('"""=x"""\n');
  });
});
