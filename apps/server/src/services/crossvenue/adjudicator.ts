/**
 * The cross-venue adjudicator's transport: where Seismo's endpoint is configured, the pairs
 * the matcher's rules cannot settle are put to the same model, asking for an answer that
 * follows `ZJudgement`'s JSON schema. What is asked and how an answer is checked live in
 * `@epicenter/ingest` (`crossvenue/adjudication.ts`); without an endpoint there is no
 * adjudicator and the matcher works alone.
 */
import { type Adjudicator, ZJudgement } from "@epicenter/ingest";
import { generateText, Output } from "ai";
import { isSeismoConfigured, type SeismoConfig, seismoModel } from "../seismo/provider";

export function seismoAdjudicator(config: SeismoConfig): Adjudicator | undefined {
  const model = seismoModel(config, { structuredOutputs: true });
  if (!model || !isSeismoConfigured(config)) return undefined;
  return {
    model: config.model,
    async judge({ system, prompt }, signal) {
      const { output } = await generateText({
        model,
        system,
        prompt,
        output: Output.object({ schema: ZJudgement, name: "pair_judgement" }),
        temperature: 0,
        maxRetries: 1,
        abortSignal: signal,
      });
      return ZJudgement.parse(output);
    },
  };
}
