/**
 * Collecting the best hits, as Lucene's TopScoreDocCollector does: higher score first, and on
 * equal scores the lower doc id first (documents arrive in doc id order, so a later doc with an
 * equal score never displaces an earlier one). Deleted and not-yet-refreshed docs are skipped.
 */
import type { IndexShard } from '../index/shard.js';
import { NO_MORE_DOCS, type Scorer } from './scorers.js';

export interface TopDocs {
  docs: Int32Array;
  scores: Float32Array;
  /** Matching docs counted (exact when relation is 'eq'). */
  total: number;
  relation: 'eq' | 'gte';
  maxScore: number;
}

/** A bounded min-heap of (score, doc) where "smaller" means worse. */
export class HitQueue {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  size = 0;
  constructor(readonly capacity: number) {
    this.docs = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }
  private worse(i: number, j: number): boolean {
    const si = this.scores[i]!;
    const sj = this.scores[j]!;
    return si < sj || (si === sj && this.docs[i]! > this.docs[j]!);
  }
  /** The score a new hit must beat once full (ties lose, since later docs have larger ids). */
  get minScore(): number {
    return this.size < this.capacity ? -Infinity : this.scores[0]!;
  }
  insert(doc: number, score: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      let i = this.size++;
      this.docs[i] = doc;
      this.scores[i] = score;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    const s0 = this.scores[0]!;
    if (score < s0 || (score === s0 && doc > this.docs[0]!)) return;
    this.docs[0] = doc;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  private swap(i: number, j: number): void {
    const d = this.docs[i]!;
    this.docs[i] = this.docs[j]!;
    this.docs[j] = d;
    const s = this.scores[i]!;
    this.scores[i] = this.scores[j]!;
    this.scores[j] = s;
  }
  /** Best first. */
  sorted(): { docs: Int32Array; scores: Float32Array } {
    const idx = Array.from({ length: this.size }, (_, i) => i).sort((a, b) => this.scores[b]! - this.scores[a]! || this.docs[a]! - this.docs[b]!);
    return { docs: Int32Array.from(idx.map((i) => this.docs[i]!)), scores: Float32Array.from(idx.map((i) => this.scores[i]!)) };
  }
}

/** Scores every matching doc (the exhaustive path; the reference the top-k path must equal). */
export function collectAll(shard: IndexShard, scorer: Scorer | null, k: number, minScore?: number): TopDocs {
  const queue = new HitQueue(k);
  let total = 0;
  let maxScore = -Infinity;
  if (scorer) {
    const live = shard.searchLive;
    for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
      if (live[doc] !== 1) continue;
      const score = scorer.score();
      if (minScore !== undefined && score < minScore) continue;
      total++;
      if (score > maxScore) maxScore = score;
      queue.insert(doc, score);
    }
  }
  const { docs, scores } = queue.sorted();
  return { docs, scores, total, relation: 'eq', maxScore };
}
