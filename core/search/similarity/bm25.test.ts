import { describe, expect, it } from 'vitest';
import { Bm25Scorer, BM25_DEFAULTS, bm25Norm, esBm25Boost } from './bm25.js';
import { javaFloatString } from './java-float.js';
import type { Explanation } from './explanation.js';

const score = (docFreq: number, docCount: number, numTerms: number, sumTotalTermFreq: number, freq: number) => {
  const scorer = new Bm25Scorer(BM25_DEFAULTS, esBm25Boost(1, 1.2), { docCount, sumTotalTermFreq }, docFreq);
  return { scorer, norm: bm25Norm(numTerms), value: scorer.score(freq, bm25Norm(numTerms)) };
};

describe('BM25 scores equal Elasticsearch 8 (Lucene 9) bit for bit', () => {
  it('reproduces the published Elasticsearch 8 explain output: n=1, N=5, dl=3, avgdl=5.4', () => {
    // Elasticsearch reference, Explain API example (GET /my-index-000001/_explain/0, match message:elasticsearch):
    // value 1.6943598 = boost 2.2 × idf 1.3862944 (n 1, N 5) × tf 0.5555556 (freq 1.0, k1 1.2, b 0.75, dl 3.0, avgdl 5.4).
    // (The Elasticsearch 7 docs printed 1.6943597 and tf 0.5555555, from Lucene 8's older formulas.)
    const { scorer, norm, value } = score(1, 5, 3, 27, 1);
    const e = scorer.explain(1, norm);
    expect(javaFloatString(value)).toBe('1.6943598');
    expect(e.value).toBe(value);
    const show = (x: Explanation): unknown => ({ value: x.integer ? String(x.value) : javaFloatString(x.value), description: x.description, details: x.details.map(show) });
    expect(show(e)).toEqual({
      value: '1.6943598',
      description: 'score(freq=1.0), computed as boost * idf * tf from:',
      details: [
        { value: '2.2', description: 'boost', details: [] },
        {
          value: '1.3862944',
          description: 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
          details: [
            { value: '1', description: 'n, number of documents containing term', details: [] },
            { value: '5', description: 'N, total number of documents with field', details: [] },
          ],
        },
        {
          value: '0.5555556',
          description: 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
          details: [
            { value: '1.0', description: 'freq, occurrences of term within document', details: [] },
            { value: '1.2', description: 'k1, term saturation parameter', details: [] },
            { value: '0.75', description: 'b, length normalization parameter', details: [] },
            { value: '3.0', description: 'dl, length of field', details: [] },
            { value: '5.4', description: 'avgdl, average length of field', details: [] },
          ],
        },
      ],
    });
  });

  it.each([
    // [n, N, numTerms, sumTotalTermFreq, freq, norm byte, dl, avgdl, idf, tf, score] from a javac run of
    // BM25Similarity's score() and explain() float formulas (transcribed outside the repository)
    [1, 5, 3, 27, 2, 3, '3.0', '5.4', '1.3862944', '0.71428573', '2.1784625'],
    [3, 1000, 100, 12345, 7, 57, '96.0', '12.345', '5.655992', '0.48955208', '6.091586'],
    [10, 1000000, 41, 9876543, 1, 40, '40.0', '9.876543', '11.464136', '0.2022245', '5.1003246'],
    [250000, 1000000, 12, 11000000, 3, 12, '12.0', '11.0', '1.3862934', '0.700637', '2.1368344'],
  ] as const)('n=%i N=%i length=%i', (n, N, len, sum, freq, normByte, dl, avgdl, idf, tf, expected) => {
    const { scorer, norm, value } = score(n, N, len, sum, freq);
    expect(norm).toBe(normByte);
    expect(javaFloatString(value)).toBe(expected);
    const e = scorer.explain(freq, norm);
    const tfNode = e.details[2]!;
    expect(javaFloatString(e.details[1]!.value)).toBe(idf);
    expect(javaFloatString(tfNode.value)).toBe(tf);
    expect(javaFloatString(tfNode.details[3]!.value)).toBe(dl);
    expect(javaFloatString(tfNode.details[4]!.value)).toBe(avgdl);
    expect(tfNode.details[3]!.description).toBe(normByte > 39 ? 'dl, length of field (approximate)' : 'dl, length of field');
  });

  it('explains with Lucene 9 wording', () => {
    const { scorer, norm } = score(1, 5, 3, 27, 1);
    const e = scorer.explain(1, norm);
    expect(e.description).toBe('score(freq=1.0), computed as boost * idf * tf from:');
    expect(e.details.map((d) => d.description)).toEqual([
      'boost',
      'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
      'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
    ]);
    expect(e.details[1]!.details.map((d) => [d.description, d.value, d.integer])).toEqual([
      ['n, number of documents containing term', 1, true],
      ['N, total number of documents with field', 5, true],
    ]);
  });
});
