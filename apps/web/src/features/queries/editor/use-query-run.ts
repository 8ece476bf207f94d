/**
 * One editor's runs: what is running (and for how long), its result or its failure, Cancel,
 * and the rule that nothing is sent while a parameter lacks a valid value (the input that
 * needs one takes the focus instead). One run at a time; a run outlives no editor (leaving
 * aborts it). The decisions are plain functions (`chartAfterRun`, `runFailureOf`) tested
 * without a browser.
 */
import {
  type ChartSpec,
  type QueryColumn,
  type QueryErrorDetails,
  type QueryResult,
  queryParameters,
  ZQueryErrorDetails,
} from "@epicenter/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { ApiRequestError } from "../../../lib/api";
import { RUN_HISTORY, runSql } from "../api";
import { parameterInputId } from "./ParameterInputs";
import { firstUnready, type ParameterValues, valuesFor } from "./parameters";
import { defaultChart } from "./ResultChart";

export type RunState =
  | { status: "idle" }
  | { status: "running"; startedAt: number }
  | { status: "done"; result: QueryResult; statement: string }
  | { status: "error"; message: string; details: QueryErrorDetails | null };

/** The chart the user chose, while its columns are still in the result; else one drawn from them. */
export function chartAfterRun(current: ChartSpec | null, columns: readonly QueryColumn[]): ChartSpec | null {
  const names = new Set(columns.map((column) => column.name));
  const fits =
    current !== null &&
    names.has(current.x) &&
    current.y.every((y) => names.has(y)) &&
    (current.series === undefined || names.has(current.series));
  return fits ? current : defaultChart(columns);
}

/** A failed run as the editor shows it: Cancel says so, the engine's error keeps its position. */
export function runFailureOf(error: unknown, isCancelled: boolean): Extract<RunState, { status: "error" }> {
  if (isCancelled) return { status: "error", message: "Query cancelled.", details: null };
  const details = error instanceof ApiRequestError ? ZQueryErrorDetails.safeParse(error.details) : null;
  return {
    status: "error",
    message: error instanceof Error ? error.message : "The query failed.",
    details: details?.success ? details.data : null,
  };
}

export interface QueryRun {
  run: RunState;
  /** Milliseconds the running query has taken, updated ten times a second. */
  elapsed: number;
  /** Whether a run was asked for with a parameter missing (the inputs then say what they need). */
  isRunAttempted: boolean;
  execute(): void;
  cancel(): void;
  /** The running query's controller, for the shortcuts that cancel it. */
  controller: RefObject<AbortController | null>;
}

export function useQueryRun({
  statementOf,
  limit,
  savedId,
  parameterValues,
  onResult,
}: {
  /** What Run runs: the selection when there is one, else the whole text. */
  statementOf: () => string;
  limit: number;
  savedId: string | null;
  parameterValues: ParameterValues;
  /** Called with each result's columns (the chart follows them). */
  onResult: (columns: readonly QueryColumn[]) => void;
}): QueryRun {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<RunState>({ status: "idle" });
  const [elapsed, setElapsed] = useState(0);
  const [isRunAttempted, setIsRunAttempted] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (run.status !== "running") return;
    const timer = setInterval(() => setElapsed(performance.now() - run.startedAt), 100);
    return () => clearInterval(timer);
  }, [run]);

  const execute = useCallback(() => {
    if (controller.current) return;
    // With text selected, Run runs the selection, with the values of its own parameters.
    const statement = statementOf();
    const statementParameters = queryParameters(statement);
    const unready = firstUnready(statementParameters, parameterValues);
    if (unready) {
      // Nothing is sent: the input that needs a value says why and takes the focus.
      setIsRunAttempted(true);
      document.getElementById(parameterInputId(unready.name))?.focus();
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setRun({ status: "running", startedAt: performance.now() });
    setElapsed(0);
    const params = statementParameters.length > 0 ? valuesFor(statementParameters, parameterValues) : undefined;
    runSql({ query: statement, limit, queryId: savedId ?? undefined, params }, abort.signal)
      .then((result) => {
        setRun({ status: "done", result, statement });
        onResult(result.columns);
      })
      .catch((error: unknown) => setRun(runFailureOf(error, abort.signal.aborted)))
      .finally(() => {
        controller.current = null;
        void queryClient.invalidateQueries({ queryKey: RUN_HISTORY });
      });
  }, [statementOf, limit, savedId, parameterValues, onResult, queryClient]);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { run, elapsed, isRunAttempted, execute, cancel, controller };
}
