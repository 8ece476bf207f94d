/** One question and Seismo's answer as it streams: text, tool cards, report, and how it ended. */
import { CircleStop, TriangleAlert } from "lucide-react";
import { Fragment } from "react";
import type { Turn } from "../use-conversation";
import styles from "./answer.module.css";
import { Markdown } from "./Markdown";
import { ReportView } from "./ReportView";
import { ToolCard } from "./ToolCard";

const BOUND_NOTES: Record<string, string> = {
  step_limit: "Seismo reached its step limit for one question; the answer uses what it found so far.",
  tool_limit: "Seismo reached its tool-call limit for one question; the answer uses what it found so far.",
  repair_limit: "The engine still rejected the SQL after Seismo's repairs. Open it in the editor to fix it.",
};

export function TurnView({ turn }: { turn: Turn }) {
  const lastText = turn.parts.findLastIndex((part) => part.kind === "text");
  // A report shows where Seismo produced it, so the summary written after it reads below it.
  const hasInlineReport = turn.parts.some((part) => part.kind === "tool" && part.result?.report);
  return (
    <article className={styles.turn} aria-busy={turn.status === "streaming"}>
      <div className={styles.question}>
        <p>{turn.question}</p>
        <span className={styles.questionMode}>{turn.mode === "analyst" ? "Analyst" : "Query writer"}</span>
      </div>
      <div className={styles.answer} data-testid="seismo-answer">
        {turn.parts.map((part, index) =>
          part.kind === "text" ? (
            <div key={part.id} className={styles.textPart}>
              <Markdown text={part.text} checks={turn.sql} title={turn.question} />
              {turn.status === "streaming" && index === lastText && index === turn.parts.length - 1 ? (
                <span className={styles.caret} aria-hidden />
              ) : null}
            </div>
          ) : (
            <Fragment key={part.id}>
              <ToolCard part={part} />
              {part.result?.report ? <ReportView report={part.result.report} /> : null}
            </Fragment>
          ),
        )}
        {turn.status === "streaming" && turn.parts.length === 0 ? (
          <div className={styles.thinking} role="status">
            <span />
            <span />
            <span />
            Seismo is thinking
          </div>
        ) : null}
        {turn.report && !hasInlineReport ? <ReportView report={turn.report} /> : null}
        {turn.finishReason && BOUND_NOTES[turn.finishReason] ? (
          <p className={styles.note}>{BOUND_NOTES[turn.finishReason]}</p>
        ) : null}
        {turn.status === "stopped" ? (
          <p className={styles.note}>
            <CircleStop size={14} /> Stopped.
          </p>
        ) : null}
        {turn.status === "error" ? (
          <p className={styles.errorNote} role="alert">
            <TriangleAlert size={14} /> {turn.error}
          </p>
        ) : null}
      </div>
    </article>
  );
}
