import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../engine.js';
import { EsError } from '../errors.js';
import { javaFloatString } from '../similarity/java-float.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Elasticsearch JSON freely
type Json = Record<string, any>;

function engine(): SearchEngine {
  const e = new SearchEngine({ now: () => Date.UTC(2024, 2, 5, 12) });
  e.createIndex('logs', {
    mappings: {
      properties: {
        message: { type: 'text' },
        title: { type: 'text', analyzer: 'whitespace' },
        user: { properties: { id: { type: 'keyword' } } },
        status: { type: 'integer' },
        '@timestamp': { type: 'date' },
        ip: { type: 'ip' },
      },
    },
  });
  e.bulkIndex('logs', [
    { id: '1', source: { message: 'login failed for admin', title: 'Login Failure', user: { id: 'alice' }, status: 401, '@timestamp': '2024-03-05T08:00:00Z', ip: '10.0.0.1' } },
    { id: '2', source: { message: 'login succeeded', title: 'Login OK', user: { id: 'bob' }, status: 200, '@timestamp': '2024-03-04T08:00:00Z', ip: '10.0.1.7' } },
    { id: '3', source: { message: 'disk quota exceeded', title: 'Disk', user: { id: 'alice' }, status: 507, '@timestamp': '2024-03-01T08:00:00Z', ip: '192.168.1.1' } },
    { id: '4', source: { message: 'admin password changed after failed login', user: { id: 'carol' }, status: 200, '@timestamp': '2024-03-05T11:00:00Z' } },
  ]);
  e.refresh('logs');
  return e;
}

const ids = (e: SearchEngine, query: Json, extra: Json = {}) => (e.search('logs', { query, ...extra }) as Json).hits.hits.map((h: Json) => h._id);

describe('query DSL', () => {
  const e = engine();

  it('match: operator and, minimum_should_match, analyzer', () => {
    expect(ids(e, { match: { message: { query: 'login admin', operator: 'and' } } }).sort()).toEqual(['1', '4']);
    expect(ids(e, { match: { message: { query: 'login admin failed', minimum_should_match: '3' } } }).sort()).toEqual(['1', '4']);
    expect(ids(e, { match: { message: { query: 'login admin failed', minimum_should_match: '-2' } } }).sort()).toEqual(['1', '2', '4']);
    expect(ids(e, { match: { title: 'login' } })).toEqual([]);
    expect(ids(e, { match: { title: 'Login' } }).sort()).toEqual(['1', '2']);
    expect(ids(e, { match: { title: { query: 'LOGIN', analyzer: 'standard' } } })).toEqual([]);
  });

  it('term, terms, prefix, exists, ids and range on every field type', () => {
    expect(ids(e, { term: { 'user.id': 'alice' } })).toEqual(['1', '3']);
    expect(ids(e, { terms: { 'user.id': ['bob', 'carol'] } })).toEqual(['2', '4']);
    expect(ids(e, { prefix: { message: 'pass' } })).toEqual(['4']);
    expect(ids(e, { exists: { field: 'ip' } })).toEqual(['1', '2', '3']);
    expect(ids(e, { exists: { field: 'title' } })).toEqual(['1', '2', '3']);
    expect(ids(e, { ids: { values: ['3', '1', 'zz'] } })).toEqual(['1', '3']);
    expect(ids(e, { range: { status: { gt: 200, lt: 507 } } })).toEqual(['1']);
    expect(ids(e, { term: { status: 200 } })).toEqual(['2', '4']);
    expect(ids(e, { range: { '@timestamp': { gte: 'now-1d/d' } } })).toEqual(['1', '2', '4']);
    expect(ids(e, { range: { '@timestamp': { gte: '05/03/2024', format: 'dd/MM/yyyy' } } })).toEqual(['1', '4']);
    expect(ids(e, { term: { ip: '10.0.0.0/16' } })).toEqual(['1', '2']);
    expect(ids(e, { range: { 'user.id': { gte: 'b', lt: 'c' } } })).toEqual(['2']);
  });

  it('bool: must, should, must_not, filter and minimum_should_match', () => {
    expect(ids(e, { bool: { must: [{ match: { message: 'login' } }], must_not: [{ term: { 'user.id': 'alice' } }] } }).sort()).toEqual(['2', '4']);
    expect(ids(e, { bool: { should: [{ term: { 'user.id': 'alice' } }, { term: { status: 200 } }], minimum_should_match: 2 } })).toEqual([]);
    expect(ids(e, { bool: { filter: [{ term: { status: 200 } }], should: [{ match: { message: 'admin' } }] } })).toEqual(['4', '2']);
    const onlyNot = e.search('logs', { query: { bool: { must_not: [{ term: { 'user.id': 'alice' } }] } } }) as Json;
    expect(onlyNot.hits.hits.map((h: Json) => [h._id, h._score])).toEqual([
      ['2', 0],
      ['4', 0],
    ]);
  });

  it('filter context and constant_score never change _score', () => {
    const r = e.search('logs', { query: { constant_score: { filter: { match: { message: 'login' } }, boost: 1.5 } } }) as Json;
    expect(r.hits.hits.map((h: Json) => h._score)).toEqual([1.5, 1.5, 1.5]);
    const scored = e.search('logs', { query: { match: { message: 'admin' } } }) as Json;
    const filtered = e.search('logs', { query: { bool: { must: { match: { message: 'admin' } }, filter: { range: { status: { gte: 0 } } } } } }) as Json;
    expect(filtered.hits.hits).toEqual(scored.hits.hits);
  });

  it('match boost multiplies Elasticsearch\'s 2.2 and multi_match takes the best field', () => {
    const r = e.search('logs', { query: { match: { message: { query: 'disk', boost: 2 } } }, explain: true }) as Json;
    expect(javaFloatString(r.hits.hits[0]._explanation.details[0].details[0].value)).toBe('4.4');
    const mm = e.search('logs', { query: { multi_match: { query: 'Disk', fields: ['message', 'title^3'] } }, explain: true }) as Json;
    expect(mm.hits.hits[0]._id).toBe('3');
    expect(mm.hits.hits[0]._explanation.description).toBe('max of:');
    expect(mm.hits.hits[0]._score).toBe(Math.max(...mm.hits.hits[0]._explanation.details.map((d: Json) => d.value)));
  });

  it('track_total_hits, sort on keyword and dates, and _source filtering', () => {
    const r = e.search('logs', { query: { match_all: {} }, track_total_hits: 2, sort: [{ 'user.id': 'desc' }, { '@timestamp': 'asc' }], _source: { includes: ['user.*'] } }) as Json;
    expect(r.hits.total).toEqual({ value: 2, relation: 'gte' });
    expect(r.hits.hits.map((h: Json) => [h._id, h.sort, h._source])).toEqual([
      ['4', ['carol', Date.UTC(2024, 2, 5, 11)], { user: { id: 'carol' } }],
      ['2', ['bob', Date.UTC(2024, 2, 4, 8)], { user: { id: 'bob' } }],
      ['3', ['alice', Date.UTC(2024, 2, 1, 8)], { user: { id: 'alice' } }],
      ['1', ['alice', Date.UTC(2024, 2, 5, 8)], { user: { id: 'alice' } }],
    ]);
    expect((e.search('logs', { query: { match_all: {} }, track_total_hits: false }) as Json).hits.total).toBeUndefined();
  });

  it('rejects bad queries with Elasticsearch errors', () => {
    const err = (body: Json) => {
      try {
        e.search('logs', body);
      } catch (x) {
        return x instanceof EsError ? `${x.type}: ${x.reason}` : String(x);
      }
      return 'no error';
    };
    expect(err({ query: { nope: {} } })).toBe('parsing_exception: unknown query [nope]');
    expect(err({ query: { match: { a: 'x', b: 'y' } } })).toBe("parsing_exception: [match] query doesn't support multiple fields, found [a] and [b]");
    expect(err({ query: { range: { '@timestamp': { gte: 'yesterday' } } } })).toBe('parse_exception: failed to parse date field [yesterday] with format [strict_date_optional_time||epoch_millis]');
    expect(err({ query: { match_all: {} }, sort: [{ message: 'asc' }] })).toMatch(/^illegal_argument_exception: Text fields are not optimised/);
    expect(err({ query: { match_all: {} }, size: 10001 })).toMatch(/^illegal_argument_exception: Result window is too large/);
    expect(err({ bogus: 1 })).toBe('parsing_exception: Unknown key for a VALUE_NUMBER in [bogus].');
  });
});

describe('mappings and similarity settings', () => {
  it('rejects unknown types, analyzers and similarities', () => {
    const e = new SearchEngine();
    expect(() => e.createIndex('a', { mappings: { properties: { f: { type: 'strang' } } } })).toThrow('No handler for type [strang] declared on field [f]');
    expect(() => e.createIndex('b', { mappings: { properties: { f: { type: 'text', analyzer: 'klingon' } } } })).toThrow('analyzer [klingon] has not been configured in mappings');
    expect(() => e.createIndex('c', { settings: { index: { similarity: { default: { type: 'LMDirichlet' } } } } })).toThrow('Unknown Similarity type [LMDirichlet] for [default]');
    expect(() => e.createIndex('d', { mappings: { properties: { f: { type: 'text', similarity: 'nope' } } } })).toThrow('Unknown Similarity type [nope]');
  });

  it('per-field similarity and BM25 k1/b change the scores as Lucene does', () => {
    const e = new SearchEngine();
    e.createIndex('s', {
      settings: { index: { similarity: { flat: { type: 'BM25', k1: 2.0, b: 0 } } } },
      mappings: { properties: { a: { type: 'text' }, b: { type: 'text', similarity: 'flat' }, c: { type: 'text', similarity: 'classic' } } },
    });
    e.bulkIndex('s', [
      { id: '1', source: { a: 'x y z', b: 'x y z', c: 'x y z' } },
      { id: '2', source: { a: 'x', b: 'x', c: 'x' } },
    ]);
    e.refresh('s');
    const tf = (field: string) => ((e.search('s', { query: { match: { [field]: 'x' } }, explain: true }) as Json).hits.hits as Json[]).map((h) => h._explanation.details[0].details.at(-1).details.map((d: Json) => d.value));
    // freq, k1, b, dl, avgdl: with b = 0 length is ignored, so both docs tie and doc 1 (dl 3) comes first
    expect(tf('b')).toEqual([
      [1, 2, 0, 3, 2],
      [1, 2, 0, 1, 2],
    ]);
    expect(tf('a')[0]).toEqual([1, Math.fround(1.2), 0.75, 1, 2]);
    const classic = e.search('s', { query: { match: { c: 'x' } }, explain: true }) as Json;
    // Lucene 4 classic wording with queryNorm; idf × queryNorm does not round to exactly 1 here, so the full score node shows
    expect(classic.hits.hits[0]._explanation.details[0].description).toBe('score(doc=1,freq=1.0), product of:');
    expect(JSON.stringify(classic.hits.hits[0]._explanation)).toContain('idf(docFreq=2, maxDocs=2)');
  });
});
