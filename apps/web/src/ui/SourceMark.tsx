/**
 * The venues' marks, drawn here (no third-party assets at run time): Polymarket blue,
 * Kalshi green, the system in the product's accent.
 */
export type SourceName = "Polymarket" | "Kalshi" | "Cross-venue" | "System" | "Other";

const MARKS: Record<SourceName, { color: string; letter: string }> = {
  Polymarket: { color: "var(--polymarket)", letter: "P" },
  Kalshi: { color: "var(--kalshi)", letter: "K" },
  // Both venues' letters, in the product's accent: tables that pair one with the other.
  "Cross-venue": { color: "var(--accent)", letter: "PK" },
  System: { color: "var(--accent)", letter: "S" },
  Other: { color: "var(--text-faint)", letter: "?" },
};

/** A venue's or a namespace's mark, by the name the product writes; an unknown name gets Other's. */
export function SourceMark({ source, size = 32 }: { source: SourceName | string; size?: number }) {
  const mark = MARKS[source as SourceName] ?? MARKS.Other;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={`${source} logo`}>
      <rect width="32" height="32" rx="8" style={{ fill: "var(--mark-tile)" }} />
      <rect x="0.5" y="0.5" width="31" height="31" rx="7.5" fill="none" stroke={mark.color} strokeOpacity="0.45" />
      {source === "Polymarket" ? (
        <path
          d="M11 8.5h7.2a5.3 5.3 0 0 1 0 10.6H14.6V23.5H11Z M14.6 12v3.6h3.4a1.8 1.8 0 0 0 0-3.6Z"
          fill={mark.color}
          fillRule="evenodd"
        />
      ) : source === "Kalshi" ? (
        <path d="M10.5 8.5h3.6v6l5.6-6h4.6l-6.6 6.9 6.9 8.1h-4.7l-5.8-6.9v6.9h-3.6Z" fill={mark.color} />
      ) : (
        <text
          x="16"
          y={mark.letter.length > 1 ? 20 : 21}
          textAnchor="middle"
          fontSize={mark.letter.length > 1 ? 11 : 14}
          fontWeight="700"
          fill={mark.color}
          fontFamily="inherit"
        >
          {mark.letter}
        </text>
      )}
    </svg>
  );
}
