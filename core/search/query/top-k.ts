/**
 * Top-k retrieval that skips what cannot compete, with scores bit-identical to the exhaustive
 * path (block-max MaxScore, as Lucene's MaxScoreBulkScorer does it):
 *
 * - Hits are counted exactly until track_total_hits is passed; from then on a doc must beat the
 *   k-th best score (ties lose, since later docs have larger ids).
 * - Postings are cut in blocks of 128 with the block's largest freq and best norm, which bound
 *   every score in the block (BM25 rises with freq and falls with length, in float32 too).
 * - Documents are processed in windows of doc ids. In each window the terms whose bounds sum to
 *   no more than the k-th score are "non-essential": they are only looked up for docs that an
 *   essential term brings; a window whose bounds sum cannot compete is skipped whole.
 *
 * Scores are summed in double and cast once, exactly like the exhaustive scorers; the sum of
 * a few float32 values is exact in double, so the order of terms does not change a bit.
 *
 * Applies to BM25 term queries, disjunctions of them (match with operator or), and a bool with
 * one such must clause plus filters. Anything else takes the exhaustive path.
 */
import type { IndexShard } from '../index/shard.js';
import { BLOCK_SIZE, type PostingsCursor } from '../index/inverted-field.js';
import { f32 } from '../similarity/java-float.js';
import { collectAll, HitQueue, type TopDocs } from './collect.js';
import { NO_MORE_DOCS } from './scorers.js';
import { BooleanWeight, ConstantWeight, TermWeight, type Weight } from './weights.js';

const WINDOW = 8192;

interface Plan {
  terms: TermWeight[];
  filters: Weight[];
}

function disjunctionTerms(w: Weight): TermWeight[] | undefined {
  if (w instanceof TermWeight) return w.bm25Scorer && w.ctx.mode === 'modern' ? [w] : undefined;
  if (w instanceof BooleanWeight && w.ctx.mode === 'modern' && w.minShouldMatch <= 1 && w.clauses.length > 0 && w.clauses.every((c) => c.occur === 'should' && c.weight instanceof TermWeight && c.weight.bm25Scorer)) {
    return w.clauses.map((c) => c.weight as TermWeight);
  }
  return undefined;
}

function planOf(w: Weight): Plan | undefined {
  const terms = disjunctionTerms(w);
  if (terms) return { terms, filters: [] };
  if (w instanceof BooleanWeight && w.ctx.mode === 'modern') {
    const must = w.clauses.filter((c) => c.occur === 'must');
    const filters = w.clauses.filter((c) => c.occur === 'filter');
    if (must.length === 1 && filters.length + 1 === w.clauses.length) {
      const t = disjunctionTerms(must[0]!.weight);
      if (t) return { terms: t, filters: filters.map((c) => c.weight) };
    }
  }
  return undefined;
}

interface TermState {
  post: PostingsCursor;
  freqs: Uint8Array | Uint16Array | Int32Array;
  pos: number;
  start: number;
  end: number;
  weight: number;
  cache: Float32Array;
  norms: Uint8Array | undefined;
  firstBlock: number;
  maxFreq: Int32Array;
  bestNorm: Uint8Array;
  /** Exact block maxima of freq × normInverse when the field's avgdl matches this scorer's. */
  maxX: Float32Array | undefined;
  /** Lazily computed block bounds (NaN = not yet). */
  bound: Float32Array;
  windowMax: number;
}

function score(t: TermState, freq: number, doc: number): number {
  const normInverse = t.cache[t.norms ? t.norms[doc]! : 1]!;
  return f32(t.weight - f32(t.weight / f32(1 + f32(freq * normInverse))));
}

function blockBound(t: TermState, b: number): number {
  let v = t.bound[b]!;
  if (v !== v) {
    const g = t.firstBlock + b;
    const x = t.maxX ? t.maxX[g]! : f32(t.maxFreq[g]! * t.cache[t.norms ? t.bestNorm[g]! : 1]!);
    v = f32(t.weight - f32(t.weight / f32(1 + x)));
    t.bound[b] = v;
  }
  return v;
}

const bitsets = new WeakMap<Int32Array, Uint8Array>();

/** A byte per doc for a (possibly cached) doc set; cached doc sets keep theirs. */
function bitsetOf(docs: Int32Array, maxDoc: number): Uint8Array {
  let b = bitsets.get(docs);
  if (!b || b.length !== maxDoc) {
    b = new Uint8Array(maxDoc);
    for (let i = 0; i < docs.length; i++) b[docs[i]!] = 1;
    bitsets.set(docs, b);
  }
  return b;
}

function drainDocs(w: Weight): Int32Array {
  const s = w.scorer();
  if (!s) return new Int32Array(0);
  const out: number[] = [];
  for (let d = s.nextDoc(); d !== NO_MORE_DOCS; d = s.nextDoc()) out.push(d);
  return Int32Array.from(out);
}

export function collectTopK(shard: IndexShard, weight: Weight, k: number, totalHitsThreshold: number): TopDocs {
  const plan = k > 0 && totalHitsThreshold !== Infinity ? planOf(weight) : undefined;
  if (!plan) {
    const all = collectAll(shard, weight.scorer(), k);
    return all;
  }
  const maxDoc = shard.searchMaxDoc;
  // without deletions every doc below searchMaxDoc is live: no byte to read per posting
  const live = shard.searchDeleted > 0 ? shard.searchLive : undefined;
  let filter: Uint8Array | undefined;
  if (plan.filters.length) {
    const sets: Array<Int32Array | 'all'> = [];
    const only = plan.filters.length === 1 ? plan.filters[0] : undefined;
    if (only instanceof ConstantWeight && only.termSource && only.termSource.termId < only.termSource.field.searchableTerms) {
      filter = only.termSource.field.termBitset(only.termSource.termId, maxDoc);
    } else for (const f of plan.filters) {
      const set = f instanceof ConstantWeight ? f.docSet() : drainDocs(f);
      if (set !== 'all' && set.length === 0) return { docs: new Int32Array(0), scores: new Float32Array(0), total: 0, relation: 'eq', maxScore: -Infinity };
      sets.push(set);
    }
    const real = sets.filter((x): x is Int32Array => x !== 'all');
    if (filter) {
      // a term filter's bitset is already set
    } else if (real.length === 1) filter = bitsetOf(real[0]!, maxDoc);
    else if (real.length > 1) {
      const counts = new Uint8Array(maxDoc);
      for (const set of real) for (let i = 0; i < set.length; i++) counts[set[i]!]!++;
      for (let d = 0; d < maxDoc; d++) counts[d] = counts[d] === real.length ? 1 : 0;
      filter = counts;
    }
  }
  const terms: TermState[] = [];
  for (const tw of plan.terms) {
    const f = tw.field;
    if (!f || tw.termId < 0 || tw.docFreq === 0) continue;
    const sim = tw.bm25Scorer!;
    const start = f.offsets[tw.termId]!;
    const end = f.offsets[tw.termId + 1]!;
    const firstBlock = f.termFirstBlock[tw.termId]!;
    terms.push({
      post: f.postings(tw.termId),
      freqs: f.freqs,
      pos: start,
      start,
      end,
      weight: sim.weight,
      cache: sim.cache,
      norms: f.hasNorms ? f.norms : undefined,
      firstBlock,
      maxFreq: f.blockMaxFreq,
      bestNorm: f.blockBestNorm,
      maxX: f.blockMaxX.length > 0 && f.bm25 && f32(f.bm25.k1) === sim.k1 && f32(f.bm25.b) === sim.b && sim.avgdl === f32(f.sumTotalTermFreq / f.docCount) ? f.blockMaxX : undefined,
      bound: new Float32Array(Math.ceil((end - start) / BLOCK_SIZE)).fill(NaN),
      windowMax: 0,
    });
  }
  const queue = new HitQueue(k);
  let total = 0;
  let counting = true;
  let minScore = -Infinity;
  const acc = new Float64Array(WINDOW);
  /** One bit per doc of the window that an essential term brought; scanned in doc order. */
  const bits = new Int32Array(WINDOW >> 5);
  const order: TermState[] = [];

  let winStart = 0;
  while (winStart < maxDoc) {
    // jump to the first doc any term still has
    let next = NO_MORE_DOCS;
    for (const t of terms) if (t.pos < t.end && t.post.docAt(t.pos) < next) next = t.post.docAt(t.pos);
    if (next === NO_MORE_DOCS) break;
    if (next > winStart) winStart = next;
    const winEnd = Math.min(winStart + WINDOW - 1, maxDoc - 1);

    // bounds of each term inside the window
    let boundSum = 0;
    order.length = 0;
    for (const t of terms) {
      t.windowMax = 0;
      if (t.pos >= t.end || t.post.docAt(t.pos) > winEnd) continue;
      if (!counting) {
        const b0 = ((t.pos - t.start) / BLOCK_SIZE) | 0;
        let b = b0;
        const blocks = t.bound.length;
        let m = 0;
        // blocks that may hold a doc of the window: the current one, then each whose
        // predecessor ends before the window does (a bound, never too small)
        while (b < blocks && (b === b0 || t.post.lastDocOfBlock(b - 1) < winEnd)) {
          const v = blockBound(t, b);
          if (v > m) m = v;
          b++;
        }
        t.windowMax = m;
        boundSum += m;
      }
      order.push(t);
    }
    if (!counting && boundSum <= minScore) {
      for (const t of order) t.pos = t.post.advance(t.pos, winEnd + 1);
      winStart = winEnd + 1;
      continue;
    }
    // split into non-essential (cannot compete alone) and essential terms
    let nonEssential = 0;
    let nonEssentialSum = 0;
    if (!counting) {
      order.sort((a, b) => a.windowMax - b.windowMax);
      while (nonEssential < order.length && nonEssentialSum + order[nonEssential]!.windowMax <= minScore) {
        nonEssentialSum += order[nonEssential]!.windowMax;
        nonEssential++;
      }
    }
    let nTouched = 0;
    let firstWord = WINDOW >> 5;
    let lastWord = -1;
    const essentialCount = order.length - nonEssential;
    for (let i = nonEssential; i < order.length; i++) {
      const t = order[i]!;
      const post = t.post;
      const end = t.end;
      let pos = t.pos;
      const single = essentialCount === 1 && !counting;
      while (pos < end) {
        // block-max skipping when one term leads
        if (single && (pos - t.start) % BLOCK_SIZE === 0) {
          const b = ((pos - t.start) / BLOCK_SIZE) | 0;
          if (blockBound(t, b) + nonEssentialSum <= minScore) {
            const nextBlock = Math.min(end, t.start + (b + 1) * BLOCK_SIZE);
            if (post.lastDocOfBlock(b) <= winEnd) {
              pos = nextBlock;
              continue;
            }
          }
        }
        const doc = post.docAt(pos);
        if (doc > winEnd) break;
        if ((live === undefined || live[doc] === 1) && (filter === undefined || filter[doc] === 1)) {
          const off = doc - winStart;
          const s = score(t, t.freqs[pos]!, doc);
          const w = off >> 5;
          const mask = 1 << (off & 31);
          if ((bits[w]! & mask) === 0) {
            bits[w] = bits[w]! | mask;
            acc[off] = s;
            nTouched++;
            if (w < firstWord) firstWord = w;
            if (w > lastWord) lastWord = w;
          } else acc[off] += s;
        }
        pos++;
      }
      t.pos = pos;
    }
    for (let w = firstWord; nTouched > 0 && w <= lastWord; w++) {
      let word = bits[w]!;
      if (word === 0) continue;
      bits[w] = 0;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const off = (w << 5) + (31 - Math.clz32(low));
        const doc = winStart + off;
        let s = acc[off]!;
        if (counting) total++;
        if (nonEssential > 0) {
          if (s + nonEssentialSum <= minScore) continue;
          for (let j = 0; j < nonEssential; j++) {
            const t = order[j]!;
            if (t.pos < t.end && t.post.docAt(t.pos) < doc) t.pos = t.post.advance(t.pos, doc);
            if (t.pos < t.end && t.post.docAt(t.pos) === doc) s += score(t, t.freqs[t.pos]!, doc);
          }
        }
        const final = f32(s);
        queue.insert(doc, final);
        if (!counting && queue.size === k) minScore = queue.minScore;
      }
    }
    for (let j = 0; j < nonEssential; j++) {
      const t = order[j]!;
      t.pos = t.post.advance(t.pos, winEnd + 1);
    }
    if (counting && total > totalHitsThreshold && queue.size === k) {
      counting = false;
      minScore = queue.minScore;
    }
    winStart = winEnd + 1;
  }
  const { docs, scores } = queue.sorted();
  return { docs, scores, total, relation: counting ? 'eq' : 'gte', maxScore: scores.length ? scores[0]! : -Infinity };
}
