import { describe, expect, it } from 'vitest';
import { Bm25Scorer, BM25_DEFAULTS, bm25Norm, esBm25Boost } from './bm25.js';
import { javaFloatString } from './java-float.js';

const score = (docFreq: number, docCount: number, numTerms: number, sumTotalTermFreq: number, freq: number) => {
  const scorer = new Bm25Scorer(BM25_DEFAULTS, esBm25Boost(1, 1.2), { docCount, sumTotalTermFreq }, docFreq);
  return { scorer, norm: bm25Norm(numTerms), value: scorer.score(freq, bm25Norm(numTerms)) };
};

describe('BM25 scores equal Elasticsearch 8 (Lucene 9) bit for bit', () => {
  it('reproduces the Elasticsearch documentation example: n=1, N=5, dl=3, avgdl=5.4', () => {
    // Published Elasticsearch 7 explain output: boost 2.2, idf 1.3862944, tf 0.5555555, and
    // 2.2 × 1.3862944 × 0.5555555 = 1.6943597 (Lucene 8.0's product form).
    const { scorer, norm, value } = score(1, 5, 3, 27, 1);
    const e = scorer.explain(1, norm);
    expect(e.details.map((d) => javaFloatString(d.value))).toEqual(['2.2', '1.3862944', '0.5555555']);
    expect(javaFloatString(Math.fround(Math.fround(2.2 * 1.3862944) * e.details[2]!.value))).toBe('1.6943597');
    // Lucene 9 computes weight - weight / (1 + freq * normInverse), one ulp higher; value from a
    // javac run of BM25Similarity's score() formula (Lucene 9 source, transcribed outside the repo).
    expect(javaFloatString(value)).toBe('1.6943598');
    expect(e.value).toBe(value);
  });

  it.each([
    // [n, N, numTerms, sumTotalTermFreq, freq, norm byte, dl, avgdl, idf, tf, score] from the same javac run
    [1, 5, 3, 27, 2, 3, '3.0', '5.4', '1.3862944', '0.71428573', '2.1784625'],
    [3, 1000, 100, 12345, 7, 57, '96.0', '12.345', '5.655992', '0.48955208', '6.091586'],
    [10, 1000000, 41, 9876543, 1, 40, '40.0', '9.876543', '11.464136', '0.20222445', '5.1003246'],
    [250000, 1000000, 12, 11000000, 3, 12, '12.0', '11.0', '1.3862934', '0.7006369', '2.1368344'],
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
