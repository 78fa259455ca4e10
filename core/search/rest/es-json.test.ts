import { describe, expect, it } from 'vitest';
import { toEsJson } from './es-json.js';
import { SearchEngine } from '../engine.js';
import { toJson, match, matchLong } from '../similarity/explanation.js';

describe('the wire prints scores as Java floats', () => {
  it('prints _score, max_score and explanation values like Elasticsearch, counts as integers', () => {
    const e = toJson(match(Math.fround(1.3862944), 'idf', matchLong(1, 'n'), match(3, 'dl')));
    const text = toEsJson({ hits: { max_score: Math.fround(1.6943598), hits: [{ _score: 1, _explanation: e, count: 3 }] } });
    expect(text).toBe(
      '{"hits":{"max_score":1.6943598,"hits":[{"_score":1.0,"_explanation":{"value":1.3862944,"description":"idf","details":[{"value":1,"description":"n","details":[]},{"value":3.0,"description":"dl","details":[]}]},"count":3}]}}',
    );
    expect(JSON.parse(text).hits.max_score).toBe(1.6943598);
  });

  it('prints documents as stored, even fields named like scores', () => {
    expect(toEsJson({ _score: 2, _source: { max_score: 3, _score: 1, value: 4, description: 'x', details: [] } })).toBe('{"_score":2.0,"_source":{"max_score":3,"_score":1,"value":4,"description":"x","details":[]}}');
  });

  it('pretty-prints with Elasticsearch layout', () => {
    expect(toEsJson({ a: 1, b: [] }, true)).toBe('{\n  "a" : 1,\n  "b" : [ ]\n}');
  });
});

describe('sort values print with the Java type Elasticsearch gives them', () => {
  it('float and _score as Float, double as Double (1.0, 1.0E7), long and date as integers', () => {
    const e = new SearchEngine();
    e.createIndex('s', { mappings: { properties: { f: { type: 'float' }, d: { type: 'double' }, n: { type: 'long' }, t: { type: 'date' }, k: { type: 'keyword' } } } });
    e.indexDoc('s', '1', { f: 1, d: 1e7, n: 3, t: '2024-01-01T00:00:00Z', k: 'x', m: 'a' }, { refresh: 'true' });
    e.indexDoc('s', '2', { f: 0.1, d: 2.5, n: 4, t: 0, k: 'y' }, { refresh: 'true' });
    const sortOf = (sort: unknown[]) => toEsJson(e.search('s', { sort, query: { match_all: {} } })).match(/"sort":\[[^\]]*\]/g);
    expect(sortOf([{ f: 'asc' }, { d: 'asc' }, { n: 'asc' }, { t: 'asc' }, { k: 'asc' }])).toEqual(['"sort":[0.1,2.5,4,0,"y"]', '"sort":[1.0,1.0E7,3,1704067200000,"x"]']);
    // a constant score of exactly 1 is still a float
    expect(sortOf(['_score', { n: 'desc' }])).toEqual(['"sort":[1.0,4]', '"sort":[1.0,3]']);
    // callers in the process see plain numbers
    expect((e.search('s', { sort: [{ f: 'desc' }] }) as { hits: { hits: Array<{ sort: unknown[] }> } }).hits.hits[0]!.sort).toEqual([1]);
  });
});
