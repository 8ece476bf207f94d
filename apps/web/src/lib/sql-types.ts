/**
 * Engine types as the product shows them: Nullable removed, DateTime64 → DateTime,
 * Float32/64 → Float, Int8…Int256 → Int, UInt8…UInt256 → UInt (SPEC §2, /datasets).
 * LowCardinality is a storage detail and is removed as well.
 */
export function simplifyType(type: string): string {
  let simplified = type;
  for (const wrapper of ["Nullable", "LowCardinality"]) {
    simplified = simplified.replace(new RegExp(`${wrapper}\\(([^()]*(?:\\([^()]*\\))?[^()]*)\\)`, "g"), "$1");
  }
  return simplified
    .replace(/DateTime64(\([^)]*\))?/g, "DateTime")
    .replace(/DateTime\('[^']*'\)/g, "DateTime")
    .replace(/\bFloat(32|64)\b/g, "Float")
    .replace(/\bUInt(8|16|32|64|128|256)\b/g, "UInt")
    .replace(/\bInt(8|16|32|64|128|256)\b/g, "Int");
}

/** Whether values of this type line up on the right, as numbers do. */
export function isNumericType(type: string): boolean {
  return /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/.test(type);
}

/** Whether this type is a date or time (a chart's natural x axis). */
export function isTemporalType(type: string): boolean {
  return /Date/.test(type);
}
