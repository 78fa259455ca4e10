/**
 * MySQL's JSON functions as the connection's functions, with MySQL's JSON text: `{"a": 1, "b": [2, 3]}`
 * (a space after each colon and comma, object keys in MySQL's storage order: shorter keys first,
 * then by their bytes). SQLite's own versions write minified text in insertion order, and its
 * json_extract returns SQL values where MySQL returns JSON. JSON_EXTRACT takes MySQL's simple
 * paths ($, .key, ."key", [n], [*], .*).
 */
import type { Database, SqlValue } from 'sql.js';
import { MySqlError } from './mysql-error.js';
import { range, withArities } from './mysql-functions.js';
import type { AggregateDatabase } from './exact-aggregates.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** MySQL's text of a JSON value. */
export function jsonText(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(jsonText).join(', ')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonText(v[k]!)}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

/**
 * JSON text these functions returned lately. SQLite hands a function's result to the next one as
 * plain text (sql.js cannot set SQLite's JSON subtype), so a nested JSON_OBJECT(… JSON_ARRAY(…))
 * is recognised by its text, as MySQL would know it by its type.
 */
const produced = new Set<string>();
function made(text: string): string {
  if (produced.size > 2000) produced.clear();
  produced.add(text);
  return text;
}

/** A SQL argument as a JSON value: JSON from another JSON function stays JSON; other text is a string. */
function toJson(v: SqlValue): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return produced.has(v) ? (JSON.parse(v) as Json) : v;
}

function parseDoc(doc: SqlValue): Json | undefined {
  if (doc === null || doc === undefined) return undefined;
  try {
    return JSON.parse(typeof doc === 'string' ? doc : String(doc)) as Json;
  } catch {
    throw new MySqlError(3141, '22032', `Invalid JSON text in argument 1 to function json_extract: "Invalid value." at position 0.`);
  }
}

/** The values a MySQL path selects (several for a wildcard). */
function select(doc: Json, path: string): Json[] {
  if (!path.startsWith('$')) throw new MySqlError(3143, '42000', `Invalid JSON path expression. The error is around character position 1.`);
  let current: Json[] = [doc];
  const re = /\.(\*|"((?:[^"\\]|\\.)*)"|[A-Za-z_$][\w$]*)|\[(\*|\d+)\]/gy;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const at = re.lastIndex;
    const m = re.exec(path);
    if (!m) throw new MySqlError(3143, '42000', `Invalid JSON path expression. The error is around character position ${at + 1}.`);
    const next: Json[] = [];
    for (const v of current) {
      if (m[3] !== undefined) {
        if (!Array.isArray(v)) {
          if (m[3] === '0') next.push(v); // MySQL reads a scalar as a one-element array
          continue;
        }
        if (m[3] === '*') next.push(...v);
        else if (Number(m[3]) < v.length) next.push(v[Number(m[3])]!);
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        if (m[1] === '*') next.push(...Object.values(v));
        else {
          const key = m[2] !== undefined ? (JSON.parse(`"${m[2]}"`) as string) : m[1]!;
          if (key in v) next.push(v[key]!);
        }
      }
    }
    current = next;
  }
  return current;
}

function extract(doc: SqlValue, ...paths: SqlValue[]): SqlValue {
  const d = parseDoc(doc);
  if (d === undefined || paths.some((p) => p === null || p === undefined)) return null;
  const wild = paths.length > 1 || paths.some((p) => /\*/.test(String(p)));
  const found = paths.flatMap((p) => select(d, String(p)));
  if (!found.length) return null;
  return made(jsonText(wild ? found : found[0]!));
}

function unquote(v: SqlValue): SqlValue {
  if (v === null || v === undefined) return null;
  const s = String(v);
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      return JSON.parse(s) as string;
    } catch {
      return s;
    }
  }
  return s;
}

export function registerJsonFunctions(db: Database): void {
  const fns: Record<string, ((...a: SqlValue[]) => SqlValue)[]> = {
    json_object: withArities(range(0, 16), (...a) => {
      if (a.length % 2) throw new MySqlError(1582, '42000', "Incorrect parameter count in the call to native function 'json_object'");
      const o: Record<string, Json> = {};
      for (let i = 0; i < a.length; i += 2) {
        if (a[i] === null) throw new MySqlError(3158, '22032', 'JSON documents may not contain NULL member names.');
        if (!(String(a[i]) in o)) o[String(a[i])] = toJson(a[i + 1]!);
      }
      return made(jsonText(o));
    }),
    json_array: withArities(range(0, 16), (...a) => made(jsonText(a.map(toJson)))),
    json_extract: withArities(range(2, 8), extract),
    json_unquote: [unquote],
  };
  for (const [name, list] of Object.entries(fns)) for (const f of list) db.create_function(name, f);
  const aggregates = db as unknown as AggregateDatabase;
  // MySQL 8.0 manual, Aggregate Functions: the rows' values in the order they come, NULL for no rows;
  // a key given twice keeps the value that came last
  aggregates.create_aggregate('json_arrayagg', {
    init: () => [] as Json[],
    step: (list: Json[], v: SqlValue) => {
      list.push(toJson(v));
      return list;
    },
    finalize: (list: Json[]) => (list.length ? made(jsonText(list)) : null),
  });
  aggregates.create_aggregate('json_objectagg', {
    init: () => null as Record<string, Json> | null,
    step: (o: Record<string, Json> | null, k: SqlValue, v: SqlValue) => {
      if (k === null) throw new MySqlError(3158, '22032', 'JSON documents may not contain NULL member names.');
      const out = o ?? {};
      out[String(k)] = toJson(v);
      return out;
    },
    finalize: (o: Record<string, Json> | null) => (o ? made(jsonText(o)) : null),
  });
}
