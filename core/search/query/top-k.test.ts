import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Elasticsearch JSON freely
type Json = Record<string, any>;

function corpus(seed: number, n: number): SearchEngine {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const vocab = Array.from({ length: 60 }, (_, i) => `w${i}`);
  const e = new SearchEngine();
  e.createIndex('c', { mappings: { properties: { body: { type: 'text' }, n: { type: 'long' } } } });
  const docs = [];
  for (let i = 0; i < n; i++) {
    const len = 1 + Math.floor(rnd() * 60);
    const words = Array.from({ length: len }, () => vocab[Math.floor(rnd() ** 2.5 * vocab.length)]);
    docs.push({ id: `d${i}`, source: { body: words.join(' '), n: Math.floor(rnd() * 100) } });
  }
  e.bulkIndex('c', docs);
  e.refresh('c');
  // some updates and deletes so that live docs and statistics diverge
  for (let i = 0; i < n / 20; i++) e.deleteDoc('c', `d${Math.floor(rnd() * n)}`);
  e.bulkIndex('c', [{ id: 'd1', source: { body: 'w1 w2 w3 w1', n: 5 } }]);
  e.refresh('c');
  return e;
}

const view = (r: Json) => r.hits.hits.map((h: Json) => `${h._id}:${h._score}`);

describe('pruned top-k retrieval returns exactly what scoring every match returns', () => {
  it('on random corpora, for 1-, 2- and 3-term matches with and without filters', () => {
    for (const seed of [1, 7, 42]) {
      const e = corpus(seed, 30000);
      let s = seed * 31;
      const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      for (let q = 0; q < 30; q++) {
        const nTerms = 1 + (q % 3);
        const text = Array.from({ length: nTerms }, () => `w${Math.floor(rnd() ** 1.5 * 60)}`).join(' ');
        const size = [1, 3, 10, 25][q % 4]!;
        const bodies: Json[] = [
          { query: { match: { body: text } }, size, track_total_hits: 5 },
          { query: { bool: { must: [{ match: { body: text } }], filter: [{ range: { n: { gte: 30 } } }] } }, size, track_total_hits: 5 },
        ];
        for (const body of bodies) {
          const pruned = e.search('c', body) as Json;
          const full = e.searchExhaustive('c', { ...body, track_total_hits: true }) as Json;
          expect(view(pruned), `${seed} ${JSON.stringify(body)}`).toEqual(view(full));
          expect(pruned.hits.max_score).toBe(full.hits.max_score);
          if (full.hits.total.value > 5) expect(pruned.hits.total).toEqual({ value: 5, relation: 'gte' });
          else expect(pruned.hits.total).toEqual(full.hits.total);
        }
      }
    }
  });
});
