/** Example questions for the four kinds of people the product serves (SPEC §1). */
import type { AssistantMode } from "@epicenter/contracts";
import { Code2, type LucideIcon, Megaphone, Microscope, TrendingUp } from "lucide-react";
import styles from "../intelligence.module.css";

interface Example {
  audience: string;
  icon: LucideIcon;
  prompts: Array<{ text: string; mode: AssistantMode }>;
}

export const EXAMPLES: Example[] = [
  {
    audience: "Traders",
    icon: TrendingUp,
    prompts: [
      { text: "Which open Polymarket markets had the biggest 24h volume?", mode: "query_writer" },
      { text: "Which markets moved most in probability over the last day?", mode: "analyst" },
    ],
  },
  {
    audience: "Researchers",
    icon: Microscope,
    prompts: [
      { text: "How has the average yes probability of open markets changed over the last 7 days?", mode: "analyst" },
      { text: "Show one Kalshi event's markets with their last price and open interest", mode: "query_writer" },
    ],
  },
  {
    audience: "Developers",
    icon: Code2,
    prompts: [
      { text: "Write the latest-row query for Kalshi markets, one row per ticker", mode: "query_writer" },
      { text: "Join Polymarket markets to their events with the event title", mode: "query_writer" },
    ],
  },
  {
    audience: "Content creators",
    icon: Megaphone,
    prompts: [
      { text: "What are the most traded election markets right now, and what do they say?", mode: "analyst" },
      { text: "Compare open markets and 24h volume on Polymarket and Kalshi", mode: "analyst" },
    ],
  },
];

export function ExamplePrompts({ onPick }: { onPick: (text: string, mode: AssistantMode) => void }) {
  return (
    <div className={styles.examples}>
      {EXAMPLES.map(({ audience, icon: Icon, prompts }) => (
        <section key={audience} className={styles.exampleGroup}>
          <h3>
            <Icon size={14} />
            {audience}
          </h3>
          {prompts.map((prompt) => (
            <button
              key={prompt.text}
              type="button"
              className={styles.examplePrompt}
              onClick={() => onPick(prompt.text, prompt.mode)}
            >
              <span>{prompt.text}</span>
              <span className={styles.exampleMode}>{prompt.mode === "analyst" ? "Analyst" : "SQL"}</span>
            </button>
          ))}
        </section>
      ))}
    </div>
  );
}
