/**
 * The postings of one indexed field, compact: a term dictionary and, per term, a run of doc
 * ids and freqs in two Int32Arrays (CSR layout), plus one norm byte per document. New documents
 * collect in a pending buffer and become searchable on refresh, which rebuilds the arrays
 * (old postings first, then new ones, so doc ids stay ascending within each term).
 *
 * Statistics (docFreq, docCount, sumTotalTermFreq) count deleted documents too, as Lucene's do
 * until a merge drops them; Loupe merges only on `_forcemerge` (see IndexShard).
 */
export const BLOCK_SIZE = 128;

export class InvertedField {
  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];

  // searchable snapshot
  offsets = new Int32Array(1);
  docs = new Int32Array(0);
  freqs = new Int32Array(0);
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

  // pending (doc, termId, freq) triples of documents indexed since the last refresh
  private pending = new Int32Array(3 * 1024);
  private pendingLen = 0;
  private pendingDocCount = 0;
  private pendingSumTtf = 0;

  /** Norm byte per doc (0 when the doc has no value); only for fields with norms. */
  norms: Uint8Array;
  private readonly counts = new Map<number, number>();

  constructor(
    readonly hasNorms: boolean,
    /** Which norm byte scores highest: BM25 prefers short fields (low byte), classic high bytes. */
    readonly higherNormScoresMore: boolean,
  ) {
    this.norms = new Uint8Array(hasNorms ? 1024 : 0);
  }

  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  /** Adds one document's tokens; `norm` is the already encoded length norm. */
  addDoc(doc: number, tokens: string[], norm: number): void {
    if (tokens.length === 0) return;
    const counts = this.counts;
    counts.clear();
    for (const t of tokens) {
      const id = this.termId(t);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const need = this.pendingLen + counts.size * 3;
    if (need > this.pending.length) {
      const grown = new Int32Array(Math.max(need, this.pending.length * 2));
      grown.set(this.pending.subarray(0, this.pendingLen));
      this.pending = grown;
    }
    const p = this.pending;
    let len = this.pendingLen;
    for (const [id, freq] of counts) {
      p[len++] = doc;
      p[len++] = id;
      p[len++] = freq;
    }
    this.pendingLen = len;
    this.pendingDocCount++;
    this.pendingSumTtf += tokens.length;
    if (this.hasNorms) {
      if (doc >= this.norms.length) {
        const grown = new Uint8Array(Math.max(doc + 1, this.norms.length * 2));
        grown.set(this.norms);
        this.norms = grown;
      }
      this.norms[doc] = norm;
    }
  }

  get hasPending(): boolean {
    return this.pendingLen > 0;
  }

  /** Makes pending postings searchable. */
  refresh(): void {
    const numTerms = this.terms.length;
    if (this.pendingLen === 0 && numTerms === this.searchableTerms) return;
    const counts = new Int32Array(numTerms + 1);
    for (let t = 0; t < this.searchableTerms; t++) counts[t] = this.offsets[t + 1]! - this.offsets[t]!;
    const p = this.pending;
    for (let i = 1; i < this.pendingLen; i += 3) counts[p[i]!]!++;
    const offsets = new Int32Array(numTerms + 1);
    for (let t = 0; t < numTerms; t++) offsets[t + 1] = offsets[t]! + counts[t]!;
    const total = offsets[numTerms]!;
    const docs = new Int32Array(total);
    const freqs = new Int32Array(total);
    const cursor = new Int32Array(numTerms);
    for (let t = 0; t < this.searchableTerms; t++) {
      const from = this.offsets[t]!;
      const to = this.offsets[t + 1]!;
      docs.set(this.docs.subarray(from, to), offsets[t]!);
      freqs.set(this.freqs.subarray(from, to), offsets[t]!);
      cursor[t] = offsets[t]! + (to - from);
    }
    for (let t = this.searchableTerms; t < numTerms; t++) cursor[t] = offsets[t]!;
    for (let i = 0; i < this.pendingLen; i += 3) {
      const t = p[i + 1]!;
      const at = cursor[t]!++;
      docs[at] = p[i]!;
      freqs[at] = p[i + 2]!;
    }
    this.offsets = offsets;
    this.docs = docs;
    this.freqs = freqs;
    this.searchableTerms = numTerms;
    this.docCount += this.pendingDocCount;
    this.sumTotalTermFreq += this.pendingSumTtf;
    this.pendingLen = 0;
    this.pendingDocCount = 0;
    this.pendingSumTtf = 0;
    if (this.pending.length > 3 * 1024 * 1024) this.pending = new Int32Array(3 * 1024);
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
    for (let t = 0; t < numTerms; t++) {
      const start = this.offsets[t]!;
      const end = this.offsets[t + 1]!;
      let block = firstBlock[t]!;
      for (let b = start; b < end; b += BLOCK_SIZE, block++) {
        const bEnd = Math.min(end, b + BLOCK_SIZE);
        let mf = 0;
        let bn = higher ? 0 : 255;
        for (let i = b; i < bEnd; i++) {
          const f = this.freqs[i]!;
          if (f > mf) mf = f;
          if (hasNorms) {
            const n = norms[this.docs[i]!]!;
            if (higher ? n > bn : n < bn) bn = n;
          }
        }
        maxFreq[block] = mf;
        bestNorm[block] = hasNorms ? bn : 1;
      }
    }
    this.blockMaxFreq = maxFreq;
    this.blockBestNorm = bestNorm;
    this.termFirstBlock = firstBlock;
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
      this.termFirstBlock.byteLength +
      this.pending.byteLength +
      this.terms.reduce((s, t) => s + 40 + t.length * 2, 0)
    );
  }
}
