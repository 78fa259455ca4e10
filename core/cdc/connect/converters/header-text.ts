/**
 * A header value as Kafka Connect's SimpleHeaderConverter writes it (Values.convertToString at
 * tag 3.9.0): null stays null, a string is itself, numbers and booleans print as text, and a
 * struct or map prints as `{"id":100}` with strings inside quoted, only backslash and double
 * quote escaped.
 */
export function headerText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  return embedded(value);
}

function embedded(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  if (Array.isArray(v)) return `[${v.map(embedded).join(',')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${embedded(k)}:${embedded(x)}`)
      .join(',')}}`;
  }
  return String(v);
}
