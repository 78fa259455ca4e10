/**
 * Queries bound to an index: each Weight builds a Scorer and explains one document from the
 * same numbers. Labels are Lucene's Query.toString, which explanations quote.
 *
 * Two scoring modes follow the index's default similarity: `modern` is Lucene 9 as in
 * Elasticsearch 8 (BM25, no coord, no queryNorm); `classic` is Lucene 4.10 as in Elasticsearch
 * 1.x/2.x (queryNorm over the whole query, coord on boolean queries).
 */
import type { IndexShard } from '../index/shard.js';
import type { InvertedField } from '../index/inverted-field.js';
import type { FieldMapper } from '../mapping/mapping.js';
import { Bm25Scorer, bm25NormInverseCache, bm25Avgdl, esBm25Boost } from '../similarity/bm25.js';
import { ClassicScorer, classicCoord } from '../similarity/classic.js';
import { f32, javaFloatString } from '../similarity/java-float.js';
import { match, noMatch, type Explanation } from '../similarity/explanation.js';
import type { SimilarityConfig } from '../index/similarity-config.js';
import {
  AllDocsScorer,
  ConjunctionScorer,
  ConstantScorer,
  CoordScorer,
  DisjunctionScorer,
  DocSetScorer,
  NO_MORE_DOCS,
  ReqExclScorer,
  ReqOptSumScorer,
  TermScorer,
  type Scorer,
} from './scorers.js';

export type Mode = 'modern' | 'classic';

export interface Weight {
  /** Lucene's Query.toString. */
  readonly label: string;
  scorer(): Scorer | null;
  explain(doc: number): Explanation;
  /** Classic mode: this weight's part of sumOfSquaredWeights. */
  valueForNormalization(): number;
  normalize(queryNorm: number, topLevelBoost: number): void;
  /** For top-k: the term weights a disjunction is made of (undefined when not a plain term). */
  readonly term?: TermWeight;
}

export interface WeightContext {
  shard: IndexShard;
  mode: Mode;
}

const bm25Caches = new WeakMap<InvertedField, Map<string, Float32Array>>();

/** One term of one field, scored with the field's similarity. */
export class TermWeight implements Weight {
  readonly label: string;
  readonly docFreq: number;
  readonly termId: number;
  private readonly bm25?: Bm25Scorer;
  private readonly classic?: ClassicScorer;
  private readonly boolBoost?: number;
  readonly term = this;

  constructor(
    readonly ctx: WeightContext,
    readonly mapper: FieldMapper,
    readonly field: InvertedField | undefined,
    readonly text: string,
    readonly boost: number,
  ) {
    this.termId = field?.termIds.get(text) ?? -1;
    this.docFreq = field && this.termId >= 0 ? field.docFreq(this.termId) : 0;
    const sim: SimilarityConfig = ctx.shard.similarityOf(mapper);
    const classicLabel = ctx.mode === 'classic' && f32(boost) !== 1 ? `^${javaFloatString(boost)}` : '';
    this.label = `${mapper.path}:${text}${classicLabel}`;
    if (sim.kind === 'classic') this.classic = new ClassicScorer(boost, this.docFreq, ctx.shard.searchMaxDoc);
    else if (sim.kind === 'boolean') this.boolBoost = f32(boost);
    else if (field) {
      const stats = { docCount: field.docCount, sumTotalTermFreq: field.sumTotalTermFreq };
      const key = `${sim.k1}/${sim.b}/${stats.docCount}/${stats.sumTotalTermFreq}`;
      let caches = bm25Caches.get(field);
      if (!caches) bm25Caches.set(field, (caches = new Map()));
      let cache = caches.get(key);
      if (!cache) caches.set(key, (cache = bm25NormInverseCache(f32(sim.k1), f32(sim.b), bm25Avgdl(stats))));
      this.bm25 = new Bm25Scorer(sim, esBm25Boost(boost, sim.k1), stats, this.docFreq, cache);
    }
  }

  get bm25Scorer(): Bm25Scorer | undefined {
    return this.bm25;
  }

  scoreOf(freq: number, doc: number): number {
    const norm = this.field!.normOf(doc);
    if (this.bm25) return this.bm25.score(freq, norm);
    if (this.classic) return this.classic.score(freq, this.field!.hasNorms ? norm : -1);
    return this.boolBoost!;
  }

  scorer(): Scorer | null {
    if (!this.field || this.termId < 0 || this.docFreq === 0) return null;
    const f = this.field;
    if (this.bm25) {
      const sim = this.bm25;
      const norms = f.norms;
      const hasNorms = f.hasNorms;
      return new TermScorer(f.postings(this.termId), f.freqs, (freq, doc) => sim.score(freq, hasNorms ? norms[doc]! : 1));
    }
    return new TermScorer(f.postings(this.termId), f.freqs, (freq, doc) => this.scoreOf(freq, doc));
  }

  freqIn(doc: number): number {
    const s = this.scorer() as TermScorer | null;
    if (!s || s.advance(doc) !== doc) return 0;
    return s.freq();
  }

  explain(doc: number): Explanation {
    const freq = this.freqIn(doc);
    if (freq === 0) return noMatch('no matching term');
    const norm = this.field!.normOf(doc);
    let inner: Explanation;
    if (this.bm25) inner = this.bm25.explain(freq, norm);
    else if (this.classic) inner = this.classic.explain(doc, freq, this.field!.hasNorms ? norm : -1);
    else inner = match(this.boolBoost!, 'score(BooleanSimilarity), computed from:', match(this.boolBoost!, 'boost, query boost'));
    return match(inner.value, `weight(${this.label} in ${doc}) [PerFieldSimilarity], result of:`, inner);
  }

  valueForNormalization(): number {
    return this.classic ? this.classic.valueForNormalization() : 0;
  }

  normalize(queryNorm: number, topLevelBoost: number): void {
    this.classic?.normalize(queryNorm, topLevelBoost);
  }
}

/** A fixed set of docs with a constant score (range, terms, exists, ids, prefix, match_all, constant_score). */
export class ConstantWeight implements Weight {
  /** Set when the doc set is one term's postings (a term filter). */
  termSource?: { field: InvertedField; termId: number };
  private value: number;
  private queryWeight: number;
  constructor(
    readonly ctx: WeightContext,
    readonly label: string,
    private readonly docs: () => Int32Array | 'all',
    readonly boost: number,
    /** Whether this query takes part in classic normalization (scoring queries do, filters do not). */
    private readonly normalizes = true,
  ) {
    this.value = f32(boost);
    this.queryWeight = f32(boost);
  }
  /** The matching doc ids (possibly shared with the filter cache; never modify). */
  docSet(): Int32Array | 'all' {
    return this.docs();
  }

  scorer(): Scorer | null {
    const d = this.docs();
    if (d === 'all') return this.ctx.shard.searchMaxDoc === 0 ? null : new AllDocsScorer(this.ctx.shard.searchMaxDoc, this.value);
    return d.length === 0 ? null : new DocSetScorer(d, this.value);
  }
  explain(doc: number): Explanation {
    const s = this.scorer();
    if (s && s.advance(doc) === doc) {
      if (this.ctx.mode === 'classic' && this.normalizes) {
        return match(this.value, `${this.label}, product of:`, match(f32(this.boost), 'boost'), match(f32(this.value / f32(this.boost || 1)), 'queryNorm'));
      }
      return match(this.value, this.label + (this.value === 1 ? '' : `^${javaFloatString(this.value)}`));
    }
    return noMatch(`${this.label} doesn't match id ${doc}`);
  }
  valueForNormalization(): number {
    if (this.ctx.mode !== 'classic' || !this.normalizes) return 0;
    return f32(this.queryWeight * this.queryWeight);
  }
  normalize(queryNorm: number, topLevelBoost: number): void {
    if (this.ctx.mode !== 'classic' || !this.normalizes) return;
    this.value = f32(this.queryWeight * f32(queryNorm * topLevelBoost));
  }
}

export class MatchNoneWeight implements Weight {
  constructor(readonly label: string) {}
  scorer(): Scorer | null {
    return null;
  }
  explain(): Explanation {
    return noMatch(this.label);
  }
  valueForNormalization(): number {
    return 0;
  }
  normalize(): void {}
}

/** A weight whose scorer is a constant-score view of another (constant_score and filter clauses). */
export class ConstantWrapWeight implements Weight {
  private value: number;
  constructor(
    readonly ctx: WeightContext,
    readonly inner: Weight,
    readonly boost: number,
  ) {
    this.value = f32(boost);
    this.label = `ConstantScore(${inner.label})`;
  }
  readonly label: string;
  scorer(): Scorer | null {
    const s = this.inner.scorer();
    return s ? new ConstantScorer(s, this.value) : null;
  }
  explain(doc: number): Explanation {
    const s = this.inner.scorer();
    if (s && s.advance(doc) === doc) return match(this.value, this.label + (this.value === 1 ? '' : `^${javaFloatString(this.value)}`));
    return noMatch(`${this.label} doesn't match id ${doc}`);
  }
  valueForNormalization(): number {
    return this.ctx.mode === 'classic' ? f32(f32(this.boost) * f32(this.boost)) : 0;
  }
  normalize(queryNorm: number, topLevelBoost: number): void {
    if (this.ctx.mode === 'classic') this.value = f32(f32(this.boost) * f32(queryNorm * topLevelBoost));
  }
}

/** best_fields multi_match: the best field's score plus tie_breaker × the others (Lucene DisjunctionMaxQuery). */
export class DisMaxWeight implements Weight {
  readonly label: string;
  constructor(
    readonly subs: Weight[],
    readonly tieBreaker: number,
  ) {
    this.label = `(${subs.map((s) => s.label).join(' | ')})${tieBreaker !== 0 ? `~${javaFloatString(tieBreaker)}` : ''}`;
  }
  scorer(): Scorer | null {
    const scorers = this.subs.map((s) => s.scorer()).filter((s): s is Scorer => s !== null);
    if (scorers.length === 0) return null;
    return new DisjunctionScorer(scorers, 1, { tieBreaker: this.tieBreaker });
  }
  explain(doc: number): Explanation {
    const matches = this.subs.map((s) => s.explain(doc)).filter((e) => e.match);
    if (matches.length === 0) return noMatch('No matching clause');
    const s = this.scorer()!;
    s.advance(doc);
    const desc = this.tieBreaker === 0 ? 'max of:' : `max plus ${javaFloatString(this.tieBreaker)} times others of:`;
    return match(s.score(), desc, ...matches);
  }
  valueForNormalization(): number {
    // Lucene 4 DisjunctionMaxWeight: max + tie × (sum − max), squared per sub
    let max = 0;
    let sum = 0;
    for (const s of this.subs) {
      const v = s.valueForNormalization();
      max = Math.max(max, v);
      sum = f32(sum + v);
    }
    return f32(f32(f32(sum - max) * f32(this.tieBreaker * this.tieBreaker)) + max);
  }
  normalize(queryNorm: number, topLevelBoost: number): void {
    for (const s of this.subs) s.normalize(queryNorm, topLevelBoost);
  }
}

export type Occur = 'must' | 'filter' | 'should' | 'must_not';
export interface Clause {
  occur: Occur;
  weight: Weight;
}

const OCCUR_PREFIX: Record<Occur, string> = { must: '+', filter: '#', should: '', must_not: '-' };

export class BooleanWeight implements Weight {
  readonly label: string;
  constructor(
    readonly ctx: WeightContext,
    readonly clauses: Clause[],
    readonly minShouldMatch: number,
    /** Classic mode: the BooleanQuery's own boost, passed down as topLevelBoost. */
    readonly boost = 1,
  ) {
    const inner = clauses
      .map((c) => {
        const l = c.weight instanceof BooleanWeight ? `(${c.weight.label})` : c.weight.label;
        return OCCUR_PREFIX[c.occur] + l;
      })
      .join(' ');
    this.label = minShouldMatch > 0 ? `(${inner})~${minShouldMatch}` : inner;
  }

  private get scoringCount(): number {
    return this.clauses.filter((c) => c.occur === 'must' || c.occur === 'should').length;
  }

  scorer(): Scorer | null {
    const must: Scorer[] = [];
    const filter: Scorer[] = [];
    const should: Scorer[] = [];
    const mustNot: Scorer[] = [];
    const scoringClauses: Scorer[] = [];
    for (const c of this.clauses) {
      const s = c.weight.scorer();
      if (!s) {
        if (c.occur === 'must' || c.occur === 'filter') return null;
        continue;
      }
      if (c.occur === 'must') must.push(s);
      else if (c.occur === 'filter') filter.push(s);
      else if (c.occur === 'should') should.push(s);
      else mustNot.push(s);
      if (c.occur === 'must' || c.occur === 'should') scoringClauses.push(s);
    }
    const msm = this.minShouldMatch;
    if (should.length < msm) return null;
    let main: Scorer;
    if (must.length === 0 && filter.length === 0) {
      if (should.length === 0) return null;
      main = should.length === 1 ? should[0]! : new DisjunctionScorer(should, Math.max(1, msm));
    } else {
      const required: Scorer =
        must.length + filter.length === 1 && filter.length === 0
          ? must[0]!
          : must.length === 0 && filter.length === 1
            ? new ConstantScorer(filter[0]!, 0)
            : new ConjunctionScorer(must, filter);
      if (should.length === 0) main = required;
      else if (msm > 0) {
        const opt = should.length === 1 ? should[0]! : new DisjunctionScorer(should, msm);
        main = new ConjunctionScorer([required, opt], []);
      } else main = new ReqOptSumScorer(required, should.length === 1 ? should[0]! : new DisjunctionScorer(should, 1));
    }
    if (mustNot.length) main = new ReqExclScorer(main, mustNot.length === 1 ? mustNot[0]! : new DisjunctionScorer(mustNot, 1));
    if (this.ctx.mode === 'classic') {
      const max = this.scoringCount;
      if (max > 1) {
        const coords = new Float32Array(max + 1);
        for (let i = 0; i <= max; i++) coords[i] = classicCoord(i, max);
        main = new CoordScorer(main, scoringClauses, coords);
      }
    }
    return main;
  }

  explain(doc: number): Explanation {
    return this.ctx.mode === 'classic' ? this.explainClassic(doc) : this.explainModern(doc);
  }

  /** Lucene 9 BooleanWeight.explain, with Lucene 4's wording for a failed filter. */
  private explainModern(doc: number): Explanation {
    const subs: Explanation[] = [];
    let fail = false;
    let matchCount = 0;
    let shouldMatchCount = 0;
    for (const c of this.clauses) {
      const e = c.weight.explain(doc);
      if (e.match) {
        if (c.occur === 'must' || c.occur === 'should') subs.push(e);
        else if (c.occur === 'filter') subs.push(match(0, 'match on required clause, product of:', match(0, '# clause'), e));
        else {
          subs.push(noMatch(`match on prohibited clause (${c.weight.label})`, e));
          fail = true;
        }
        if (c.occur !== 'must_not') matchCount++;
        if (c.occur === 'should') shouldMatchCount++;
      } else if (c.occur === 'must') {
        subs.push(noMatch(`no match on required clause (${c.weight.label})`, e));
        fail = true;
      } else if (c.occur === 'filter') {
        subs.push(noMatch(`failure to match filter: ${c.weight.label}`, e));
        fail = true;
      }
    }
    if (fail) return noMatch('Failure to meet condition(s) of required/prohibited clause(s)', ...subs);
    if (matchCount === 0) return noMatch('No matching clauses', ...subs);
    if (shouldMatchCount < this.minShouldMatch) return noMatch(`Failure to match minimum number of optional clauses: ${this.minShouldMatch}`, ...subs);
    const s = this.scorer();
    const value = s && s.advance(doc) === doc ? s.score() : 0;
    return match(value, 'sum of:', ...subs);
  }

  /** Lucene 4.10 BooleanWeight.explain: float sum of matching clauses, then coord. */
  private explainClassic(doc: number): Explanation {
    const subs: Explanation[] = [];
    let fail = false;
    let sum = 0;
    let coord = 0;
    let shouldMatchCount = 0;
    for (const c of this.clauses) {
      const e = c.weight.explain(doc);
      if (e.match) {
        if (c.occur === 'must_not') {
          subs.push(noMatch(`match on prohibited clause (${c.weight.label})`, e));
          fail = true;
        } else if (c.occur === 'filter') {
          subs.push(match(0, 'match on required clause, product of:', match(0, '# clause'), e));
        } else {
          subs.push(e);
          sum = f32(sum + e.value);
          coord++;
        }
        if (c.occur === 'should') shouldMatchCount++;
      } else if (c.occur === 'must') {
        subs.push(noMatch(`no match on required clause (${c.weight.label})`, e));
        fail = true;
      } else if (c.occur === 'filter') {
        subs.push(noMatch(`failure to match filter: ${c.weight.label}`, e));
        fail = true;
      }
    }
    if (fail) return noMatch('Failure to meet condition(s) of required/prohibited clause(s)', ...subs);
    if (shouldMatchCount < this.minShouldMatch) return noMatch(`Failure to match minimum number of optional clauses: ${this.minShouldMatch}`, ...subs);
    const sumExpl: Explanation = { value: sum, description: 'sum of:', details: subs, match: coord > 0 };
    const max = this.scoringCount;
    const coordFactor = max > 1 ? classicCoord(coord, max) : 1;
    if (coordFactor === 1) return sumExpl;
    return { value: f32(sum * coordFactor), description: 'product of:', details: [sumExpl, match(coordFactor, `coord(${coord}/${max})`)], match: sumExpl.match };
  }

  valueForNormalization(): number {
    let sum = 0;
    for (const c of this.clauses) if (c.occur !== 'must_not') sum = f32(sum + c.weight.valueForNormalization());
    return f32(sum * f32(f32(this.boost) * f32(this.boost)));
  }

  normalize(queryNorm: number, topLevelBoost: number): void {
    const boost = f32(topLevelBoost * f32(this.boost));
    for (const c of this.clauses) c.weight.normalize(queryNorm, boost);
  }
}

export { NO_MORE_DOCS };
