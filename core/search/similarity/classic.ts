/**
 * Classic TF/IDF as Lucene 4.10 computes it (DefaultSimilarity / TFIDFSimilarity): tf = sqrt(freq),
 * idf = ln(maxDocs / (docFreq + 1)) + 1, fieldNorm = 1/sqrt(numTerms) stored with
 * floatToByte315, queryNorm = 1/sqrt(sumOfSquaredWeights), coord = overlap / maxOverlap.
 * A term's weight is normalized once for the whole query (`normalize`) before scoring.
 */
import { f32, javaFloatString } from './java-float.js';
import { NORM_TABLE, floatToByte315 } from './small-float.js';
import { match, type Explanation } from './explanation.js';

export function classicTf(freq: number): number {
  return f32(Math.sqrt(freq));
}

/** (float)(Math.log(numDocs/(double)(docFreq+1)) + 1.0) */
export function classicIdf(docFreq: number, maxDocs: number): number {
  return f32(Math.log(maxDocs / (docFreq + 1)) + 1.0);
}

/** lengthNorm = boost * (float)(1.0 / Math.sqrt(numTerms)), encoded with floatToByte315. */
export function classicNorm(numTerms: number, fieldBoost = 1): number {
  return floatToByte315(f32(f32(fieldBoost) * f32(1.0 / Math.sqrt(numTerms))));
}

export function classicDecodeNorm(norm: number): number {
  return NORM_TABLE[norm & 0xff]!;
}

/** queryNorm(sumOfSquaredWeights) = (float)(1.0 / Math.sqrt(sumOfSquaredWeights)); infinite or NaN becomes 1. */
export function classicQueryNorm(sumOfSquaredWeights: number): number {
  const norm = f32(1.0 / Math.sqrt(sumOfSquaredWeights));
  return Number.isFinite(norm) ? norm : 1;
}

/** coord(overlap, maxOverlap) = overlap / (float) maxOverlap */
export function classicCoord(overlap: number, maxOverlap: number): number {
  return f32(overlap / maxOverlap);
}

export class ClassicScorer {
  readonly idf: number;
  /** idf * queryBoost, then × queryNorm after normalize() */
  private queryWeight: number;
  private queryNorm = 1;
  /** queryWeight * idf after normalize() */
  private value: number;

  constructor(
    readonly queryBoost: number,
    readonly docFreq: number,
    readonly maxDocs: number,
  ) {
    this.idf = classicIdf(docFreq, maxDocs);
    this.queryWeight = f32(this.idf * f32(queryBoost));
    this.value = f32(this.queryWeight * this.idf);
  }

  /** getValueForNormalization: queryWeight² */
  valueForNormalization(): number {
    const w = f32(this.idf * f32(this.queryBoost));
    return f32(w * w);
  }

  normalize(queryNorm: number, topLevelBoost: number): void {
    this.queryNorm = f32(queryNorm * topLevelBoost);
    this.queryWeight = f32(f32(this.idf * f32(this.queryBoost)) * this.queryNorm);
    this.value = f32(this.queryWeight * this.idf);
  }

  /** raw = tf(freq) * value; score = raw * decodeNormValue(norm); norm -1 means the field has no norms. */
  score(freq: number, norm: number): number {
    const raw = f32(classicTf(freq) * this.value);
    return norm < 0 ? raw : f32(raw * classicDecodeNorm(norm));
  }

  /** TFIDFSimilarity.explainScore; returns fieldWeight alone when queryWeight is exactly 1. */
  explain(doc: number, freq: number, norm: number): Explanation {
    const freqText = javaFloatString(freq);
    const idfExpl = match(this.idf, `idf(docFreq=${this.docFreq}, maxDocs=${this.maxDocs})`);
    const queryDetails: Explanation[] = [];
    const boost = f32(this.queryBoost);
    if (boost !== 1) queryDetails.push(match(boost, 'boost'));
    queryDetails.push(idfExpl, match(this.queryNorm, 'queryNorm'));
    const queryExpl = match(f32(f32(boost * this.idf) * this.queryNorm), 'queryWeight, product of:', ...queryDetails);

    const tf = classicTf(freq);
    const fieldNorm = norm < 0 ? 1 : classicDecodeNorm(norm);
    const fieldExpl = match(
      f32(f32(tf * this.idf) * fieldNorm),
      `fieldWeight in ${doc}, product of:`,
      match(tf, `tf(freq=${freqText}), with freq of:`, match(f32(freq), `termFreq=${freqText}`)),
      idfExpl,
      match(fieldNorm, `fieldNorm(doc=${doc})`),
    );
    if (queryExpl.value === 1) return fieldExpl;
    return match(
      f32(queryExpl.value * fieldExpl.value),
      `score(doc=${doc},freq=${freqText}), product of:`,
      queryExpl,
      fieldExpl,
    );
  }
}
