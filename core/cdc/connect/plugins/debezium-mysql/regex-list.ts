/**
 * A Debezium list of regular expressions (Strings.setOfRegex with CASE_INSENSITIVE): comma
 * separated, each trimmed, matched against the whole name.
 */
export function regexList(v: string): RegExp[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => new RegExp(`^(?:${s})$`, 'i'));
}
