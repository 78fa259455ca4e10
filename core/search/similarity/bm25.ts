/**
 * BM25 as Lucene 9 computes it (BM25Similarity), with Elasticsearch's legacy boost of k1 + 1
 * (LegacyBM25Similarity) applied by the caller through `boost`. Every line is a Java float
 * operation, rounded with f32. `score` and `explain` read the same fields.
 */
import { f32, javaFloatString } from './java-float.js';
import { LENGTH_TABLE, intToByte4 } from './small-float.js';
import { match, matchLong, type Explanation } from './explanation.js';

export interface Bm25Params {
  k1: number;
  b: number;
}
export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

export interface FieldStats {
  /** N: documents that have the field (deleted ones included until merged). */
  docCount: number;
  /** Total number of tokens in the field over those documents. */
  sumTotalTermFreq: number;
}

/** idf = (float) log(1 + (N - n + 0.5) / (n + 0.5)), in double then cast. */
export function bm25Idf(docFreq: number, docCount: number): number {
  return f32(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

/** avgdl = (float) (sumTotalTermFreq / (double) docCount) */
export function bm25Avgdl(stats: FieldStats): number {
  return f32(stats.sumTotalTermFreq / stats.docCount);
}

/** The norm byte Lucene stores for a field of `numTerms` tokens: SmallFloat.intToByte4(numTerms). */
export function bm25Norm(numTerms: number): number {
  return intToByte4(numTerms);
}

/** Elasticsearch's boost: query boost × (k1 + 1), both floats. */
export function esBm25Boost(queryBoost: number, k1: number): number {
  return f32(f32(queryBoost) * f32(1 + f32(k1)));
}

/** cache[i] = 1f / (k1 * ((1 - b) + b * LENGTH_TABLE[i] / avgdl)) */
export function bm25NormInverseCache(k1: number, b: number, avgdl: number): Float32Array {
  const cache = new Float32Array(256);
  const oneMinusB = f32(1 - b);
  for (let i = 0; i < 256; i++) {
    cache[i] = f32(1 / f32(k1 * f32(oneMinusB + f32(f32(b * LENGTH_TABLE[i]!) / avgdl))));
  }
  return cache;
}

export class Bm25Scorer {
  readonly k1: number;
  readonly b: number;
  readonly idf: number;
  readonly avgdl: number;
  /** weight = boost * idf */
  readonly weight: number;
  readonly cache: Float32Array;

  constructor(
    params: Bm25Params,
    readonly boost: number,
    readonly fieldStats: FieldStats,
    readonly docFreq: number,
    cache?: Float32Array,
  ) {
    this.k1 = f32(params.k1);
    this.b = f32(params.b);
    this.idf = bm25Idf(docFreq, fieldStats.docCount);
    this.avgdl = bm25Avgdl(fieldStats);
    this.cache = cache ?? bm25NormInverseCache(this.k1, this.b, this.avgdl);
    this.weight = f32(f32(boost) * this.idf);
  }

  /** weight - weight / (1f + freq * normInverse) */
  score(freq: number, norm: number): number {
    const normInverse = this.cache[norm & 0xff]!;
    return f32(this.weight - f32(this.weight / f32(1 + f32(freq * normInverse))));
  }

  explain(freq: number, norm: number): Explanation {
    const subs: Explanation[] = [];
    if (f32(this.boost) !== 1) subs.push(match(f32(this.boost), 'boost'));
    subs.push(
      match(
        this.idf,
        'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
        matchLong(this.docFreq, 'n, number of documents containing term'),
        matchLong(this.fieldStats.docCount, 'N, total number of documents with field'),
      ),
    );
    subs.push(this.explainTf(freq, norm));
    return match(this.score(freq, norm), `score(freq=${freqString(freq)}), computed as boost * idf * tf from:`, ...subs);
  }

  /**
   * tf = 1f - 1f / (1 + freq * normInverse), normInverse = 1f / (k1 * ((1 - b) + b * dl / avgdl)):
   * the same float path as score(), which is what Elasticsearch 8 prints (tf 0.5555556 in its
   * explain documentation; Lucene 8's double form printed 0.5555555).
   */
  private explainTf(freq: number, norm: number): Explanation {
    const dl = LENGTH_TABLE[norm & 0xff]!;
    const normInverse = f32(1 / f32(this.k1 * f32(f32(1 - this.b) + f32(f32(this.b * dl) / this.avgdl))));
    const tf = f32(1 - f32(1 / f32(1 + f32(freq * normInverse))));
    return match(
      tf,
      'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
      match(f32(freq), 'freq, occurrences of term within document'),
      match(this.k1, 'k1, term saturation parameter'),
      match(this.b, 'b, length normalization parameter'),
      match(dl, (norm & 0xff) > 39 ? 'dl, length of field (approximate)' : 'dl, length of field'),
      match(this.avgdl, 'avgdl, average length of field'),
    );
  }
}

/** A freq as Java prints a float inside a description ("1.0"). */
export function freqString(freq: number): string {
  return javaFloatString(freq);
}
