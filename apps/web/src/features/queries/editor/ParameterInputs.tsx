/**
 * One labelled input per `{name:Type}` parameter of the statement, above the results: the
 * name and type as its label, a control that suits the type, and what is wrong with the
 * value underneath. A value that cannot be its type says so as it is typed; a missing one
 * once the input is left or a run is asked for. Enter in an input runs the query.
 */
import type { QueryParameter } from "@epicenter/contracts";
import { type KeyboardEvent, useState } from "react";
import { inputClassName } from "../../../ui/Field";
import { inputOf, type ParameterValues, parameterMessage } from "./parameters";
import styles from "./parameters.module.css";

/** The id of a parameter's input, so the editor can focus the one that needs a value. */
export const parameterInputId = (name: string) => `query-parameter-${name}`;

export function ParameterInputs({
  parameters,
  values,
  onChange,
  onRun,
  isRunAttempted,
}: {
  parameters: readonly QueryParameter[];
  values: ParameterValues;
  onChange: (name: string, value: string) => void;
  onRun: () => void;
  /** A run was asked for with a value missing: every missing value says so. */
  isRunAttempted: boolean;
}) {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  // A number input reports text it cannot read ("1e", "-") as an empty value; remember it.
  const [unreadable, setUnreadable] = useState<ReadonlySet<string>>(new Set());
  if (parameters.length === 0) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      onRun();
    }
  };
  const mark = (set: ReadonlySet<string>, name: string, isIn: boolean) => {
    if (set.has(name) === isIn) return set;
    const next = new Set(set);
    if (isIn) next.add(name);
    else next.delete(name);
    return next;
  };

  return (
    <fieldset className={styles.parameters} data-testid="query-parameters">
      <legend className={styles.legend}>Parameters</legend>
      {parameters.map(({ name, type }) => {
        const id = parameterInputId(name);
        const value = values[name] ?? "";
        const input = inputOf(type);
        const problem = unreadable.has(name) ? "Expected a number." : parameterMessage(type, value);
        const isShown =
          problem !== undefined && (value !== "" || unreadable.has(name) || touched.has(name) || isRunAttempted);
        const common = {
          id,
          className: `${inputClassName} ${styles.control} ${styles[input.kind]}`,
          "aria-invalid": isShown || undefined,
          "aria-describedby": isShown ? `${id}-problem` : undefined,
          onBlur: () => setTouched((current) => mark(current, name, true)),
          onKeyDown,
        };
        return (
          <div key={name} className={styles.parameter}>
            <label htmlFor={id} className={styles.label}>
              <span className={styles.name}>{name}</span> <span className={styles.type}>{type}</span>
            </label>
            {input.kind === "boolean" ? (
              <select {...common} value={value} onChange={(event) => onChange(name, event.target.value)}>
                <option value="">Choose…</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                {...common}
                type={input.kind === "text" ? "text" : input.kind}
                value={value}
                placeholder={input.kind === "text" ? input.placeholder : undefined}
                step={input.kind === "number" ? input.step : undefined}
                min={input.kind === "number" ? input.min : undefined}
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => {
                  const isUnreadable = event.target.validity.badInput;
                  setUnreadable((current) => mark(current, name, isUnreadable));
                  onChange(name, event.target.value);
                }}
              />
            )}
            {isShown ? (
              <span id={`${id}-problem`} className={styles.problem}>
                {problem}
              </span>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
