/**
 * Elasticsearch time values in settings ("1s", "500ms", "1m", "-1"), in milliseconds; the
 * fallback for a value that does not parse.
 */
const UNIT_MS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseTimeValue(v: string | undefined, fallbackMs: number): number {
  if (v === undefined) return fallbackMs;
  if (v.trim() === '-1') return -1;
  if (v.trim() === '0') return 0;
  // other values need a unit, as in Elasticsearch
  const m = /^(\d+)(nanos|micros|ms|s|m|h|d)$/.exec(v.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : fallbackMs;
}
