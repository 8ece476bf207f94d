/** The Epicenter mark: a source and its spreading waves. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" style={{ fill: "var(--mark-tile)" }} />
      <circle cx="16" cy="16" r="3.2" fill="var(--accent)" />
      <circle cx="16" cy="16" r="7.5" fill="none" stroke="var(--accent)" strokeWidth="1.6" opacity=".65" />
      <circle cx="16" cy="16" r="12" fill="none" stroke="var(--accent)" strokeWidth="1.2" opacity=".3" />
    </svg>
  );
}
