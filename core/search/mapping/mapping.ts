/**
 * Mappings: the field types Elasticsearch offers here, multi-fields, and dynamic mapping the way
 * Elasticsearch does it (a string becomes text with a `.keyword` sub-field with ignore_above 256,
 * an ISO date string a date, an integer a long, a decimal a float, objects flatten to dotted
 * paths). `GET /_mapping` shows `properties` exactly as stored here.
 */
import { EsError, mapperParsing } from '../errors.js';
import { hasAnalyzer } from '../analysis/analyzers.js';
import { DEFAULT_DATE_FORMAT, checkDateFormat, looksLikeDate, parseDate } from './dates.js';
import { parseIp } from './ip.js';

export const NUMERIC_TYPES = ['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'unsigned_long'] as const;
export type LeafType = 'text' | 'keyword' | 'date' | 'boolean' | 'ip' | (typeof NUMERIC_TYPES)[number];

export interface FieldMapper {
  /** Dotted path, e.g. `http.response.bytes` or `message.keyword`. */
  readonly path: string;
  readonly type: LeafType;
  readonly analyzer: string;
  readonly searchAnalyzer: string;
  /** Name of the similarity; undefined means the index default. */
  readonly similarity?: string;
  readonly ignoreAbove?: number;
  readonly format: string;
  readonly index: boolean;
  readonly nullValue?: unknown;
  readonly coerce: boolean;
}

type Json = Record<string, unknown>;

const INTEGER_RANGE: Record<string, [number, number]> = {
  long: [-(2 ** 63), 2 ** 63],
  integer: [-2147483648, 2147483647],
  short: [-32768, 32767],
  byte: [-128, 127],
  unsigned_long: [0, 2 ** 64],
};

const COMMON_PARAMS = new Set(['type', 'index', 'store', 'doc_values', 'boost', 'meta', 'fields', 'copy_to', 'null_value', 'ignore_malformed', 'coerce']);
const PARAMS: Record<string, Set<string>> = {
  text: new Set(['analyzer', 'search_analyzer', 'search_quote_analyzer', 'similarity', 'norms', 'index_options', 'fielddata', 'position_increment_gap', 'term_vector', 'eager_global_ordinals']),
  keyword: new Set(['ignore_above', 'similarity', 'normalizer', 'norms', 'index_options', 'eager_global_ordinals', 'split_queries_on_whitespace']),
  date: new Set(['format', 'locale']),
  boolean: new Set([]),
  ip: new Set([]),
  numeric: new Set(['scaling_factor']),
};

export type Dynamic = true | false | 'strict';

const META_FIELDS = new Set(['_id', '_index', '_source', '_routing', '_seq_no', '_version']);

export class Mapping {
  readonly fields = new Map<string, FieldMapper>();
  /** Object paths (for "object mapping … found a concrete value" errors). */
  private readonly objects = new Set<string>();
  dynamic: Dynamic = true;

  constructor(readonly properties: Json = {}) {
    for (const [name, def] of Object.entries(properties)) this.compile(name, def as Json);
  }

  static fromBody(mappings: unknown): Mapping {
    if (mappings === undefined || mappings === null) return new Mapping({});
    if (typeof mappings !== 'object' || Array.isArray(mappings)) throw mapperParsing('Failed to parse mapping: mappings must be an object');
    const m = mappings as Json;
    for (const key of Object.keys(m)) {
      if (!['properties', 'dynamic', '_source', 'date_detection', 'numeric_detection', 'dynamic_templates', '_meta', '_routing'].includes(key)) {
        throw mapperParsing(`Root mapping definition has unsupported parameters:  [${key} : ${JSON.stringify(m[key])}]`);
      }
    }
    const props = (m.properties ?? {}) as Json;
    if (typeof props !== 'object' || Array.isArray(props)) throw mapperParsing('Failed to parse mapping: properties must be an object');
    const mapping = new Mapping(expandDots(structuredClone(props)));
    if (m.dynamic !== undefined) mapping.dynamic = m.dynamic === 'strict' ? 'strict' : m.dynamic === false || m.dynamic === 'false' ? false : true;
    return mapping;
  }

  /** `PUT /{index}/_mapping`: adds fields; a field's type cannot change. */
  merge(body: Json): void {
    const incoming = Mapping.fromBody(body);
    for (const [path, m] of incoming.fields) {
      const old = this.fields.get(path);
      if (old && old.type !== m.type) throw new EsError('illegal_argument_exception', `mapper [${path}] cannot be changed from type [${old.type}] to [${m.type}]`, 400);
    }
    mergeProps(this.properties, incoming.properties);
    this.fields.clear();
    this.objects.clear();
    this.subFieldCache.clear();
    for (const [name, def] of Object.entries(this.properties)) this.compile(name, def as Json);
    if (body.dynamic !== undefined) this.dynamic = incoming.dynamic;
  }

  toJson(): Json {
    const out: Json = {};
    if (this.dynamic !== true) out.dynamic = this.dynamic === 'strict' ? 'strict' : 'false';
    if (Object.keys(this.properties).length) out.properties = this.properties;
    return out;
  }

  private compile(path: string, def: Json, parentIsMultiField = false): void {
    if (!def || typeof def !== 'object' || Array.isArray(def)) throw mapperParsing(`Expected map for property [fields] on field [${path}] but got a class java.lang.String`);
    const type = (def.type as string | undefined) ?? (def.properties ? 'object' : undefined);
    if (type === 'object' || type === 'nested') {
      if (parentIsMultiField) throw mapperParsing(`Type [${type}] cannot be used in multi field`);
      this.objects.add(path);
      const props = (def.properties ?? {}) as Json;
      for (const [name, sub] of Object.entries(props)) this.compile(`${path}.${name}`, sub as Json);
      return;
    }
    if (type === undefined) throw mapperParsing(`No type specified for field [${path.split('.').pop()}]`);
    const family = (NUMERIC_TYPES as readonly string[]).includes(type) ? 'numeric' : type;
    const allowed = PARAMS[family];
    if (!allowed) throw mapperParsing(`No handler for type [${type}] declared on field [${path.split('.').pop()}]`);
    for (const key of Object.keys(def)) {
      if (!COMMON_PARAMS.has(key) && !allowed.has(key)) throw mapperParsing(`unknown parameter [${key}] on mapper [${path}] of type [${type}]`);
    }
    const analyzer = (def.analyzer as string | undefined) ?? 'standard';
    for (const a of [analyzer, def.search_analyzer as string | undefined]) {
      if (a !== undefined && !hasAnalyzer(a)) throw mapperParsing(`Failed to parse mapping: analyzer [${a}] has not been configured in mappings`);
    }
    const format = (def.format as string | undefined) ?? DEFAULT_DATE_FORMAT;
    if (type === 'date') checkDateFormat(format);
    const mapper: FieldMapper = {
      path,
      type: type as LeafType,
      analyzer: type === 'text' ? analyzer : 'keyword',
      searchAnalyzer: type === 'text' ? ((def.search_analyzer as string | undefined) ?? analyzer) : 'keyword',
      similarity: def.similarity as string | undefined,
      ignoreAbove: def.ignore_above === undefined ? undefined : Number(def.ignore_above),
      format,
      index: def.index !== false && def.index !== 'false',
      nullValue: def.null_value,
      coerce: def.coerce !== false,
    };
    this.fields.set(path, mapper);
    if (def.fields) {
      for (const [name, sub] of Object.entries(def.fields as Json)) this.compile(`${path}.${name}`, sub as Json, true);
    }
  }

  /** The multi-fields of a field (e.g. `message.keyword` for `message`). */
  private readonly subFieldCache = new Map<string, FieldMapper[]>();
  /** Object path → key → `path.key`, so that parsing a document builds no path strings. */
  private readonly childPaths = new Map<string, Map<string, string>>();

  subFields(path: string): FieldMapper[] {
    const cached = this.subFieldCache.get(path);
    if (cached) return cached;
    const out: FieldMapper[] = [];
    this.subFieldCache.set(path, out);
    const prefix = path + '.';
    const def = this.definition(path);
    if (!def?.fields) return out;
    for (const name of Object.keys(def.fields as Json)) {
      const m = this.fields.get(prefix + name);
      if (m) out.push(m);
    }
    return out;
  }

  /** The JSON definition of a path inside `properties`. */
  definition(path: string): Json | undefined {
    let node: Json | undefined = { properties: this.properties };
    const parts = path.split('.');
    for (let i = 0; i < parts.length; i++) {
      const props = node?.properties as Json | undefined;
      const fields = node?.fields as Json | undefined;
      node = (props?.[parts[i]!] ?? fields?.[parts[i]!]) as Json | undefined;
      if (!node) return undefined;
    }
    return node;
  }

  isObject(path: string): boolean {
    return this.objects.has(path);
  }

  /** Adds a field discovered in a document (dynamic mapping). */
  private addDynamic(path: string, def: Json): void {
    const parts = path.split('.');
    let props = this.properties;
    for (let i = 0; i < parts.length - 1; i++) {
      let obj = props[parts[i]!] as Json | undefined;
      if (!obj) {
        obj = { properties: {} };
        props[parts[i]!] = obj;
        this.objects.add(parts.slice(0, i + 1).join('.'));
      }
      obj.properties ??= {};
      props = obj.properties as Json;
    }
    props[parts[parts.length - 1]!] = def;
    this.subFieldCache.clear();
    this.compile(path, def);
  }

  /**
   * Walks a document and returns each indexed leaf value with its mapper (multi-fields
   * included), flat: mapper, value, mapper, value, …. Adds dynamic fields; `changed` says whether the mapping grew.
   */
  parseDocument(source: unknown, id: string): { values: unknown[]; changed: boolean } {
    if (!source || typeof source !== 'object' || Array.isArray(source)) throw mapperParsing('failed to parse, document is empty');
    const state = { values: [] as unknown[], changed: false, id };
    for (const k in source as Json) {
      if (k.charCodeAt(0) === 95 && META_FIELDS.has(k)) {
        throw mapperParsing(`Field [${k}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`);
      }
      this.visit(state, k, (source as Json)[k]);
    }
    return { values: state.values, changed: state.changed };
  }

  private visit(state: { values: unknown[]; changed: boolean; id: string }, path: string, value: unknown): void {
    if (value === null || value === undefined) {
      const m = this.fields.get(path);
      if (m?.nullValue !== undefined) this.emit(state, m, m.nullValue);
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) this.visit(state, path, v);
      return;
    }
    if (typeof value === 'object') {
      const existing = this.fields.get(path);
      if (existing) throw this.valueError(existing, value, state.id);
      if (!this.objects.has(path)) {
        if (this.dynamic === 'strict') throw strict(path);
        if (this.dynamic === false) return;
        this.addDynamic(path, { properties: {} });
        state.changed = true;
      }
      let children = this.childPaths.get(path);
      if (!children) this.childPaths.set(path, (children = new Map()));
      for (const k in value as Json) {
        let child = children.get(k);
        if (child === undefined) {
          child = `${path}.${k}`;
          // bounded: objects left unmapped (dynamic: false) may have any keys
          if (children.size < 1024) children.set(k, child);
        }
        this.visit(state, child, (value as Json)[k]);
      }
      return;
    }
    let mapper = this.fields.get(path);
    if (!mapper) {
      if (this.objects.has(path)) throw mapperParsing(`object mapping for [${path}] tried to parse field [${path.split('.').pop()}] as object, but found a concrete value`);
      if (this.dynamic === 'strict') throw strict(path);
      if (this.dynamic === false) return;
      this.addDynamic(path, dynamicDefinition(value));
      state.changed = true;
      mapper = this.fields.get(path)!;
    }
    this.emit(state, mapper, value);
  }

  private emit(state: { values: unknown[]; id: string }, mapper: FieldMapper, value: unknown): void {
    state.values.push(mapper, this.convert(mapper, value, state.id));
    const subs = this.subFields(mapper.path);
    for (let i = 0; i < subs.length; i++) state.values.push(subs[i]!, this.convert(subs[i]!, value, state.id));
  }

  /** The value as the index stores it: string for text/keyword/ip, number for numbers/dates/booleans. */
  convert(mapper: FieldMapper, value: unknown, id: string): unknown {
    switch (mapper.type) {
      case 'text':
      case 'keyword':
        if (typeof value === 'object') throw this.valueError(mapper, value, id, { type: 'illegal_state_exception', reason: `Can't get text on a START_OBJECT` });
        return String(value);
      case 'boolean':
        if (value === true || value === 'true') return 1;
        if (value === false || value === 'false' || value === '') return 0;
        throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `Failed to parse value [${String(value)}] as only [true] or [false] are allowed.` });
      case 'date': {
        const ms = parseDate(value, mapper.format);
        if (ms === undefined) throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `failed to parse date field [${String(value)}] with format [${mapper.format}]` });
        return ms;
      }
      case 'ip': {
        const ip = typeof value === 'string' ? parseIp(value) : undefined;
        if (ip === undefined) throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `'${String(value)}' is not an IP string literal.` });
        return ip;
      }
      default: {
        let n: number;
        if (typeof value === 'number') n = value;
        else if (typeof value === 'string' && mapper.coerce && value.trim() !== '' && !Number.isNaN(Number(value))) n = Number(value);
        else if (typeof value === 'boolean') throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `Current token (VALUE_${String(value).toUpperCase()}) not numeric, can not use numeric value accessors` });
        else throw this.valueError(mapper, value, id, { type: 'number_format_exception', reason: `For input string: "${String(value)}"` });
        const range = INTEGER_RANGE[mapper.type];
        if (range) {
          if (!Number.isInteger(n) && !mapper.coerce) throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `Value [${n}] has a decimal part` });
          n = Math.trunc(n);
          if (n < range[0] || n > range[1]) throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `Value [${n}] is out of range for ${mapper.type === 'integer' ? 'an integer' : `a ${mapper.type}`}` });
        } else if (mapper.type === 'float') n = Math.fround(n);
        if (!Number.isFinite(n)) throw this.valueError(mapper, value, id, { type: 'illegal_argument_exception', reason: `[${mapper.type}] supports only finite values, but got [${n}]` });
        return n;
      }
    }
  }

  private valueError(mapper: FieldMapper, value: unknown, id: string, cause?: { type: string; reason: string }): EsError {
    const preview = typeof value === 'object' && value !== null ? javaMapString(value) : String(value);
    return mapperParsing(`failed to parse field [${mapper.path}] of type [${mapper.type}] in document with id '${id}'. Preview of field's value: '${preview}'`, cause);
  }
}

function strict(path: string): EsError {
  const parts = path.split('.');
  const within = parts.length > 1 ? parts[parts.length - 2]! : '_doc';
  return new EsError('strict_dynamic_mapping_exception', `[${within}] mapping set to strict, dynamic introduction of [${parts[parts.length - 1]}] within [${within}] is not allowed`, 400);
}

function javaMapString(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(javaMapString).join(', ')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${k}=${javaMapString(x)}`).join(', ')}}`;
  return String(v);
}

/** Elasticsearch's default dynamic mapping for a leaf value. */
export function dynamicDefinition(value: unknown): Json {
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return Number.isInteger(value) ? { type: 'long' } : { type: 'float' };
  const s = String(value);
  if (looksLikeDate(s)) return { type: 'date' };
  return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
}

function mergeProps(target: Json, add: Json): void {
  for (const [k, v] of Object.entries(add)) {
    const cur = target[k] as Json | undefined;
    if (cur && typeof cur === 'object' && (cur.properties || (v as Json).properties)) {
      cur.properties ??= {};
      mergeProps(cur.properties as Json, ((v as Json).properties ?? {}) as Json);
    } else if (cur && (v as Json).fields) {
      cur.fields = { ...((cur.fields ?? {}) as Json), ...((v as Json).fields as Json) };
    } else target[k] = v;
  }
}

/** Elasticsearch expands dotted names in mappings (`"a.b": {…}`) into object properties. */
function expandDots(props: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(props)) {
    const def = v as Json;
    if (def && typeof def === 'object' && def.properties) def.properties = expandDots(def.properties as Json);
    const parts = k.split('.');
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const cur = (node[parts[i]!] ??= { properties: {} }) as Json;
      cur.properties ??= {};
      node = cur.properties as Json;
    }
    const last = parts[parts.length - 1]!;
    const existing = node[last] as Json | undefined;
    if (existing?.properties && def.properties) Object.assign(existing.properties as Json, def.properties as Json);
    else node[last] = def;
  }
  return out;
}
