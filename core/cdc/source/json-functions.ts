/**
 * MySQL's JSON functions as the connection's functions, with MySQL's JSON values and text
 * (mysql-json.ts): `{"a": 1, "b": [2, 3]}`, object keys in MySQL's storage order. SQLite's own
 * json_* functions write minified text in insertion order, read paths their own way and return
 * SQL values where MySQL returns JSON, so every function MySQL has is defined here over them.
 * Paths are MySQL's simple ones: $, .key, ."key", [n], [last], [*], .* (a wildcard only where
 * MySQL reads one: JSON_EXTRACT, JSON_CONTAINS_PATH).
 */
import type { Database, SqlValue } from 'sql.js';
import { StoreError } from './column-values.js';
import { range, withArities } from './mysql-functions.js';
import type { AggregateDatabase } from './exact-aggregates.js';
import { JsonDouble, JsonTextError, mysqlJsonText, mysqlKeyOrder, parseMySqlJson, type Json } from './mysql-json.js';

export { mysqlJsonText as jsonText };

/**
 * JSON text these functions returned lately. SQLite hands a function's result to the next one as
 * plain text (sql.js cannot set SQLite's JSON subtype), so a nested JSON_OBJECT(… JSON_ARRAY(…))
 * is recognised by its text, as MySQL would know it by its type.
 */
const produced = new Set<string>();
function made(v: Json): string {
  const text = mysqlJsonText(v);
  if (produced.size > 2000) produced.clear();
  produced.add(text);
  return text;
}

/** A SQL argument as a JSON value: JSON from another JSON function stays JSON; other text is a string. */
function toJson(v: SqlValue): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? v : new JsonDouble(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return produced.has(v) ? parseMySqlJson(v) : v;
}

/**
 * A JSON document argument (text read as JSON): 3141 naming the argument and the function when it
 * is none. The errors here are StoreErrors, which SQLite passes on as their text and the embedded
 * source reads back as MySQL's (a MySqlError thrown inside SQLite would reach the client as 1105).
 */
function docOf(v: SqlValue, arg: number, fn: string): Json | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') return toJson(v);
  const text = v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v;
  try {
    return parseMySqlJson(text);
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    throw new StoreError(3141, `Invalid JSON text in argument ${arg} to function ${fn}: "${err.reason}" at position ${err.position}.`);
  }
}

type Leg = { key: string } | { index: number | 'last' } | { wild: 'member' | 'cell' };

/** A MySQL path's legs; 3143 where it is no path, 3149 for a wildcard where one is not allowed. */
function legsOf(path: SqlValue, wildOk = false): Leg[] {
  const p = String(path).trim();
  if (!p.startsWith('$')) throw new StoreError(3143, 'Invalid JSON path expression. The error is around character position 1.');
  const legs: Leg[] = [];
  const re = /\s*(?:\.\s*(\*|"((?:[^"\\]|\\.)*)"|[A-Za-z_$][\w$]*)|\[\s*(\*|\d+|last)\s*\])/y;
  re.lastIndex = 1;
  while (re.lastIndex < p.length) {
    const at = re.lastIndex;
    const m = re.exec(p);
    if (!m) throw new StoreError(3143, `Invalid JSON path expression. The error is around character position ${at + 1}.`);
    if (m[1] === '*' || m[3] === '*') {
      if (!wildOk) throw new StoreError(3149, 'In this situation, path expressions may not contain the * and ** tokens or an array range.');
      legs.push({ wild: m[1] === '*' ? 'member' : 'cell' });
    } else if (m[3] !== undefined) legs.push({ index: m[3] === 'last' ? 'last' : Number(m[3]) });
    else legs.push({ key: m[2] !== undefined ? (JSON.parse(`"${m[2]}"`) as string) : m[1]! });
  }
  return legs;
}

const isObject = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonDouble);

/** The value at an optional path argument (the document itself without one), or undefined where there is none. */
const atPath = (doc: Json, path: SqlValue | undefined): Json | undefined => (path === undefined ? doc : select(doc, legsOf(path))[0]);

/** The values a path selects (several for a wildcard); a scalar reads as a one-element array ($[0]). */
function select(doc: Json, legs: Leg[]): Json[] {
  return selectWithPaths(doc, legs).map((found) => found.value);
}

/** The values a path selects, each with its path (keys and indexes): where JSON_SEARCH starts. */
function selectWithPaths(doc: Json, legs: Leg[]): { value: Json; at: (string | number)[] }[] {
  let current: { value: Json; at: (string | number)[] }[] = [{ value: doc, at: [] }];
  for (const leg of legs) {
    const next: typeof current = [];
    for (const { value: v, at } of current) {
      if ('key' in leg) {
        if (isObject(v) && leg.key in v) next.push({ value: v[leg.key]!, at: [...at, leg.key] });
      } else if ('index' in leg) {
        if (!Array.isArray(v)) {
          if (leg.index === 0 || leg.index === 'last') next.push({ value: v, at });
          continue;
        }
        const i = leg.index === 'last' ? v.length - 1 : leg.index;
        if (i >= 0 && i < v.length) next.push({ value: v[i]!, at: [...at, i] });
      } else if (leg.wild === 'member') {
        if (isObject(v)) for (const k of mysqlKeyOrder(v)) next.push({ value: v[k]!, at: [...at, k] });
      } else if (Array.isArray(v)) v.forEach((x, i) => next.push({ value: x, at: [...at, i] }));
    }
    current = next;
  }
  return current;
}

function extract(doc: SqlValue, ...paths: SqlValue[]): SqlValue {
  const d = docOf(doc, 1, 'json_extract');
  if (d === undefined || paths.some((p) => p === null || p === undefined)) return null;
  const legs = paths.map((p) => legsOf(p, true));
  const wild = paths.length > 1 || legs.some((l) => l.some((x) => 'wild' in x));
  const found = legs.flatMap((l) => select(d, l));
  if (!found.length) return null;
  return made(wild ? found : found[0]!);
}

function unquote(v: SqlValue): SqlValue {
  if (v === null || v === undefined) return null;
  const s = String(v);
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      return parseMySqlJson(s) as string;
    } catch {
      return s;
    }
  }
  return s;
}

/** MySQL's JSON_TYPE names. */
function typeName(v: Json): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'string') return 'STRING';
  if (v instanceof JsonDouble) return 'DOUBLE';
  if (typeof v === 'bigint') return v > (1n << 63n) - 1n ? 'UNSIGNED INTEGER' : 'INTEGER';
  if (typeof v === 'number') return 'INTEGER';
  return Array.isArray(v) ? 'ARRAY' : 'OBJECT';
}

function depth(v: Json): number {
  if (Array.isArray(v)) return v.length ? 1 + Math.max(...v.map(depth)) : 1;
  if (isObject(v)) {
    const values = Object.values(v);
    return values.length ? 1 + Math.max(...values.map(depth)) : 1;
  }
  return 1;
}

const numeric = (v: Json): number | bigint | undefined => (v instanceof JsonDouble ? v.value : typeof v === 'number' || typeof v === 'bigint' ? v : undefined);

/** Whether two JSON values are equal as MySQL compares them (numbers by value, whatever their kind; objects by their members). */
function equal(a: Json, b: Json): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) return x !== undefined && y !== undefined && (typeof x === typeof y ? x === y : Number(x) === Number(y));
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => equal(v, b[i]!));
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && equal(a[k]!, b[k]!));
  }
  return a === b;
}

/** JSON_CONTAINS's rule: a scalar is in an array holding it; an array's every element; an object's every member. */
function contains(target: Json, candidate: Json): boolean {
  if (Array.isArray(target)) {
    if (Array.isArray(candidate)) return candidate.every((c) => contains(target, c));
    return target.some((t) => (Array.isArray(t) ? false : contains(t, candidate)));
  }
  if (isObject(target)) {
    if (!isObject(candidate)) return false;
    return Object.keys(candidate).every((k) => k in target && contains(target[k]!, candidate[k]!));
  }
  return !Array.isArray(candidate) && !isObject(candidate) && equal(target, candidate);
}

type Edit = 'set' | 'insert' | 'replace';

/** JSON_SET/INSERT/REPLACE of one path: a member or cell replaced, added, or (a cell past the end, or of a scalar) appended. */
function edit(doc: Json, legs: Leg[], value: Json, how: Edit): Json {
  if (!legs.length) return how === 'insert' ? doc : value;
  const parents = select(doc, legs.slice(0, -1));
  const last = legs[legs.length - 1]!;
  if (!parents.length) return doc;
  const parent = parents[0]!;
  if ('key' in last) {
    if (!isObject(parent)) return doc;
    const has = last.key in parent;
    if ((has && how !== 'insert') || (!has && how !== 'replace')) parent[last.key] = value;
    return doc;
  }
  if (!('index' in last)) return doc;
  if (Array.isArray(parent)) {
    const i = last.index === 'last' ? parent.length - 1 : last.index;
    if (i < parent.length && i >= 0) {
      if (how !== 'insert') parent[i] = value;
    } else if (how !== 'replace') parent.push(value);
    return doc;
  }
  // a scalar or object is an array of one: [0] is itself, a higher index appends to it wrapped
  const i = last.index === 'last' ? 0 : last.index;
  if (i === 0) return how === 'insert' ? doc : replaceAt(doc, legs.slice(0, -1), value);
  return how === 'replace' ? doc : replaceAt(doc, legs.slice(0, -1), [parent, value]);
}

/** `doc` with the value at `legs` (which selects one) replaced. */
function replaceAt(doc: Json, legs: Leg[], value: Json): Json {
  if (!legs.length) return value;
  const parent = select(doc, legs.slice(0, -1))[0];
  const last = legs[legs.length - 1]!;
  if ('key' in last && isObject(parent!)) parent[last.key] = value;
  else if ('index' in last && Array.isArray(parent)) parent[last.index === 'last' ? parent.length - 1 : last.index] = value;
  else if ('index' in last) return replaceAt(doc, legs.slice(0, -1), value);
  return doc;
}

function remove(doc: Json, legs: Leg[]): Json {
  if (!legs.length) throw new StoreError(3153, "The path expression '$' is not allowed in this context.");
  const parent = select(doc, legs.slice(0, -1))[0];
  const last = legs[legs.length - 1]!;
  if (parent === undefined) return doc;
  if ('key' in last && isObject(parent)) delete parent[last.key];
  else if ('index' in last && Array.isArray(parent)) {
    const i = last.index === 'last' ? parent.length - 1 : last.index;
    if (i >= 0 && i < parent.length) parent.splice(i, 1);
  }
  return doc;
}

/** A path's text as MySQL writes it (JSON_SEARCH): `$.key`, `$."a b"` for a key that is no identifier, `$[n]`. */
function pathText(legs: (string | number)[]): string {
  return `$${legs.map((l) => (typeof l === 'number' ? `[${l}]` : /^[A-Za-z_$][\w$]*$/.test(l) ? `.${l}` : `.${JSON.stringify(l)}`)).join('')}`;
}

/** JSON_SEARCH's LIKE: % and _ wildcards, `escape` before either taking it as itself. */
function likeMatcher(pattern: string, escape: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === escape && i + 1 < pattern.length) re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  // MySQL's default collation compares ignoring case
  return new RegExp(`^${re}$`, 'iu');
}

/** The paths of the string values under `v` that `like` matches, in document order (objects by MySQL's key order). */
function searchPaths(v: Json, like: RegExp, at: (string | number)[], out: (string | number)[][]): void {
  if (typeof v === 'string') {
    if (like.test(v)) out.push(at);
  } else if (Array.isArray(v)) v.forEach((x, i) => searchPaths(x, like, [...at, i], out));
  else if (isObject(v)) for (const k of mysqlKeyOrder(v)) searchPaths(v[k]!, like, [...at, k], out);
}

/** JSON_MERGE_PATCH (RFC 7396): an object patch merges member by member, null removing one; anything else replaces. */
function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: { [key: string]: Json } = isObject(target) ? { ...target } : {};
  for (const k of Object.keys(patch)) {
    if (patch[k] === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, patch[k]!);
  }
  return out;
}

/** JSON_MERGE_PRESERVE: arrays joined, objects merged with a shared key's values merged, scalars wrapped in arrays. */
function mergePreserve(a: Json, b: Json): Json {
  if (isObject(a) && isObject(b)) {
    const out: { [key: string]: Json } = { ...a };
    for (const k of Object.keys(b)) out[k] = k in out ? mergePreserve(out[k]!, b[k]!) : b[k]!;
    return out;
  }
  return [...(Array.isArray(a) ? a : [a]), ...(Array.isArray(b) ? b : [b])];
}

/** JSON_PRETTY: two spaces an indent, each member and element on its own line. */
function pretty(v: Json, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]` : '[]';
  if (isObject(v)) {
    const keys = mysqlKeyOrder(v);
    return keys.length ? `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty(v[k]!, inner)}`).join(',\n')}\n${indent}}` : '{}';
  }
  return mysqlJsonText(v);
}

/** The value/path pairs of JSON_SET and its kin: 1582 for an odd count. */
function pairs(fn: string, a: SqlValue[]): [SqlValue, SqlValue][] {
  if (a.length < 2 || a.length % 2) throw new StoreError(1582, `Incorrect parameter count in the call to native function '${fn}'`);
  const out: [SqlValue, SqlValue][] = [];
  for (let i = 0; i < a.length; i += 2) out.push([a[i]!, a[i + 1]!]);
  return out;
}

const editor = (fn: string, how: Edit) =>
  withArities(range(1, 33), (doc, ...rest) => {
    const list = pairs(fn, rest);
    let d = docOf(doc, 1, fn);
    if (d === undefined || list.some(([p]) => p === null)) return null;
    for (const [p, v] of list) d = edit(d, legsOf(p), toJson(v), how);
    return made(d);
  });

export function registerJsonFunctions(db: Database): void {
  const fns: Record<string, ((...a: SqlValue[]) => SqlValue)[]> = {
    json_object: withArities(range(0, 32), (...a) => {
      if (a.length % 2) throw new StoreError(1582, "Incorrect parameter count in the call to native function 'json_object'");
      const o: Record<string, Json> = {};
      for (let i = 0; i < a.length; i += 2) {
        if (a[i] === null) throw new StoreError(3158, 'JSON documents may not contain NULL member names.');
        // MySQL 8.0.3 on: a key given twice keeps the value given last
        o[String(a[i])] = toJson(a[i + 1]!);
      }
      return made(o);
    }),
    json_array: withArities(range(0, 32), (...a) => made(a.map(toJson))),
    json_extract: withArities(range(2, 8), extract),
    json_unquote: [unquote],
    json_quote: [(v) => (v === null ? null : JSON.stringify(String(v)))],
    json_valid: [
      (v) => {
        if (v === null) return null;
        try {
          parseMySqlJson(typeof v === 'string' ? v : String(v));
          return 1;
        } catch {
          return 0;
        }
      },
    ],
    json_type: [(v) => (v === null ? null : typeName(docOf(v, 1, 'json_type')!))],
    json_depth: [(v) => (v === null ? null : depth(docOf(v, 1, 'json_depth')!))],
    json_length: withArities([1, 2], (v, path) => {
      const d = docOf(v, 1, 'json_length');
      if (d === undefined || path === null) return null;
      const at = atPath(d, path);
      if (at === undefined) return null;
      return Array.isArray(at) ? at.length : isObject(at) ? Object.keys(at).length : 1;
    }),
    json_keys: withArities([1, 2], (v, path) => {
      const d = docOf(v, 1, 'json_keys');
      if (d === undefined || path === null) return null;
      const at = atPath(d, path);
      return at !== undefined && isObject(at) ? made(mysqlKeyOrder(at)) : null;
    }),
    json_contains: withArities([2, 3], (target, candidate, path) => {
      const t = docOf(target, 1, 'json_contains');
      const c = docOf(candidate, 2, 'json_contains');
      if (t === undefined || c === undefined || path === null) return null;
      const at = atPath(t, path);
      return at === undefined ? null : contains(at, c) ? 1 : 0;
    }),
    json_contains_path: withArities(range(3, 16), (v, mode, ...paths) => {
      const d = docOf(v, 1, 'json_contains_path');
      if (d === undefined || mode === null || paths.some((p) => p === null)) return null;
      const m = String(mode).toLowerCase();
      if (m !== 'one' && m !== 'all') throw new StoreError(3150, "The oneOrAll argument to json_contains_path may take these values: 'one' or 'all'.");
      const found = paths.map((p) => select(d, legsOf(p, true)).length > 0);
      return (m === 'one' ? found.some(Boolean) : found.every(Boolean)) ? 1 : 0;
    }),
    json_set: editor('json_set', 'set'),
    json_insert: editor('json_insert', 'insert'),
    json_replace: editor('json_replace', 'replace'),
    json_remove: withArities(range(2, 16), (v, ...paths) => {
      let d = docOf(v, 1, 'json_remove');
      if (d === undefined || paths.some((p) => p === null)) return null;
      for (const p of paths) d = remove(d, legsOf(p));
      return made(d);
    }),
    json_array_append: withArities(range(1, 33), (v, ...rest) => {
      const list = pairs('json_array_append', rest);
      let d = docOf(v, 1, 'json_array_append');
      if (d === undefined || list.some(([p]) => p === null)) return null;
      for (const [p, x] of list) {
        const legs = legsOf(p);
        const at = select(d, legs)[0];
        if (at === undefined) continue;
        if (Array.isArray(at)) at.push(toJson(x));
        else d = replaceAt(d, legs, [at, toJson(x)]);
      }
      return made(d);
    }),
    json_search: withArities(range(3, 16), (v, mode, search, escape, ...paths) => {
      const d = docOf(v, 1, 'json_search');
      if (d === undefined || mode === null || search === null || paths.some((p) => p === null)) return null;
      const m = String(mode).toLowerCase();
      if (m !== 'one' && m !== 'all') throw new StoreError(3150, "The oneOrAll argument to json_search may take these values: 'one' or 'all'.");
      const esc = escape === undefined || escape === null || escape === '' ? '\\' : String(escape);
      if ([...esc].length !== 1) throw new StoreError(1210, 'Incorrect arguments to ESCAPE');
      const like = likeMatcher(String(search), esc);
      const found: (string | number)[][] = [];
      const starts = paths.length ? paths.flatMap((p) => selectWithPaths(d, legsOf(p, true))) : [{ value: d, at: [] as (string | number)[] }];
      for (const s of starts) searchPaths(s.value, like, s.at, found);
      const texts = [...new Set(found.map(pathText))];
      if (!texts.length) return null;
      return made(m === 'one' || texts.length === 1 ? texts[0]! : texts);
    }),
    json_array_insert: withArities(range(1, 33), (v, ...rest) => {
      const list = pairs('json_array_insert', rest);
      const d = docOf(v, 1, 'json_array_insert');
      if (d === undefined || list.some(([p]) => p === null)) return null;
      for (const [p, x] of list) {
        const legs = legsOf(p);
        const last = legs[legs.length - 1];
        if (!last || !('index' in last)) throw new StoreError(3165, 'A path expression is not a path to a cell in an array.');
        const parent = select(d, legs.slice(0, -1))[0];
        if (!Array.isArray(parent)) continue;
        const i = last.index === 'last' ? parent.length - 1 : last.index;
        parent.splice(Math.min(i, parent.length), 0, toJson(x));
      }
      return made(d);
    }),
    json_merge_patch: withArities(range(2, 16), (...docs) => mergeAll('json_merge_patch', docs, mergePatch)),
    json_merge_preserve: withArities(range(2, 16), (...docs) => mergeAll('json_merge_preserve', docs, mergePreserve)),
    json_merge: withArities(range(2, 16), (...docs) => mergeAll('json_merge', docs, mergePreserve)),
    json_overlaps: [
      (a, b) => {
        const x = docOf(a, 1, 'json_overlaps');
        const y = docOf(b, 2, 'json_overlaps');
        if (x === undefined || y === undefined) return null;
        if (Array.isArray(x) || Array.isArray(y)) {
          const xs = Array.isArray(x) ? x : [x];
          const ys = Array.isArray(y) ? y : [y];
          return xs.some((p) => ys.some((q) => equal(p, q))) ? 1 : 0;
        }
        if (isObject(x) && isObject(y)) return Object.keys(x).some((k) => k in y && equal(x[k]!, y[k]!)) ? 1 : 0;
        return equal(x, y) ? 1 : 0;
      },
    ],
    json_pretty: [(v) => (v === null ? null : pretty(docOf(v, 1, 'json_pretty')!))],
    // `value MEMBER OF (array)` (expression-syntax.ts writes it so)
    loupe_member_of: [
      (v, arr) => {
        const list = docOf(arr, 2, 'member of');
        if (v === null || list === undefined) return null;
        const value = typeof v === 'string' && produced.has(v) ? parseMySqlJson(v) : toJson(v);
        return (Array.isArray(list) ? list : [list]).some((x) => equal(x, value)) ? 1 : 0;
      },
    ],
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
    finalize: (list: Json[]) => (list.length ? made(list) : null),
  });
  aggregates.create_aggregate('json_objectagg', {
    init: () => null as Record<string, Json> | null,
    step: (o: Record<string, Json> | null, k: SqlValue, v: SqlValue) => {
      if (k === null) throw new StoreError(3158, 'JSON documents may not contain NULL member names.');
      const out = o ?? {};
      out[String(k)] = toJson(v);
      return out;
    },
    finalize: (o: Record<string, Json> | null) => (o ? made(o) : null),
  });
}

/** The documents merged left to right by `merge`; NULL when any is NULL. */
function mergeAll(fn: string, docs: SqlValue[], merge: (a: Json, b: Json) => Json): SqlValue {
  let out: Json | undefined;
  for (let i = 0; i < docs.length; i++) {
    const d = docOf(docs[i]!, i + 1, fn);
    if (d === undefined) return null;
    out = out === undefined ? d : merge(out, d);
  }
  return made(out!);
}

/** A JSON column's value as MySQL stores it: its text read as JSON and written as MySQL's; 3140 for text that is none. */
export function storedJson(text: string, column: string): string {
  try {
    return made(parseMySqlJson(text));
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    throw new StoreError(3140, `Invalid JSON text: "${err.reason}" at position ${err.position} in value for column '${column}'.`);
  }
}
