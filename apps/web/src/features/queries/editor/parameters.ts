/**
 * The editor's side of ClickHouse's typed parameters (`{days:UInt16}`): which input each
 * type gets, what is wrong with a value as the user reads it under the input, and which
 * values a run sends. Finding the parameters and checking a value against its type are the
 * contracts' (`queryParameters`, `paramTypeProblem`), shared with the server, so the editor
 * and a 400 from the API say the same thing; the engine binds the values.
 */
import { paramTypeProblem, type QueryParameter } from "@epicenter/contracts";

/** The control a parameter is typed into. */
export type ParameterInput =
  | { kind: "number"; step: "1" | "any"; min?: string }
  | { kind: "date" }
  | { kind: "boolean" }
  | { kind: "text"; placeholder?: string };

/** Values typed so far, by parameter name; an empty input is no value. */
export type ParameterValues = Readonly<Record<string, string>>;

const WHOLE_NUMBER = /^(U?)Int(8|16|32|64|128|256)$/;
const FRACTIONAL = /^(Float(32|64)|BFloat16|Decimal(32|64|128|256)?(\(.*\))?)$/;

/**
 * A number input for whole and fractional numbers, the browser's date picker for dates, a
 * true/false choice for booleans, and text for everything else. `Nullable(…)` stays text so
 * `\N` (NULL) can be typed; `LowCardinality(…)` is its inner type.
 */
export function inputOf(type: string): ParameterInput {
  const inner = /^LowCardinality\((.*)\)$/.exec(type)?.[1];
  if (inner) return inputOf(inner);
  const nullable = /^Nullable\((.*)\)$/.exec(type)?.[1];
  if (nullable) {
    const base = inputOf(nullable);
    const hint = base.kind === "text" && base.placeholder ? `${base.placeholder}, or \\N` : "\\N for NULL";
    return { kind: "text", placeholder: hint };
  }
  const whole = WHOLE_NUMBER.exec(type);
  if (whole) return whole[1] === "U" ? { kind: "number", step: "1", min: "0" } : { kind: "number", step: "1" };
  if (FRACTIONAL.test(type)) return { kind: "number", step: "any" };
  if (type === "Date" || type === "Date32") return { kind: "date" };
  if (type === "Bool" || type === "Boolean") return { kind: "boolean" };
  if (/^DateTime(64)?(\(.*\))?$/.test(type)) return { kind: "text", placeholder: "YYYY-MM-DD hh:mm:ss" };
  if (type === "UUID") return { kind: "text", placeholder: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" };
  if (type.startsWith("Array(")) {
    return {
      kind: "text",
      placeholder: /^Array\((Nullable\()?(String|FixedString|Date)/.test(type) ? "['a', 'b']" : "[1, 2]",
    };
  }
  return { kind: "text" };
}

/**
 * What the user is told under a parameter's input: that it needs a value, or what its type
 * expects; undefined when the value will do (the engine has the last word).
 */
export function parameterMessage(type: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return "Enter a value.";
  const expected = paramTypeProblem(type, value);
  return expected ? `Expected ${expected}.` : undefined;
}

/** The first of `parameters` without a usable value, to focus when a run is asked for. */
export function firstUnready(
  parameters: readonly QueryParameter[],
  values: ParameterValues,
): QueryParameter | undefined {
  return parameters.find((parameter) => parameterMessage(parameter.type, values[parameter.name]) !== undefined);
}

/**
 * The values of `parameters` that have one, in the parameters' order: what a run sends as
 * `params` and what the URL keeps. Values of names the statement no longer uses stay in
 * the editor (they come back when the name does) but are neither sent nor shared.
 */
export function valuesFor(parameters: readonly QueryParameter[], values: ParameterValues): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const { name } of parameters) {
    const value = values[name];
    if (value !== undefined && value !== "") picked[name] = value;
  }
  return picked;
}
