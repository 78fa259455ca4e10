/**
 * Doc-id iterators that score, as Lucene's Scorers do: each is positioned on `doc`, moves with
 * nextDoc/advance, and scores the current doc in float32. Sums are taken in double and cast
 * once, as Lucene 9's conjunction, disjunction and req/opt scorers do.
 */
import { f32 } from '../similarity/java-float.js';
import type { PostingsCursor } from '../index/inverted-field.js';

export const NO_MORE_DOCS = 2147483647;

export interface Scorer {
  doc: number;
  nextDoc(): number;
  advance(target: number): number;
  score(): number;
  readonly cost: number;
}

/** Position of the first element >= target in a sorted Int32Array slice (galloping search). */
export function gallop(arr: Int32Array, from: number, end: number, target: number): number {
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < end && arr[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > end) hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Postings of one term: doc ids and freqs; `scoreFn(freq, doc)` gives the similarity's score. */
export class TermScorer implements Scorer {
  doc = -1;
  pos: number;
  private readonly start: number;
  private readonly end: number;
  constructor(
    private readonly postings: PostingsCursor,
    readonly freqs: Uint8Array | Uint16Array | Int32Array,
    private readonly scoreFn: (freq: number, doc: number) => number,
  ) {
    this.start = postings.start;
    this.end = postings.end;
    this.pos = this.start - 1;
  }
  get cost(): number {
    return this.end - this.start;
  }
  nextDoc(): number {
    this.pos++;
    return (this.doc = this.pos < this.end ? this.postings.docAt(this.pos) : NO_MORE_DOCS);
  }
  advance(target: number): number {
    this.pos = this.postings.advance(Math.max(this.pos, this.start), target);
    return (this.doc = this.pos < this.end ? this.postings.docAt(this.pos) : NO_MORE_DOCS);
  }
  freq(): number {
    return this.freqs[this.pos]!;
  }
  score(): number {
    return this.scoreFn(this.freqs[this.pos]!, this.doc);
  }
}

/** A sorted list of doc ids, each with the same score (filters, constant-score queries). */
export class DocSetScorer implements Scorer {
  doc = -1;
  private pos = -1;
  constructor(
    readonly docs: Int32Array,
    private readonly constant: number,
  ) {}
  get cost(): number {
    return this.docs.length;
  }
  nextDoc(): number {
    this.pos++;
    return (this.doc = this.pos < this.docs.length ? this.docs[this.pos]! : NO_MORE_DOCS);
  }
  advance(target: number): number {
    this.pos = gallop(this.docs, Math.max(this.pos, 0), this.docs.length, target);
    return (this.doc = this.pos < this.docs.length ? this.docs[this.pos]! : NO_MORE_DOCS);
  }
  score(): number {
    return this.constant;
  }
}

export class AllDocsScorer implements Scorer {
  doc = -1;
  constructor(
    private readonly maxDoc: number,
    private readonly constant: number,
  ) {}
  get cost(): number {
    return this.maxDoc;
  }
  nextDoc(): number {
    return (this.doc = this.doc + 1 < this.maxDoc ? this.doc + 1 : NO_MORE_DOCS);
  }
  advance(target: number): number {
    return (this.doc = target < this.maxDoc ? target : NO_MORE_DOCS);
  }
  score(): number {
    return this.constant;
  }
}

/** Another scorer's docs with a fixed score. */
export class ConstantScorer implements Scorer {
  constructor(
    private readonly inner: Scorer,
    private readonly constant: number,
  ) {}
  get doc(): number {
    return this.inner.doc;
  }
  get cost(): number {
    return this.inner.cost;
  }
  nextDoc(): number {
    return this.inner.nextDoc();
  }
  advance(target: number): number {
    return this.inner.advance(target);
  }
  score(): number {
    return this.constant;
  }
}

/** Docs every sub-scorer has; score = (float) Σ scoring subs (double sum). */
export class ConjunctionScorer implements Scorer {
  doc = -1;
  private readonly all: Scorer[];
  constructor(
    private readonly scoring: Scorer[],
    filters: Scorer[],
  ) {
    this.all = [...scoring, ...filters].sort((a, b) => a.cost - b.cost);
  }
  get cost(): number {
    return this.all[0]!.cost;
  }
  private align(target: number): number {
    const all = this.all;
    let doc = target;
    outer: while (doc !== NO_MORE_DOCS) {
      for (let i = 1; i < all.length; i++) {
        const s = all[i]!;
        const d = s.doc < doc ? s.advance(doc) : s.doc;
        if (d > doc) {
          doc = all[0]!.advance(d);
          continue outer;
        }
      }
      return (this.doc = doc);
    }
    return (this.doc = NO_MORE_DOCS);
  }
  nextDoc(): number {
    return this.align(this.all[0]!.nextDoc());
  }
  advance(target: number): number {
    return this.align(this.all[0]!.advance(target));
  }
  score(): number {
    let sum = 0;
    for (const s of this.scoring) sum += s.score();
    return f32(sum);
  }
}

/** Docs at least `minShouldMatch` subs have; score = (float) Σ matching subs. */
export class DisjunctionScorer implements Scorer {
  doc = -1;
  matches = 0;
  constructor(
    readonly subs: Scorer[],
    private readonly minShouldMatch = 1,
    readonly combine: 'sum' | { tieBreaker: number } = 'sum',
  ) {}
  get cost(): number {
    let c = 0;
    for (const s of this.subs) c += s.cost;
    return c;
  }
  private settle(): number {
    for (;;) {
      let min = NO_MORE_DOCS;
      for (const s of this.subs) if (s.doc < min) min = s.doc;
      if (min === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      let n = 0;
      for (const s of this.subs) if (s.doc === min) n++;
      if (n >= this.minShouldMatch) {
        this.matches = n;
        return (this.doc = min);
      }
      for (const s of this.subs) if (s.doc === min) s.nextDoc();
    }
  }
  nextDoc(): number {
    const cur = this.doc;
    for (const s of this.subs) if (s.doc <= cur || s.doc === -1) s.nextDoc();
    return this.settle();
  }
  advance(target: number): number {
    for (const s of this.subs) if (s.doc < target) s.advance(target);
    return this.settle();
  }
  score(): number {
    const doc = this.doc;
    if (this.combine === 'sum') {
      let sum = 0;
      for (const s of this.subs) if (s.doc === doc) sum += s.score();
      return f32(sum);
    }
    // DisjunctionMaxScorer: max + tieBreaker × (sum of the others)
    let scoreMax = 0;
    let otherScoreSum = 0;
    for (const s of this.subs) {
      if (s.doc !== doc) continue;
      const sub = s.score();
      if (sub >= scoreMax) {
        otherScoreSum += scoreMax;
        scoreMax = sub;
      } else otherScoreSum += sub;
    }
    return f32(scoreMax + otherScoreSum * f32(this.combine.tieBreaker));
  }
}

/** Required docs minus excluded docs. */
export class ReqExclScorer implements Scorer {
  constructor(
    private readonly req: Scorer,
    private readonly excl: Scorer,
  ) {}
  get doc(): number {
    return this.req.doc;
  }
  get cost(): number {
    return this.req.cost;
  }
  private skip(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      const e = this.excl.doc < doc ? this.excl.advance(doc) : this.excl.doc;
      if (e !== doc) return doc;
      doc = this.req.nextDoc();
    }
    return doc;
  }
  nextDoc(): number {
    return this.skip(this.req.nextDoc());
  }
  advance(target: number): number {
    return this.skip(this.req.advance(target));
  }
  score(): number {
    return this.req.score();
  }
}

/** Required docs; optional ones add their score: (float) (reqScore + optScore). */
export class ReqOptSumScorer implements Scorer {
  constructor(
    private readonly req: Scorer,
    private readonly opt: Scorer,
  ) {}
  get doc(): number {
    return this.req.doc;
  }
  get cost(): number {
    return this.req.cost;
  }
  nextDoc(): number {
    return this.req.nextDoc();
  }
  advance(target: number): number {
    return this.req.advance(target);
  }
  score(): number {
    const doc = this.req.doc;
    let score = this.req.score();
    const o = this.opt.doc < doc ? this.opt.advance(doc) : this.opt.doc;
    if (o === doc) score += this.opt.score();
    return f32(score);
  }
}

/** Classic (Lucene 4) coord: the inner score × matched/maximum scoring clauses. */
export class CoordScorer implements Scorer {
  constructor(
    private readonly inner: Scorer,
    private readonly clauses: Scorer[],
    private readonly coords: Float32Array,
  ) {}
  get doc(): number {
    return this.inner.doc;
  }
  get cost(): number {
    return this.inner.cost;
  }
  nextDoc(): number {
    return this.inner.nextDoc();
  }
  advance(target: number): number {
    return this.inner.advance(target);
  }
  score(): number {
    const score = this.inner.score();
    const doc = this.inner.doc;
    let n = 0;
    for (const c of this.clauses) {
      const d = c.doc < doc ? c.advance(doc) : c.doc;
      if (d === doc) n++;
    }
    return f32(score * this.coords[n]!);
  }
}
