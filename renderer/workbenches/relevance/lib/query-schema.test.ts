import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { QueryParser } from '../../../../core/search/query/parse.js';
import { querySchema, TEMPLATES } from './query-schema.js';

// The editor's schema against the engine's own parser: what one accepts the other accepts.
const FIELDS = [
  { path: 'message', type: 'text' },
  { path: 'message.keyword', type: 'keyword' },
  { path: 'http.response.bytes', type: 'long' },
];
const schema = querySchema(FIELDS);
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const parse = (body: unknown) => new QueryParser(JSON.stringify(body)).searchRequest(body);
const parses = (body: unknown) => {
  try {
    parse(body);
    return true;
  } catch {
    return false;
  }
};

type S = Record<string, unknown>;
const queries = ((schema.definitions as S).query as S).properties as Record<string, S>;

/** A value the schema allows for a property, for building one example per option. */
function sampleFor(s: S | undefined): unknown {
  if (!s) return 'x';
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.anyOf) return sampleFor((s.anyOf as S[])[0]);
  if (s.$ref) return { match_all: {} };
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  if (t === 'number' || t === 'integer') return Math.min(2, (s.maximum as number | undefined) ?? 2);
  if (t === 'boolean') return true;
  if (t === 'array') return [sampleFor(s.items as S)];
  if (t === 'object') return {};
  return 'x';
}

/** The smallest valid body of a clause. */
const MINIMAL: Record<string, unknown> = {
  match: { message: { query: 'login' } },
  multi_match: { query: 'login', fields: ['message'] },
  term: { 'message.keyword': { value: 'x' } },
  terms: { 'message.keyword': ['a', 'b'] },
  ids: { values: ['1'] },
  prefix: { 'message.keyword': { value: 'lo' } },
  exists: { field: 'message' },
  range: { 'http.response.bytes': { gte: 1 } },
  constant_score: { filter: { match_all: {} } },
  bool: { must: [{ match_all: {} }] },
  match_all: {},
  match_none: {},
};

// Query names Elasticsearch knows; the engine supports some of them.
const ES_QUERIES = [
  ...Object.keys(MINIMAL),
  'match_phrase', 'match_phrase_prefix', 'match_bool_prefix', 'combined_fields', 'query_string', 'simple_query_string', 'fuzzy', 'wildcard', 'regexp',
  'terms_set', 'nested', 'has_child', 'has_parent', 'function_score', 'script_score', 'dis_max', 'boosting', 'geo_distance', 'geo_bounding_box',
  'more_like_this', 'percolate', 'rank_feature', 'distance_feature', 'intervals', 'span_term', 'knn', 'pinned', 'script', 'wrapper',
];

describe('the query editor schema and the engine parser agree', () => {
  it('lists exactly the queries the parser accepts', () => {
    for (const q of ES_QUERIES) {
      const body = { query: { [q]: MINIMAL[q] ?? { message: 'x' } } };
      expect([q, validate(body)]).toEqual([q, parses(body)]);
    }
    expect(Object.keys(queries).sort()).toEqual(Object.keys(MINIMAL).sort());
  });

  it('accepts each option of each clause in the schema, and the parser takes it too', () => {
    let checked = 0;
    for (const [q, s] of Object.entries(queries)) {
      // Options live on the clause itself or, for per-field clauses, on the field's spec.
      const fieldSpec = (s.additionalProperties as S | undefined)?.anyOf ? ((s.additionalProperties as S).anyOf as S[])[1]! : (s.additionalProperties as S | undefined);
      const options = fieldSpec?.properties ? (fieldSpec.properties as Record<string, S>) : ((s.properties as Record<string, S>) ?? {});
      for (const [opt, optSchema] of Object.entries(options)) {
        if (FIELDS.some((f) => f.path === opt)) continue;
        let clause: unknown;
        if (fieldSpec?.properties) {
          const field = q === 'match' ? 'message' : q === 'range' ? 'http.response.bytes' : 'message.keyword';
          const base = (MINIMAL[q] as S)[field] as S;
          clause = { [field]: { ...base, [opt]: sampleFor(optSchema) } };
        } else {
          clause = { ...(MINIMAL[q] as S), [opt]: sampleFor(optSchema) };
        }
        const body = { query: { [q]: clause } };
        expect([q, opt, validate(body), validate.errors?.[0]?.message]).toEqual([q, opt, true, undefined]);
        expect([q, opt, parses(body)]).toEqual([q, opt, true]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('rejects the same unknown options and keys as the parser', () => {
    const bad = [
      { query: { match: { message: { query: 'x', fuzzyness: 2 } } } },
      { query: { bool: { must: [], should_not: [] } } },
      { query: { range: { 'http.response.bytes': { above: 3 } } } },
      { query: { match_all: {} }, aggregation: {} },
      { query: { match: { message: 'a' }, term: { 'message.keyword': 'b' } } },
      { query: { exists: {} } },
    ];
    for (const body of bad) expect([JSON.stringify(body), validate(body), parses(body)]).toEqual([JSON.stringify(body), false, false]);
  });

  it('takes the top-level keys size, from, sort and _source as the parser does', () => {
    const body = { query: { match: { message: 'login' } }, size: 5, from: 10, sort: [{ 'http.response.bytes': { order: 'desc', missing: '_last' } }, '_score'], _source: ['message'], track_total_hits: true };
    expect(validate(body)).toBe(true);
    expect(parse(body)).toMatchObject({ size: 5, from: 10, source: { includes: ['message'] }, trackTotalHits: true });
  });

  it('lets every editor template through both', () => {
    for (const t of TEMPLATES) expect([t.label, validate(t.body), parses(t.body)]).toEqual([t.label, true, true]);
  });

  it('offers the index\'s field names where a clause takes a field', () => {
    expect(Object.keys((queries.term!.properties as S))).toEqual(expect.arrayContaining(['message', 'message.keyword', 'http.response.bytes']));
    expect(Object.keys((queries.match!.properties as S))).toEqual(expect.arrayContaining(['message', 'message.keyword']));
    expect((((queries.exists!.properties as S).field as S).examples as string[])).toContain('http.response.bytes');
  });
});
