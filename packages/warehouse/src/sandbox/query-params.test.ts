/** The `{name:Type}` parameters the sandbox binds, found in the text as the engine reads it (contracts holds the reader; its package takes no test runner). */

import { paramsProblem, queryParameters } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";

const names = (sql: string) => queryParameters(sql).map((parameter) => `${parameter.name}:${parameter.type}`);

describe("queryParameters", () => {
  it("finds each parameter once, in order of first use", () => {
    expect(names("SELECT {a:String}, { b : Array(UInt8) } WHERE x = {a:String}")).toEqual([
      "a:String",
      "b:Array(UInt8)",
    ]);
  });

  // As the engine reads them (issue 44): braces in these mean nothing.
  it.each([
    "SELECT '{a:String}'",
    "SELECT `{a:String}`",
    "SELECT $$ {a:String} $$",
    "SELECT $t$ {a:String} $t$",
    "SELECT 1 /* outer /* inner */ {a:String} */",
    "SELECT 1 -- {a:String}",
    "SELECT 1 # {a:String}",
  ])("skips %j", (sql) => {
    expect(names(sql)).toEqual([]);
  });

  it("reads x$a$ as one name, not the start of a heredoc", () => {
    expect(names("SELECT 1 AS x$a$, {a:String} AS w$a$")).toEqual(["a:String"]);
  });

  it("asks no value for a parameter inside a heredoc", () => {
    expect(paramsProblem("SELECT $$ {a:String} $$ AS s", {})).toBeUndefined();
    expect(paramsProblem("SELECT {a:String} AS s", {})).toBe("Parameter a (String) has no value.");
  });
});
