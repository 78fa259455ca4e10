/**
 * Elasticsearch's JSON on the wire: scores (`_score`, `max_score`) and explanation values are
 * Java floats, printed as Java prints them (1.6943598, 2.2, 3.0), while counts stay integers.
 * `?pretty` output uses Elasticsearch's layout (two spaces, `"key" : value`).
 */
import { javaDoubleString, javaFloatString } from '../similarity/java-float.js';
import { sortPrintOf } from '../sort-values.js';
import { INTEGER_VALUE } from '../similarity/explanation.js';
import { rawTextOf } from '../raw-json.js';

const FLOAT_KEYS = new Set(['_score', 'max_score']);

function floatText(n: number): string {
  return Number.isFinite(n) ? javaFloatString(n) : 'null';
}

function isExplanationNode(o: Record<string, unknown>): boolean {
  return typeof o.description === 'string' && typeof o.value === 'number' && Array.isArray(o.details);
}

export function toEsJson(value: unknown, pretty = false): string {
  const out: string[] = [];
  write(value, undefined, false, pretty ? 0 : -1, out, false);
  return out.join('');
}

/** `plain` is set inside documents (`_source`): their numbers are printed as stored. */
function write(value: unknown, key: string | undefined, floatValue: boolean, indent: number, out: string[], plain: boolean): void {
  if (value === null || value === undefined) {
    out.push('null');
    return;
  }
  if (typeof value === 'number') {
    if (!plain && (floatValue || (key !== undefined && FLOAT_KEYS.has(key)))) out.push(floatText(value));
    else out.push(Number.isFinite(value) ? JSON.stringify(value) : 'null');
    return;
  }
  if (typeof value === 'string' || typeof value === 'boolean') {
    out.push(JSON.stringify(value));
    return;
  }
  if (typeof value === 'bigint') {
    out.push(value.toString());
    return;
  }
  const nl = indent >= 0 ? '\n' + '  '.repeat(indent + 1) : '';
  const end = indent >= 0 ? '\n' + '  '.repeat(indent) : '';
  const sep = indent >= 0 ? ' : ' : ':';
  const next = indent >= 0 ? indent + 1 : -1;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[ ]'.replace(' ', indent >= 0 ? ' ' : ''));
      return;
    }
    out.push('[');
    const prints = !plain && key === 'sort' ? sortPrintOf(value) : undefined;
    value.forEach((v, i) => {
      if (i > 0) out.push(',');
      out.push(nl);
      const print = prints?.[i];
      if (typeof print === 'object') out.push(print.text);
      else if (typeof v === 'number' && print !== undefined) out.push(print === 'float' ? javaFloatString(v) : javaDoubleString(v));
      // sort values without their types (built by hand): fractions print as floats
      else write(v, undefined, !plain && key === 'sort' && typeof v === 'number' && !Number.isInteger(v), next, out, plain);
    });
    out.push(end, ']');
    return;
  }
  const obj = value as Record<string, unknown>;
  // a stored _source, compact: the bytes as sent (pretty output lays it out like the rest)
  const raw = indent < 0 ? rawTextOf(obj) : undefined;
  if (raw !== undefined) {
    out.push(raw);
    return;
  }
  const explanation = !plain && isExplanationNode(obj);
  const entries = Object.entries(obj).filter(([, v]) => v !== undefined);
  if (entries.length === 0) {
    out.push(indent >= 0 ? '{ }' : '{}');
    return;
  }
  out.push('{');
  entries.forEach(([k, v], i) => {
    if (i > 0) out.push(',');
    out.push(nl, JSON.stringify(k), sep);
    const isFloat = explanation && k === 'value' && !(obj as Record<symbol, unknown>)[INTEGER_VALUE];
    write(v, k, isFloat, next, out, plain || k === '_source' || k === 'tokens');
  });
  out.push(end, '}');
}
