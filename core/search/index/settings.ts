/**
 * Index settings: flat (`index.number_of_shards`) and nested forms are both accepted and stored
 * flat with the `index.` prefix, as Elasticsearch normalises them; shown nested with string
 * values, as `GET /{index}` does.
 */
import { illegalArgument } from '../errors.js';

export function flattenSettings(input: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input === undefined || input === null) return out;
  if (typeof input !== 'object' || Array.isArray(input)) throw illegalArgument('settings must be an object');
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flattenSettings(v, key));
    else out[key] = v;
  }
  return out;
}

export function normaliseSettings(flat: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(flat)) out[k.startsWith('index.') ? k : `index.${k}`] = Array.isArray(v) ? v.join(',') : String(v);
  return out;
}

export function nestSettings(flat: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    const parts = k.split('.');
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) node = (node[parts[i]!] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]!] = v;
  }
  return out;
}
