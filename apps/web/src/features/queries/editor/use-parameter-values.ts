/**
 * The values of the editor's `{name:Type}` parameters, kept in the URL as `param_<name>`
 * (ClickHouse's convention) so a shared or bookmarked link reproduces the run. The URL
 * holds the values of the parameters the SQL uses now; values typed for a name the SQL has
 * since dropped stay in memory and come back with the name, so editing the SQL never loses
 * them. A saved query opens with the values it was saved with, under any the URL gives.
 */
import { type QueryParameter, queryParameters } from "@epicenter/contracts";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { paramValuesOf, withParamValues } from "../../../ui/editor-link";
import { type ParameterValues, valuesFor } from "./parameters";

export interface ParameterState {
  /** The statement's parameters, in order of first use. */
  parameters: QueryParameter[];
  /** Every value typed, by name, including names the SQL no longer uses. */
  values: ParameterValues;
  /** The non-empty values of `parameters`: what the URL, a fork and a saved link carry. */
  current: Record<string, string>;
  setValue(name: string, value: string): void;
}

export function useParameterValues(sql: string, saved?: Readonly<Record<string, string>>): ParameterState {
  const [search, setSearch] = useSearchParams();
  const [values, setValues] = useState<ParameterValues>(() => ({ ...saved, ...paramValuesOf(search) }));
  const parameters = useMemo(() => queryParameters(sql), [sql]);
  const current = useMemo(() => valuesFor(parameters, values), [parameters, values]);

  useEffect(() => {
    const next = withParamValues(search, current);
    // Replace, not push: typing a value is not a step the Back button should undo.
    if (next.toString() !== search.toString()) setSearch(next, { replace: true });
  }, [search, setSearch, current]);

  const setValue = useCallback((name: string, value: string) => {
    setValues((previous) => ({ ...previous, [name]: value }));
  }, []);
  return { parameters, values, current, setValue };
}
