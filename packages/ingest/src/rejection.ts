/**
 * An upstream object the mappers refused, with why. Mappers return rejections instead of
 * throwing so one malformed object never costs its page; the sync logs each with the
 * page URL it came from and counts them in the run summary.
 */
export interface Rejection {
  kind: "event" | "market";
  key: string;
  reason: string;
}

export function rejection(
  kind: Rejection["kind"],
  raw: unknown,
  keyField: string,
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): Rejection {
  const value = raw && typeof raw === "object" ? (raw as Record<string, unknown>)[keyField] : undefined;
  const reason = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  return { kind, key: value === undefined || value === null ? "(no key)" : String(value), reason };
}
