import { describe, expect, it } from 'vitest';
import { toEsJson } from './es-json.js';
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
