import { describe, expect, it } from 'vitest';
import { SearchEngine } from './engine.js';
import { javaFloatString } from './similarity/java-float.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Elasticsearch JSON freely
type Json = Record<string, any>;

const LUCENE_DOCS = [
  'User login failed for admin',
  'login succeeded',
  'GET /index.html returned 200 after login login',
  'Disk quota exceeded on volume data',
  'admin changed password after failed login attempt from remote host over ssh',
];

function classicEngine(): SearchEngine {
  const e = new SearchEngine();
  e.createIndex('logs', { settings: { index: { similarity: { default: { type: 'classic' } } } }, mappings: { properties: { message: { type: 'text' } } } });
  // Lucene's StandardAnalyzer (4.10) removes English stop words; Elasticsearch's standard analyzer
  // does not, so the stop word "for" is left out of doc 0 to give both the same token counts.
  e.bulkIndex('logs', LUCENE_DOCS.map((m, i) => ({ id: String(i), source: { message: m.replace(' for ', ' ') } })));
  e.refresh('logs');
  return e;
}

const scores = (r: Json) => r.hits.hits.map((h: Json) => `${h._id}=${javaFloatString(h._score)}`);

describe('classic similarity through the query DSL equals Lucene 4.10', () => {
  // Golden values from Lucene 4.10.4 (Debian liblucene4.10-java), DefaultSimilarity, on the same five documents.
  it('scores a one-term match like TermQuery(message:login)', () => {
    const r = classicEngine().search('logs', { query: { match: { message: 'login' } } }) as Json;
    expect(scores(r)).toEqual(['1=0.625', '2=0.53033006', '0=0.5', '4=0.25']);
  });

  it('scores a two-term match with queryNorm and coord like "message:login message:admin"', () => {
    const r = classicEngine().search('logs', { query: { match: { message: 'login admin' } }, explain: true }) as Json;
    expect(scores(r)).toEqual(['0=0.90589654', '4=0.45294827', '1=0.17248107', '2=0.14635503']);
    const e = r.hits.hits[2]._explanation;
    expect(e.description).toBe('product of:');
    expect(e.details[1]).toEqual({ value: 0.5, description: 'coord(1/2)', details: [] });
    expect(e.details[0].details[0].description).toBe('weight(message:login in 1) [PerFieldSimilarity], result of:');
  });

  it('scores must + should with a boosted term like "+message:failed^2.0 message:login"', () => {
    const r = classicEngine().search('logs', {
      query: { bool: { must: [{ term: { message: { value: 'failed', boost: 2 } } }], should: [{ term: { message: 'login' } }] } },
      explain: true,
    }) as Json;
    expect(scores(r)).toEqual(['0=0.8742529', '4=0.43712646']);
    const weight = r.hits.hits[0]._explanation.details[0];
    expect(weight.description).toBe('weight(message:failed^2.0 in 0) [PerFieldSimilarity], result of:');
    expect(weight.details[0].details[0].details.map((d: Json) => `${javaFloatString(d.value)} = ${d.description}`)).toEqual([
      '2.0 = boost',
      '1.5108256 = idf(docFreq=2, maxDocs=5)',
      '0.31418628 = queryNorm',
    ]);
  });
});

describe('BM25 through the query DSL', () => {
  function bm25(): SearchEngine {
    const e = new SearchEngine();
    e.createIndex('logs', { mappings: { properties: { message: { type: 'text' }, bytes: { type: 'long' }, '@timestamp': { type: 'date' } } } });
    e.bulkIndex('logs', [
      { id: 'a', source: { message: 'login ok', bytes: 10, '@timestamp': '2024-01-01T00:00:00Z' } },
      { id: 'b', source: { message: 'user login failed', bytes: 2000, '@timestamp': '2024-01-02T00:00:00Z' } },
      { id: 'c', source: { message: 'disk full on host', bytes: 500, '@timestamp': '2024-01-03T00:00:00Z' } },
      { id: 'd', source: { message: 'login', bytes: 5000, '@timestamp': '2024-01-04T00:00:00Z' } },
      { id: 'e', source: { message: 'nothing to see here today', bytes: 1, '@timestamp': '2024-01-05T00:00:00Z' } },
    ]);
    e.refresh('logs');
    return e;
  }

  it('prints the Elasticsearch 8 explanation tree with boost 2.2', () => {
    const r = bm25().search('logs', { query: { match: { message: 'login' } }, explain: true }) as Json;
    const top = r.hits.hits[0];
    expect(top._id).toBe('d');
    expect(top._explanation.description).toBe('weight(message:login in 3) [PerFieldSimilarity], result of:');
    const score = top._explanation.details[0];
    expect(score.description).toBe('score(freq=1.0), computed as boost * idf * tf from:');
    expect(score.details[0]).toEqual({ value: Math.fround(2.2), description: 'boost', details: [] });
    expect(score.details[1].details.map((d: Json) => [d.description, d.value])).toEqual([
      ['n, number of documents containing term', 3],
      ['N, total number of documents with field', 5],
    ]);
    expect(top._score).toBe(score.value);
    expect(top._explanation.value).toBe(top._score);
  });

  it('filter clauses select without changing _score', () => {
    const e = bm25();
    const plain = e.search('logs', { query: { match: { message: 'login' } } }) as Json;
    const filtered = e.search('logs', { query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ range: { bytes: { gte: 1000 } } }] } } }) as Json;
    const byId = Object.fromEntries(plain.hits.hits.map((h: Json) => [h._id, h._score]));
    expect(filtered.hits.hits.map((h: Json) => h._id)).toEqual(['d', 'b']);
    for (const h of filtered.hits.hits) expect(h._score).toBe(byId[h._id]);
  });

  it('explains a passed filter as Lucene 9 does: a zero "# clause" and the filter at 1.0', () => {
    const r = bm25().explain('logs', 'd', { query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ range: { bytes: { gte: 1000 } } }] } } });
    const ex = r.body.explanation as Json;
    expect(ex.description).toBe('sum of:');
    expect(ex.details[1]).toEqual({
      value: 0,
      description: 'match on required clause, product of:',
      details: [
        { value: 0, description: '# clause', details: [] },
        { value: 1, description: 'bytes:[1000 TO *]', details: [] },
      ],
    });
    expect(ex.value).toBe(ex.details[0].value);
  });

  it('names the failed filter in the explanation of a document that does not pass it', () => {
    const r = bm25().explain('logs', 'a', { query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ range: { bytes: { gte: 1000 } } }] } } });
    expect(r.status).toBe(200);
    expect(r.body.matched).toBe(false);
    const ex = r.body.explanation as Json;
    expect(ex.description).toBe('Failure to meet condition(s) of required/prohibited clause(s)');
    expect(ex.details.map((d: Json) => d.description)).toContain('failure to match filter: bytes:[1000 TO *]');
  });

  it('names a missing must clause and answers 404 matched:false for a missing document', () => {
    const e = bm25();
    const r = e.explain('logs', 'c', { query: { bool: { must: [{ match: { message: 'login' } }, { match: { message: 'disk' } }] } } });
    expect((r.body.explanation as Json).details.map((d: Json) => d.description)).toContain('no match on required clause (message:login)');
    const missing = e.explain('logs', 'zzz', { query: { match_all: {} } });
    expect(missing).toEqual({ status: 404, body: { _index: 'logs', _type: '_doc', _id: 'zzz', matched: false } });
  });

  it('a term query is not analysed: upper case finds nothing on a lower-cased field', () => {
    const e = bm25();
    expect((e.search('logs', { query: { term: { message: 'LOGIN' } } }) as Json).hits.total.value).toBe(0);
    expect((e.search('logs', { query: { term: { message: 'login' } } }) as Json).hits.total.value).toBe(3);
  });

  it('orders equal scores by doc id as Lucene does', () => {
    const e = new SearchEngine();
    e.bulkIndex('t', ['x', 'y', 'z'].map((id) => ({ id, source: { k: 'same' } })));
    e.refresh('t');
    const r = e.search('t', { query: { match: { k: 'same' } } }) as Json;
    expect(r.hits.hits.map((h: Json) => h._id)).toEqual(['x', 'y', 'z']);
  });

  it('date math ranges, sort, from/size and _source filtering', () => {
    const e = bm25();
    const r = e.search('logs', {
      query: { range: { '@timestamp': { gte: '2024-01-04||-1d/d', lt: '2024-01-05' } } },
      sort: [{ bytes: 'desc' }],
      _source: ['message'],
    }) as Json;
    expect(r.hits.hits.map((h: Json) => [h._id, h.sort, h._source])).toEqual([
      ['d', [5000], { message: 'login' }],
      ['c', [500], { message: 'disk full on host' }],
    ]);
    expect(r.hits.max_score).toBeNull();
    const page = e.search('logs', { query: { match_all: {} }, from: 1, size: 2 }) as Json;
    expect(page.hits.hits.map((h: Json) => h._id)).toEqual(['b', 'c']);
    expect(page.hits.hits[0]._score).toBe(1);
  });
});

describe('updates and deletes keep term statistics as Lucene does before a merge', () => {
  it('a deleted document still counts in N and n until _forcemerge', () => {
    const e = new SearchEngine();
    e.bulkIndex('t', [
      { id: '1', source: { m: 'alpha beta' } },
      { id: '2', source: { m: 'alpha' } },
      { id: '3', source: { m: 'gamma' } },
    ]);
    e.refresh('t');
    e.deleteDoc('t', '2');
    e.refresh('t');
    const idf = (r: Json) => r.hits.hits[0]._explanation.details[0].details[1].details.map((d: Json) => d.value);
    const before = e.search('t', { query: { match: { m: 'alpha' } }, explain: true }) as Json;
    expect(before.hits.total.value).toBe(1);
    expect(idf(before)).toEqual([2, 3]);
    e.forceMerge('t');
    const after = e.search('t', { query: { match: { m: 'alpha' } }, explain: true }) as Json;
    expect(idf(after)).toEqual([1, 2]);
  });

  it('writes become searchable on refresh; GET by id is realtime', () => {
    const e = new SearchEngine();
    e.indexDoc('t', '1', { m: 'hello' });
    expect(e.getDoc('t', '1').found).toBe(true);
    expect((e.search('t', { query: { match_all: {} } }) as Json).hits.total.value).toBe(0);
    e.refresh('t');
    expect((e.search('t', { query: { match_all: {} } }) as Json).hits.total.value).toBe(1);
  });
});

describe('searching several indexes', () => {
  it('accepts comma lists and wildcards, each index scored with its own statistics', () => {
    const e = new SearchEngine();
    e.bulkIndex('logs-a', [{ id: '1', source: { m: 'login' } }, { id: '2', source: { m: 'other' } }]);
    e.bulkIndex('logs-b', [{ id: '1', source: { m: 'login login' } }]);
    e.refresh('logs-*');
    const both = e.search('logs-a,logs-b', { query: { match: { m: 'login' } } }) as Json;
    expect(both._shards.total).toBe(2);
    expect(both.hits.hits.map((h: Json) => `${h._index}/${h._id}`)).toEqual(['logs-a/1', 'logs-b/1']);
    const wild = e.search('logs-*', { query: { match: { m: 'login' } } }) as Json;
    expect(wild.hits.hits).toEqual(both.hits.hits);
    expect(() => e.search('logs-a,nope', { query: { match_all: {} } })).toThrow('no such index [nope]');
  });
});
