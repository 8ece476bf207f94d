/** Seismo, the AI assistant (SPEC §3 "Assistant stream events", §7). */
import type { Endpoint } from "./endpoint";

/** The assistant's endpoints; merged into `endpoints`. */
export const assistantEndpoints = {} satisfies Record<string, Endpoint>;
