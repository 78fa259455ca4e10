/**
 * The postings of one indexed field, compact: a term dictionary and, per term, a run of doc
 * ids and freqs in two Int32Arrays (CSR layout), plus one norm byte per document. New documents
 * collect in a pending buffer and become searchable on refresh, which rebuilds the arrays
 * (old postings first, then new ones, so doc ids stay ascending within each term).
 *
 * Statistics (docFreq, docCount, sumTotalTermFreq) count deleted documents too, as Lucene's do
 * until a merge drops them; Loupe merges only on `_forcemerge` (see IndexShard).
 */
import { bm25Avgdl, bm25NormInverseCache } from '../similarity/bm25.js';
import { f32 } from '../similarity/java-float.js';
import type { Analyzer } from '../analysis/analyzers.js';
import { TermDict } from './term-dict.js';

export const BLOCK_SIZE = 128;
const CHUNK = 3 * 65536;

export class InvertedField {
  readonly termIds = new TermDict();
  readonly terms: string[] = this.termIds.terms;

  // searchable snapshot
  offsets = new Int32Array(1);
  docs = new Int32Array(0);
  /** Uint8Array while every freq fits in a byte (the usual case), wider only when needed. */
  freqs: Uint8Array | Uint16Array | Int32Array = new Uint8Array(0);
  /** Documents that have the field (N / docCount) as of the last refresh. */
  docCount = 0;
  sumTotalTermFreq = 0;
  /** Number of terms visible to searches (terms added later have empty postings until refresh). */
  searchableTerms = 0;
  /** Per block of BLOCK_SIZE postings: the largest freq and the norm byte that scores highest. */
  blockMaxFreq = new Int32Array(0);
  blockBestNorm = new Uint8Array(0);
  /** Per term: first block index (blocks of a term are contiguous). */
  termFirstBlock = new Int32Array(1);

  // pending (doc, termId, freq) triples of documents indexed since the last refresh, in
  // fixed-size chunks so that a large bulk load never copies or doubles one huge buffer
  private readonly chunks: Int32Array[] = [];
  private pending = new Int32Array(CHUNK);
  private pendingLen = 0;
  private pendingDocCount = 0;
  private pendingSumTtf = 0;

  /** Norm byte per doc (0 when the doc has no value); only for fields with norms. */
  norms: Uint8Array;
  /** Per term id: last doc that had it and where its freq sits in `pending` (no per-doc Map). */
  private lastDoc = new Int32Array(1024).fill(-1);
  private lastAt = new Int32Array(1024);
  private lastChunk = new Int32Array(1024);

  /**
   * BM25 fields: per block the largest freq × normInverse (with this field's k1, b and avgdl).
   * BM25 rises monotonically with that product, so the block's best score follows from it exactly.
   */
  blockMaxX = new Float32Array(0);

  constructor(
    readonly hasNorms: boolean,
    /** Which norm byte scores highest: BM25 prefers short fields (low byte), classic high bytes. */
    readonly higherNormScoresMore: boolean,
    /** k1 and b when the field scores with BM25. */
    readonly bm25?: { k1: number; b: number },
  ) {
    this.norms = new Uint8Array(hasNorms ? 1024 : 0);
  }

  termId(term: string): number {
    return this.termIds.intern(term);
  }

  /** Tokens of the document being indexed so far (see startDoc). */
  docTokens = 0;
  private currentDoc = -1;

  /** Starts counting a doc's tokens; true the first time for that doc (the caller then calls finishDoc once). */
  startDoc(doc: number): boolean {
    if (this.currentDoc === doc) return false;
    this.currentDoc = doc;
    this.docTokens = 0;
    return true;
  }

  /** Adds the tokens of one value of a doc straight from the text; returns how many. Call finishDoc after the doc's last value. */
  addText(doc: number, text: string, analyzer: Analyzer): number {
    let count = 0;
    const lower = analyzer.lowercase;
    analyzer.ranges(text, (start, end) => {
      this.addTermId(doc, this.termIds.internRange(text, start, end, lower));
      count++;
    });
    this.docTokens += count;
    return count;
  }

  /** Adds one whole term (a keyword value) to a doc. Call finishDoc after the doc's last value. */
  addTerm(doc: number, term: string): void {
    this.addTermId(doc, this.termIds.intern(term));
    this.docTokens++;
  }

  private addTermId(doc: number, id: number): void {
    if (this.pendingLen + 3 > this.pending.length) {
      this.chunks.push(this.pending.subarray(0, this.pendingLen));
      this.pending = new Int32Array(CHUNK);
      this.pendingLen = 0;
    }
    if (id >= this.lastDoc.length) this.growScratch(id + 1);
    if (this.lastDoc[id] === doc) {
      const c = this.lastChunk[id]!;
      (c === this.chunks.length ? this.pending : this.chunks[c]!)[this.lastAt[id]!]!++;
    } else {
      const p = this.pending;
      let len = this.pendingLen;
      this.lastDoc[id] = doc;
      this.lastChunk[id] = this.chunks.length;
      p[len++] = doc;
      p[len++] = id;
      this.lastAt[id] = len;
      p[len++] = 1;
      this.pendingLen = len;
    }
  }

  /** Ends a doc added with addText: counts it and stores its norm. */
  finishDoc(doc: number, numTerms: number, norm: number): void {
    if (numTerms === 0) return;
    this.pendingDocCount++;
    this.pendingSumTtf += numTerms;
    if (this.hasNorms) {
      if (doc >= this.norms.length) {
        const grown = new Uint8Array(Math.max(doc + 1, this.norms.length * 2));
        grown.set(this.norms);
        this.norms = grown;
      }
      this.norms[doc] = norm;
    }
  }

  private growScratch(size: number): void {
    const n = Math.max(size, this.lastDoc.length * 2);
    const last = new Int32Array(n).fill(-1);
    last.set(this.lastDoc);
    this.lastDoc = last;
    const at = new Int32Array(n);
    at.set(this.lastAt);
    this.lastAt = at;
    const ch = new Int32Array(n);
    ch.set(this.lastChunk);
    this.lastChunk = ch;
  }

  get hasPending(): boolean {
    return this.pendingLen > 0 || this.chunks.length > 0;
  }

  /** Makes pending postings searchable. */
  refresh(): void {
    const numTerms = this.terms.length;
    if (!this.hasPending && numTerms === this.searchableTerms) return;
    const parts = [...this.chunks, this.pending.subarray(0, this.pendingLen)];
    const counts = new Int32Array(numTerms + 1);
    for (let t = 0; t < this.searchableTerms; t++) counts[t] = this.offsets[t + 1]! - this.offsets[t]!;
    for (const p of parts) for (let i = 1; i < p.length; i += 3) counts[p[i]!]!++;
    const offsets = new Int32Array(numTerms + 1);
    for (let t = 0; t < numTerms; t++) offsets[t + 1] = offsets[t]! + counts[t]!;
    const total = offsets[numTerms]!;
    const docs = new Int32Array(total);
    let maxFreq = 0;
    for (const p of parts) for (let i = 2; i < p.length; i += 3) if (p[i]! > maxFreq) maxFreq = p[i]!;
    for (let i = 0; i < this.freqs.length; i++) if (this.freqs[i]! > maxFreq) maxFreq = this.freqs[i]!;
    const freqs = maxFreq < 256 ? new Uint8Array(total) : maxFreq < 65536 ? new Uint16Array(total) : new Int32Array(total);
    const cursor = new Int32Array(numTerms);
    for (let t = 0; t < this.searchableTerms; t++) {
      const from = this.offsets[t]!;
      const to = this.offsets[t + 1]!;
      docs.set(this.docs.subarray(from, to), offsets[t]!);
      freqs.set(this.freqs.subarray(from, to), offsets[t]!);
      cursor[t] = offsets[t]! + (to - from);
    }
    for (let t = this.searchableTerms; t < numTerms; t++) cursor[t] = offsets[t]!;
    for (const p of parts) {
      for (let i = 0; i < p.length; i += 3) {
        const t = p[i + 1]!;
        const at = cursor[t]!++;
        docs[at] = p[i]!;
        freqs[at] = p[i + 2]!;
      }
    }
    this.bitsets.clear();
    this.offsets = offsets;
    this.docs = docs;
    this.freqs = freqs;
    this.searchableTerms = numTerms;
    this.docCount += this.pendingDocCount;
    this.sumTotalTermFreq += this.pendingSumTtf;
    this.chunks.length = 0;
    this.pending = new Int32Array(CHUNK);
    this.pendingLen = 0;
    this.pendingDocCount = 0;
    this.pendingSumTtf = 0;
    this.buildBlockMax();
  }

  private buildBlockMax(): void {
    const numTerms = this.searchableTerms;
    const firstBlock = new Int32Array(numTerms + 1);
    for (let t = 0; t < numTerms; t++) {
      const len = this.offsets[t + 1]! - this.offsets[t]!;
      firstBlock[t + 1] = firstBlock[t]! + Math.ceil(len / BLOCK_SIZE);
    }
    const numBlocks = firstBlock[numTerms]!;
    const maxFreq = new Int32Array(numBlocks);
    const bestNorm = new Uint8Array(numBlocks);
    const norms = this.norms;
    const hasNorms = this.hasNorms;
    const higher = this.higherNormScoresMore;
    const maxX = new Float32Array(this.bm25 ? numBlocks : 0);
    const cache = this.bm25 && this.docCount > 0 ? bm25NormInverseCache(f32(this.bm25.k1), f32(this.bm25.b), bm25Avgdl(this)) : undefined;
    for (let t = 0; t < numTerms; t++) {
      const start = this.offsets[t]!;
      const end = this.offsets[t + 1]!;
      let block = firstBlock[t]!;
      for (let b = start; b < end; b += BLOCK_SIZE, block++) {
        const bEnd = Math.min(end, b + BLOCK_SIZE);
        let mf = 0;
        let bn = higher ? 0 : 255;
        let mx = 0;
        for (let i = b; i < bEnd; i++) {
          const f = this.freqs[i]!;
          if (f > mf) mf = f;
          if (hasNorms) {
            const n = norms[this.docs[i]!]!;
            if (higher ? n > bn : n < bn) bn = n;
          }
          if (cache) {
            const x = f32(f * cache[hasNorms ? norms[this.docs[i]!]! : 1]!);
            if (x > mx) mx = x;
          }
        }
        if (cache) maxX[block] = mx;
        maxFreq[block] = mf;
        bestNorm[block] = hasNorms ? bn : 1;
      }
    }
    this.blockMaxFreq = maxFreq;
    this.blockMaxX = maxX;
    this.blockBestNorm = bestNorm;
    this.termFirstBlock = firstBlock;
  }

  private readonly bitsets = new Map<number, Uint8Array>();

  /** One byte per doc for a term's postings (term filters); a few are kept until the next refresh. */
  termBitset(termId: number, maxDoc: number): Uint8Array {
    let b = this.bitsets.get(termId);
    if (!b || b.length !== maxDoc) {
      b = new Uint8Array(maxDoc);
      for (let i = this.offsets[termId]!, end = this.offsets[termId + 1]!; i < end; i++) b[this.docs[i]!] = 1;
      if (this.bitsets.size >= 8) this.bitsets.delete(this.bitsets.keys().next().value!);
      this.bitsets.set(termId, b);
    }
    return b;
  }

  /** Searchable docFreq of a term id (deleted documents included, as in Lucene). */
  docFreq(termId: number): number {
    if (termId >= this.searchableTerms) return 0;
    return this.offsets[termId + 1]! - this.offsets[termId]!;
  }

  normOf(doc: number): number {
    return this.hasNorms ? (this.norms[doc] ?? 0) : 1;
  }

  memoryBytes(): number {
    return (
      this.offsets.byteLength +
      this.docs.byteLength +
      this.freqs.byteLength +
      this.norms.byteLength +
      this.blockMaxFreq.byteLength +
      this.blockBestNorm.byteLength +
      this.blockMaxX.byteLength +
      this.termFirstBlock.byteLength +
      this.pending.byteLength +
      this.termIds.memoryBytes()
    );
  }
}
