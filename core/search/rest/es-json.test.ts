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

  // Elasticsearch issues #77720 and #73763: a document without the field sorts with
  // Long.MAX_VALUE / Long.MIN_VALUE in its place, and that is the sort value it shows
  it('a missing value shows what Elasticsearch sorts it with; a given missing value stands in', () => {
    const e = new SearchEngine();
    e.createIndex('m', { mappings: { properties: { n: { type: 'long' }, d: { type: 'double' }, k: { type: 'keyword' } } } });
    e.indexDoc('m', 'has', { n: 5, d: 0.5, k: 'b' });
    e.indexDoc('m', 'none', { other: 1 }, { refresh: 'true' });
    const sortOf = (sort: unknown[]) => toEsJson(e.search('m', { sort })).match(/"_id":"\w+"|"sort":\[[^\]]*\]/g)!.join(' ');
    expect(sortOf([{ n: 'asc' }])).toBe('"_id":"has" "sort":[5] "_id":"none" "sort":[9223372036854775807]');
    expect(sortOf([{ n: 'desc' }])).toBe('"_id":"has" "sort":[5] "_id":"none" "sort":[-9223372036854775808]');
    expect(sortOf([{ n: { order: 'asc', missing: '_first' } }])).toBe('"_id":"none" "sort":[-9223372036854775808] "_id":"has" "sort":[5]');
    expect(sortOf([{ d: 'asc' }])).toBe('"_id":"has" "sort":[0.5] "_id":"none" "sort":["Infinity"]');
    expect(sortOf([{ k: 'asc' }])).toBe('"_id":"has" "sort":["b"] "_id":"none" "sort":[null]');
    expect(sortOf([{ n: { order: 'asc', missing: 1 } }])).toBe('"_id":"none" "sort":[1] "_id":"has" "sort":[5]');
    expect(sortOf([{ k: { order: 'asc', missing: 'a' } }])).toBe('"_id":"none" "sort":["a"] "_id":"has" "sort":["b"]');
    expect(() => e.search('m', { sort: [{ n: { missing: 'x' } }] })).toThrow('For input string: "x"');
    // callers in the process see null for a missing value
    expect((e.search('m', { sort: [{ n: 'asc' }] }) as { hits: { hits: Array<{ sort: unknown[] }> } }).hits.hits[1]!.sort).toEqual([null]);
  });
});
