import { endpoints } from "@epicenter/contracts";
import { track } from "../../lib/analytics";
import { ApiRequestError, call } from "../../lib/api";

export type MagicLinkOutcome = { kind: "sent" } | { kind: "waitlist" } | { kind: "error"; message: string | null };

/**
 * Asks the server for a sign-in link and sorts the answer into the spec's three outcomes.
 * An error carries the server's own message, or null: the page and the modal each word
 * the fallback their own way.
 */
export async function requestMagicLink(email: string, redirectTo?: string): Promise<MagicLinkOutcome> {
  try {
    await call(endpoints.requestMagicLink, { body: { email, ...(redirectTo ? { redirect_to: redirectTo } : {}) } });
    return { kind: "sent" };
  } catch (error) {
    if (error instanceof ApiRequestError && error.message.includes("not whitelisted")) {
      track({ name: "waitlist_joined", properties: {} });
      return { kind: "waitlist" };
    }
    return {
      kind: "error",
      message: error instanceof ApiRequestError && error.serverMessage ? error.serverMessage : null,
    };
  }
}
