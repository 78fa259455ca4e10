/**
 * Lucene's Explanation: a value, a description and details. `match` is kept for the logic that
 * builds parent nodes (Lucene's isMatch); it is not part of Elasticsearch's JSON. `integer` marks
 * values Lucene holds as a long (counts such as n and N), which print without a decimal point.
 */
export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
  match: boolean;
  integer?: boolean;
}

export function match(value: number, description: string, ...details: Explanation[]): Explanation {
  return { value, description, details, match: true };
}

export function matchLong(value: number, description: string): Explanation {
  return { value, description, details: [], match: true, integer: true };
}

export function noMatch(description: string, ...details: Explanation[]): Explanation {
  return { value: 0, description, details, match: false };
}

/** The JSON Elasticsearch returns (`{value, description, details}`), still with plain numbers. */
export interface ExplanationJson {
  value: number;
  description: string;
  details: ExplanationJson[];
}

export function toJson(e: Explanation): ExplanationJson {
  const out: ExplanationJson = { value: e.value, description: e.description, details: e.details.map(toJson) };
  if (e.integer) Object.defineProperty(out, INTEGER_VALUE, { value: true, enumerable: false });
  return out;
}

/** Marks explanation JSON nodes whose value is a Java long, for the wire serializer. */
export const INTEGER_VALUE = Symbol.for('loupe.search.integerValue');
