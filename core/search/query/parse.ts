/**
 * The search body → SearchRequest. Errors are Elasticsearch's: parsing_exception with the line
 * and column of the offending key, illegal_argument_exception for bad values.
 */
import { EsError, illegalArgument } from '../errors.js';
import { parsingAt } from './json-position.js';
import type { QueryNode, SearchRequest, SortSpec, SourceFilter } from './ast.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const SEARCH_KEYS = new Set(['query', 'size', 'from', 'sort', '_source', 'track_total_hits', 'explain', 'track_scores', 'min_score', 'timeout', 'version', 'seq_no_primary_term', 'stored_fields', 'aggs', 'aggregations', 'highlight', 'fields', 'docvalue_fields', 'profile', 'terminate_after']);

export class QueryParser {
  constructor(private readonly raw?: string) {}

  private err(key: string, reason: string): EsError {
    return parsingAt(this.raw, key, reason);
  }

  searchRequest(body: unknown, params: URLSearchParams = new URLSearchParams()): SearchRequest {
    if (body === undefined || body === null) body = {};
    if (!isObj(body)) throw this.err('', 'Expected [START_OBJECT] but found [' + tokenName(body) + ']');
    for (const [k, v] of Object.entries(body)) {
      if (!SEARCH_KEYS.has(k)) throw this.err(k, `Unknown key for a ${tokenName(v)} in [${k}].`);
      if ((k === 'aggs' || k === 'aggregations') && isObj(v) && Object.keys(v).length > 0) throw illegalArgument('aggregations are not supported by the Loupe search engine');
    }
    const size = intParam(params.get('size') ?? body.size, 10, 'size');
    const from = intParam(params.get('from') ?? body.from, 0, 'from');
    if (size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
    if (from < 0) throw illegalArgument(`[from] parameter cannot be negative but was [${from}]`);
    if (from + size > 10000) {
      throw illegalArgument(
        `Result window is too large, from + size must be less than or equal to: [10000] but was [${from + size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
      );
    }
    let query: QueryNode = { kind: 'match_all', boost: 1 };
    const q = params.get('q');
    if (body.query !== undefined) query = this.query(body.query);
    else if (q) query = luceneQueryString(q);
    const tth = params.get('track_total_hits') ?? body.track_total_hits;
    let trackTotalHits: boolean | number = 10000;
    if (tth === true || tth === 'true') trackTotalHits = true;
    else if (tth === false || tth === 'false') trackTotalHits = false;
    else if (tth !== undefined) trackTotalHits = intParam(tth, 10000, 'track_total_hits');
    const explainParam = params.get('explain');
    return {
      query,
      size,
      from,
      sort: params.get('sort') ? parseSortParam(params.get('sort')!) : body.sort !== undefined ? this.sort(body.sort) : undefined,
      source: this.source(params.has('_source') ? params.get('_source') : body._source, params),
      trackTotalHits,
      explain: explainParam !== null ? explainParam !== 'false' : body.explain === true,
      trackScores: body.track_scores === true,
      minScore: body.min_score === undefined ? undefined : Number(body.min_score),
    };
  }

  private sort(v: unknown): SortSpec[] {
    const list = Array.isArray(v) ? v : [v];
    return list.map((s): SortSpec => {
      if (typeof s === 'string') return { field: s, order: s === '_score' ? 'desc' : 'asc', missing: '_last' };
      if (isObj(s)) {
        const [field, spec] = Object.entries(s)[0] ?? [];
        if (!field) throw this.err('sort', 'expected a sort field');
        if (typeof spec === 'string') return { field, order: spec === 'desc' ? 'desc' : 'asc', missing: '_last' };
        if (isObj(spec)) {
          const order = spec.order ?? (field === '_score' ? 'desc' : 'asc');
          if (order !== 'asc' && order !== 'desc') throw illegalArgument(`Unknown SortOrder [${String(order)}]`);
          const missing = spec.missing === undefined ? '_last' : spec.missing;
          if (typeof missing !== 'string' && typeof missing !== 'number') throw this.err('sort', `[sort] failed to parse field [missing]`);
          return { field, order, missing };
        }
      }
      throw this.err('sort', `[sort] failed to parse field [sort]`);
    });
  }

  private source(v: unknown, params: URLSearchParams): SourceFilter {
    const inc = params.get('_source_includes');
    const exc = params.get('_source_excludes');
    if (inc || exc) return { includes: inc ? inc.split(',') : [], excludes: exc ? exc.split(',') : [] };
    if (v === undefined || v === null || v === true || v === 'true') return { includes: [], excludes: [] };
    if (v === false || v === 'false') return false;
    if (typeof v === 'string') return { includes: v.split(','), excludes: [] };
    if (Array.isArray(v)) return { includes: v.map(String), excludes: [] };
    if (isObj(v)) {
      const list = (x: unknown) => (x === undefined ? [] : Array.isArray(x) ? x.map(String) : [String(x)]);
      return { includes: list(v.includes ?? v.include), excludes: list(v.excludes ?? v.exclude) };
    }
    throw this.err('_source', `[_source] failed to parse field [_source]`);
  }

  query(v: unknown): QueryNode {
    if (!isObj(v)) throw this.err('query', `[_na] query malformed, must start with start_object`);
    const entries = Object.entries(v);
    if (entries.length === 0) throw this.err('query', 'query malformed, empty clause found');
    if (entries.length > 1) throw this.err(entries[1]![0], `[${entries[0]![0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`);
    const [type, body] = entries[0]!;
    switch (type) {
      case 'match_all':
        return { kind: 'match_all', boost: this.boostOf(body, type) };
      case 'match_none':
        return { kind: 'match_none', boost: this.boostOf(body, type) };
      case 'match':
        return this.match(body);
      case 'multi_match':
        return this.multiMatch(body);
      case 'term':
        return this.term(body);
      case 'terms':
        return this.terms(body);
      case 'range':
        return this.range(body);
      case 'exists': {
        if (!isObj(body) || typeof body.field !== 'string') throw this.err('exists', '[exists] must be provided with a [field]');
        return { kind: 'exists', field: body.field, boost: num(body.boost, 1) };
      }
      case 'ids': {
        if (!isObj(body) || !Array.isArray(body.values)) throw this.err('ids', '[ids] query malformed, no [values] field');
        return { kind: 'ids', values: body.values.map(String), boost: num(body.boost, 1) };
      }
      case 'prefix':
        return this.prefix(body);
      case 'bool':
        return this.bool(body);
      case 'constant_score': {
        if (!isObj(body) || body.filter === undefined) throw this.err('constant_score', '[constant_score] requires a \'filter\' element');
        return { kind: 'constant_score', filter: this.query(body.filter), boost: num(body.boost, 1) };
      }
      default:
        throw this.err(type, `unknown query [${type}]`);
    }
  }

  private boostOf(body: unknown, type: string): number {
    if (body === undefined || body === null) return 1;
    if (!isObj(body)) throw this.err(type, `[${type}] query malformed, no start_object after query name`);
    return num(body.boost, 1);
  }

  private singleField(body: unknown, type: string): [string, unknown] {
    if (!isObj(body)) throw this.err(type, `[${type}] query malformed, no start_object after query name`);
    const entries = Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name');
    if (entries.length === 0) throw this.err(type, `[${type}] query malformed, no field`);
    if (entries.length > 1) throw this.err(type, `[${type}] query doesn't support multiple fields, found [${entries[0]![0]}] and [${entries[1]![0]}]`);
    return entries[0]!;
  }

  private match(body: unknown): QueryNode {
    const [field, spec] = this.singleField(body, 'match');
    if (!isObj(spec)) {
      if (!isScalar(spec)) throw this.err(field, `[match] unknown token [START_ARRAY] after [${field}]`);
      return { kind: 'match', field, query: spec, operator: 'or', boost: 1, zeroTermsQuery: 'none' };
    }
    for (const k of Object.keys(spec)) {
      if (!['query', 'operator', 'minimum_should_match', 'analyzer', 'boost', 'zero_terms_query', 'lenient', 'fuzziness', 'prefix_length', 'max_expansions', 'auto_generate_synonyms_phrase_query', '_name'].includes(k)) {
        throw this.err(k, `[match] query does not support [${k}]`);
      }
    }
    if (!isScalar(spec.query)) throw this.err(field, `[match] requires query value`);
    for (const k of ['fuzziness', 'prefix_length', 'max_expansions']) {
      if (spec[k] !== undefined) throw illegalArgument(`[match] option [${k}] is not supported by the Loupe search engine`);
    }
    return {
      kind: 'match',
      field,
      query: spec.query,
      operator: this.operator(spec.operator),
      minimumShouldMatch: spec.minimum_should_match === undefined ? undefined : String(spec.minimum_should_match),
      analyzer: spec.analyzer as string | undefined,
      boost: num(spec.boost, 1),
      zeroTermsQuery: spec.zero_terms_query === 'all' ? 'all' : 'none',
    };
  }

  private operator(v: unknown): 'or' | 'and' {
    if (v === undefined) return 'or';
    const s = String(v).toLowerCase();
    if (s === 'or' || s === 'and') return s;
    throw illegalArgument(`No enum constant org.elasticsearch.index.query.Operator.${String(v).toUpperCase()}`);
  }

  private multiMatch(body: unknown): QueryNode {
    if (!isObj(body)) throw this.err('multi_match', '[multi_match] query malformed');
    if (!isScalar(body.query)) throw this.err('multi_match', 'No text specified for multi_match query');
    const type = body.type ?? 'best_fields';
    if (type !== 'best_fields') throw illegalArgument(`[multi_match] type [${String(type)}] is not supported by the Loupe search engine; use best_fields`);
    const fields = body.fields === undefined ? ['*'] : (Array.isArray(body.fields) ? body.fields : [body.fields]).map(String);
    return {
      kind: 'multi_match',
      fields,
      query: body.query,
      operator: this.operator(body.operator),
      minimumShouldMatch: body.minimum_should_match === undefined ? undefined : String(body.minimum_should_match),
      analyzer: body.analyzer as string | undefined,
      boost: num(body.boost, 1),
      tieBreaker: num(body.tie_breaker, 0),
    };
  }

  private term(body: unknown): QueryNode {
    const [field, spec] = this.singleField(body, 'term');
    if (isObj(spec)) {
      if (!isScalar(spec.value)) throw this.err(field, `[term] query does not support [${Object.keys(spec).find((k) => k !== 'boost') ?? 'value'}]`);
      return { kind: 'term', field, value: spec.value, boost: num(spec.boost, 1), caseInsensitive: spec.case_insensitive === true };
    }
    if (!isScalar(spec)) throw this.err(field, `[term] query does not support array of values`);
    return { kind: 'term', field, value: spec, boost: 1, caseInsensitive: false };
  }

  private terms(body: unknown): QueryNode {
    if (!isObj(body)) throw this.err('terms', '[terms] query malformed');
    const entries = Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name');
    if (entries.length !== 1) throw this.err('terms', `[terms] query does not support multiple fields`);
    const [field, values] = entries[0]!;
    if (!Array.isArray(values)) throw this.err(field, `[terms] query does not support [${field}]`);
    return { kind: 'terms', field, values: values.filter(isScalar), boost: num(body.boost, 1) };
  }

  private range(body: unknown): QueryNode {
    const [field, spec] = this.singleField(body, 'range');
    if (!isObj(spec)) throw this.err(field, `[range] query malformed, after field missing start object`);
    const node: QueryNode = { kind: 'range', field, boost: num(spec.boost, 1) };
    for (const [k, v] of Object.entries(spec)) {
      if (k === 'gt' || k === 'gte' || k === 'lt' || k === 'lte') node[k] = v;
      else if (k === 'from') node.gte = v;
      else if (k === 'to') node.lte = v;
      else if (k === 'format') node.format = String(v);
      else if (k !== 'boost' && k !== 'time_zone' && k !== 'relation' && k !== 'include_lower' && k !== 'include_upper' && k !== '_name') throw this.err(k, `[range] query does not support [${k}]`);
    }
    return node;
  }

  private prefix(body: unknown): QueryNode {
    const [field, spec] = this.singleField(body, 'prefix');
    if (isObj(spec)) return { kind: 'prefix', field, value: String(spec.value), boost: num(spec.boost, 1), caseInsensitive: spec.case_insensitive === true };
    return { kind: 'prefix', field, value: String(spec), boost: 1, caseInsensitive: false };
  }

  private bool(body: unknown): QueryNode {
    if (!isObj(body)) throw this.err('bool', '[bool] query malformed, no start_object after query name');
    const clauses = (key: string): QueryNode[] => {
      const v = body[key];
      if (v === undefined) return [];
      return (Array.isArray(v) ? v : [v]).map((q) => this.query(q));
    };
    for (const k of Object.keys(body)) {
      if (!['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative'].includes(k)) throw this.err(k, `[bool] query does not support [${k}]`);
    }
    return {
      kind: 'bool',
      must: clauses('must'),
      filter: clauses('filter'),
      should: clauses('should'),
      mustNot: clauses('must_not'),
      minimumShouldMatch: body.minimum_should_match === undefined ? undefined : String(body.minimum_should_match),
      boost: num(body.boost, 1),
    };
  }
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function num(v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw illegalArgument(`[boost] must be a number, got [${String(v)}]`);
  return n;
}

function intParam(v: unknown, dflt: number, name: string): number {
  if (v === undefined || v === null) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n)) throw illegalArgument(`Failed to parse int parameter [${name}] with value [${String(v)}]`);
  return n;
}

function tokenName(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (v === null) return 'VALUE_NULL';
  if (typeof v === 'object') return 'START_OBJECT';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return 'VALUE_NUMBER';
}

function parseSortParam(s: string): SortSpec[] {
  return s.split(',').map((part) => {
    const [field, order] = part.split(':') as [string, string | undefined];
    return { field, order: order === 'desc' || (order === undefined && field === '_score') ? 'desc' : 'asc', missing: '_last' };
  });
}

/** `?q=` supports `field:value` and bare words (any field), joined as should clauses. */
function luceneQueryString(q: string): QueryNode {
  const should: QueryNode[] = q
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf(':');
      if (at > 0) return { kind: 'match', field: part.slice(0, at), query: part.slice(at + 1), operator: 'or', boost: 1, zeroTermsQuery: 'none' } as QueryNode;
      return { kind: 'multi_match', fields: ['*'], query: part, operator: 'or', boost: 1, tieBreaker: 0 } as QueryNode;
    });
  return should.length === 1 ? should[0]! : { kind: 'bool', must: [], filter: [], should, mustNot: [], boost: 1 };
}
