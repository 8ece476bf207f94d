/**
 * One conversation with Seismo, held in the page: each turn is the question and what
 * streamed back, in arrival order (text blocks and tool cards interleaved), plus the SQL
 * blocks, the report and how it ended. The server keeps no conversation state, so the
 * history sent with each question is built from the finished turns here.
 */
import type {
  AssistantEvent,
  AssistantMode,
  AssistantReport,
  ConversationMessage,
  SqlBlock,
  ToolResultEvent,
} from "@epicenter/contracts";
import { useCallback, useRef, useState } from "react";
import { SeismoUnavailableError, streamAssistant } from "./api";

export interface TextPart {
  kind: "text";
  id: string;
  text: string;
}

export interface ToolPart {
  kind: "tool";
  id: string;
  tool: Extract<AssistantEvent, { type: "tool_call" }>["tool"];
  input: Record<string, unknown>;
  isCheck: boolean;
  result: ToolResultEvent | null;
}

export type TurnStatus = "streaming" | "done" | "stopped" | "error";

export interface Turn {
  id: number;
  question: string;
  mode: AssistantMode;
  parts: Array<TextPart | ToolPart>;
  sql: SqlBlock[];
  report: AssistantReport | null;
  answer: string;
  status: TurnStatus;
  error: string | null;
  finishReason: string | null;
}

const MAX_HISTORY = 20;

export function applyEvent(turn: Turn, event: AssistantEvent): Turn {
  switch (event.type) {
    case "text_start":
      return { ...turn, parts: [...turn.parts, { kind: "text", id: event.id, text: "" }] };
    case "text_delta": {
      const parts = [...turn.parts];
      const index = parts.findLastIndex((part) => part.kind === "text" && part.id === event.id);
      const part = parts[index];
      if (part?.kind === "text") parts[index] = { ...part, text: part.text + event.delta };
      else parts.push({ kind: "text", id: event.id, text: event.delta });
      return { ...turn, parts };
    }
    case "tool_call":
      return {
        ...turn,
        parts: [
          ...turn.parts,
          { kind: "tool", id: event.id, tool: event.tool, input: event.input, isCheck: event.is_check, result: null },
        ],
      };
    case "tool_result":
      return {
        ...turn,
        parts: turn.parts.map((part) =>
          part.kind === "tool" && part.id === event.id ? { ...part, result: event } : part,
        ),
        report: event.report ?? turn.report,
      };
    case "sql":
      return { ...turn, sql: [...turn.sql, event] };
    case "complete":
      return {
        ...turn,
        status: "done",
        answer: event.text,
        report: event.report ?? turn.report,
        finishReason: event.finish_reason,
      };
    case "error":
      return { ...turn, status: "error", error: event.message };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

function historyOf(turns: readonly Turn[]): ConversationMessage[] {
  return turns
    .filter((turn) => turn.status === "done" || turn.status === "stopped")
    .flatMap((turn): ConversationMessage[] => {
      const answer =
        turn.answer ||
        turn.parts
          .filter((part): part is TextPart => part.kind === "text")
          .map((part) => part.text)
          .join("\n\n");
      return answer
        ? [
            { role: "user", content: turn.question },
            { role: "assistant", content: answer.slice(0, 20_000) },
          ]
        : [];
    })
    .slice(-MAX_HISTORY);
}

export function useConversation() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [isUnavailable, setIsUnavailable] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const turnsRef = useRef(turns);
  turnsRef.current = turns;

  const update = useCallback((id: number, change: (turn: Turn) => Turn) => {
    setTurns((current) => current.map((turn) => (turn.id === id ? change(turn) : turn)));
  }, []);

  const ask = useCallback(
    async (question: string, mode: AssistantMode) => {
      if (controller.current) return;
      const id = nextId.current++;
      const history = historyOf(turnsRef.current);
      const turn: Turn = {
        id,
        question,
        mode,
        parts: [],
        sql: [],
        report: null,
        answer: "",
        status: "streaming",
        error: null,
        finishReason: null,
      };
      setTurns((current) => [...current, turn]);
      const abort = new AbortController();
      controller.current = abort;
      try {
        await streamAssistant(
          { message: question, mode, conversation_history: history },
          (event) => update(id, (current) => applyEvent(current, event)),
          abort.signal,
        );
        update(id, (current) =>
          current.status === "streaming"
            ? { ...current, status: "error", error: "The answer ended early. Ask again." }
            : current,
        );
      } catch (error) {
        if (abort.signal.aborted) {
          update(id, (current) => ({ ...current, status: "stopped" }));
        } else {
          if (error instanceof SeismoUnavailableError) setIsUnavailable(error.message);
          const message = error instanceof Error ? error.message : String(error);
          update(id, (current) => ({ ...current, status: "error", error: message }));
        }
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [update],
  );

  const stop = useCallback(() => {
    controller.current?.abort();
  }, []);

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setTurns([]);
  }, []);

  const isStreaming = turns.some((turn) => turn.status === "streaming");
  return { turns, ask, stop, reset, isStreaming, isUnavailable };
}
