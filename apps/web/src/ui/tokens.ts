/**
 * A design token's value read from `styles/tokens.css`, for the one place that cannot take
 * `var()`: colours recharts writes into SVG presentation attributes (`fill`, `stroke`),
 * where `var()` is not reliable. CSS, inline styles and CodeMirror's theme use `var()`.
 */
export function tokenValue(name: `--${string}`): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
