/**
 * /intelligence: a conversation with Seismo. Questions go to the stream endpoint with the
 * mode and the conversation so far; the answer streams in as markdown with tool cards,
 * runnable SQL blocks and reports with charts. Loaded lazily, in its own chunk.
 */
import type { AssistantMode } from "@epicenter/contracts";
import { ArrowUp, Database, LineChart, RotateCcw, Sparkles, Square } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useDocumentTitle } from "../../lib/document-title";
import { Button } from "../../ui/Button";
import { PageHeader } from "../../ui/PageHeader";
import { useSeismoConfigured } from "./api";
import { ExamplePrompts } from "./components/ExamplePrompts";
import { SetupNotice } from "./components/SetupNotice";
import { TurnView } from "./components/TurnView";
import styles from "./intelligence.module.css";
import { useConversation } from "./use-conversation";

const MODES: Array<{ value: AssistantMode; label: string; hint: string; icon: typeof Database }> = [
  { value: "query_writer", label: "Query writer", hint: "Answers with checked SQL", icon: Database },
  { value: "analyst", label: "Analyst", hint: "Runs queries, reports findings", icon: LineChart },
];

export function IntelligencePage() {
  useDocumentTitle("Seismo");
  const isConfigured = useSeismoConfigured();
  const { turns, ask, stop, reset, isStreaming, isUnavailable } = useConversation();
  const [mode, setMode] = useState<AssistantMode>("query_writer");
  const [draft, setDraft] = useState("");
  const endRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const showSetup = isConfigured === false || isUnavailable !== null;

  const lastTurn = turns.at(-1);
  const lastLength = lastTurn ? lastTurn.parts.length + (lastTurn.report ? 1 : 0) : 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the conversation as turns and parts arrive
  useEffect(() => {
    if (turns.length > 0) endRef.current?.scrollIntoView({ block: "end", behavior: "smooth" });
  }, [turns.length, lastLength, lastTurn?.status]);

  const send = (text: string, asMode: AssistantMode = mode) => {
    const question = text.trim();
    if (!question || isStreaming) return;
    setDraft("");
    void ask(question, asMode);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(draft);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send(draft);
    }
  };

  return (
    <div className={styles.page}>
      <PageHeader
        className={styles.header}
        eyebrow={
          <>
            <Sparkles size={12} /> Seismo
          </>
        }
        title="Intelligence"
        description="Ask in plain words. Seismo writes ClickHouse SQL for the archive, or runs it and reports what it finds."
        actions={
          <div className={styles.headerActions}>
            <fieldset className={styles.modeSwitch} aria-label="Mode">
              {MODES.map(({ value, label, hint, icon: Icon }) => (
                <label key={value} className={styles.modeOption} title={hint} data-checked={mode === value}>
                  <input
                    type="radio"
                    name="seismo-mode"
                    value={value}
                    checked={mode === value}
                    onChange={() => setMode(value)}
                  />
                  <Icon size={14} />
                  {label}
                </label>
              ))}
            </fieldset>
            <Button
              variant="ghost"
              size="sm"
              icon={<RotateCcw size={14} />}
              onClick={() => {
                reset();
                inputRef.current?.focus();
              }}
              disabled={turns.length === 0}
              aria-label="New conversation"
            >
              <span className={styles.newLabel}>New conversation</span>
            </Button>
          </div>
        }
      />

      <div className={styles.thread}>
        {showSetup ? <SetupNotice message={isUnavailable} /> : null}
        {turns.length === 0 && !showSetup ? (
          <div className={styles.empty}>
            <h2>What do you want to know about the markets?</h2>
            <p>Pick an example or write your own question. Every SQL block can be run here or opened in the editor.</p>
            <ExamplePrompts
              onPick={(text, exampleMode) => {
                setMode(exampleMode);
                send(text, exampleMode);
              }}
            />
          </div>
        ) : null}
        {turns.map((turn) => (
          <TurnView key={turn.id} turn={turn} />
        ))}
        <div ref={endRef} />
      </div>

      <form className={styles.composer} onSubmit={onSubmit}>
        <textarea
          ref={inputRef}
          className={styles.input}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={
            mode === "analyst" ? "Ask for an analysis, e.g. how did volume change this week?" : "Ask for a query…"
          }
          aria-label="Ask Seismo"
          rows={1}
          maxLength={8000}
          disabled={showSetup}
        />
        {isStreaming ? (
          <Button variant="danger" size="md" icon={<Square size={14} />} onClick={stop} className={styles.sendButton}>
            Stop
          </Button>
        ) : (
          <Button
            type="submit"
            variant="accent"
            size="md"
            icon={<ArrowUp size={16} />}
            disabled={!draft.trim() || showSetup}
            className={styles.sendButton}
            aria-label="Send"
          >
            Ask
          </Button>
        )}
      </form>
    </div>
  );
}
