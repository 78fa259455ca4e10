/**
 * The postings of one indexed field, compact: a term dictionary and, per term, a run of doc
 * ids (packed in blocks of 128, see `docChunks`) and freqs (CSR layout), plus one norm byte
 * per document. New documents collect in a pending buffer and become searchable on refresh,
 * which rebuilds the arrays (old postings first, then new ones, so doc ids stay ascending
 * within each term).
 *
 * Statistics (docFreq, docCount, sumTotalTermFreq) count deleted documents too, as Lucene's do
 * until a merge drops them; Loupe merges only on `_forcemerge` (see IndexShard).
 */
import { bm25Avgdl, bm25NormInverseCache } from '../similarity/bm25.js';
import { f32 } from '../similarity/java-float.js';
import type { Analyzer } from '../analysis/analyzers.js';
import { asciiWordRanges } from '../analysis/standard-tokenizer.js';
import { TermDict } from './term-dict.js';

export const BLOCK_SIZE = 128;
const EMPTY_BYTES = new Uint8Array(0);
const CHUNK = 3 * 65536;

/** Postings of some pending documents, sorted by term: `terms` ascending, each one's postings up to `ends[j]`. */
interface PendingRun {
  terms: Int32Array;
  ends: Int32Array;
  /** Doc ids less `base`: two bytes each when the run spans fewer than 65536 docs (the usual case). */
  base: number;
  docs: Uint16Array | Int32Array;
  freqs: Uint8Array | Uint16Array | Int32Array;
  maxFreq: number;
}

export class InvertedField {
  readonly termIds = new TermDict();
  readonly terms: string[] = this.termIds.terms;

  // searchable snapshot
  /** Per term: index of its first posting (postings of a term are contiguous, in doc order). */
  offsets = new Int32Array(1);
  /**
   * Doc ids, in blocks of BLOCK_SIZE postings (frame of reference, as Lucene packs them): block
   * g stores each doc as its offset from the block's first doc `blockBase[g]`, in
   * `blockWidth[g]` bytes (1 when the block spans fewer than 256 docs, up to 4), little-endian
   * from `blockByteStart[g]` in its term's chunk of bytes, `docChunks[termChunk[t]]`. Any doc
   * of a block reads directly (no decoding), and `blockLastDoc` lets a cursor skip whole
   * blocks. Frequent terms take 1–2 bytes per doc. A refresh writes a chunk per slice of terms
   * and keeps them apart: joining them would allocate the whole field's bytes a second time.
   */
  docChunks: Uint8Array[] = [];
  termChunk: Uint16Array | Int32Array = new Uint16Array(0);
  blockByteStart = new Int32Array(1);
  blockBase = new Int32Array(0);
  blockWidth = new Uint8Array(0);
  blockLastDoc = new Int32Array(0);
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

  // postings of documents indexed since the last refresh: (doc, termId, freq) triples of the
  // latest documents, sorted into a compact run (per term: docs, freqs) whenever the buffer
  // fills, as Lucene flushes segments; refresh merges the runs
  private pending = new Int32Array(0);
  private pendingLen = 0;
  private readonly runs: PendingRun[] = [];
  /** Per term id, zero between flushes: counts, then write cursors, while a run is sorted. */
  private runCounts = new Int32Array(0);
  private pendingDocCount = 0;
  private pendingSumTtf = 0;

  /** Norm byte per doc (0 when the doc has no value); only for fields with norms. */
  norms: Uint8Array;
  /** Per term id, side by side: last doc that had it and where its freq sits in `pending` (no per-doc Map). */
  private lastDocAt = new Int32Array(2048).fill(-1);

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
    /** Postings gathered at a time on refresh (more when one term has more); small in tests. */
    private readonly refreshSlice = 1 << 20,
  ) {
    this.norms = new Uint8Array(hasNorms ? 1024 : 0);
  }

  termId(term: string): number {
    return this.termIds.intern(term);
  }

  /** Token ranges of plain ASCII text (asciiWordRanges), reused from value to value. */
  private readonly words = { ranges: new Int32Array(256), hashes: new Int32Array(128), count: 0 };

  /** Tokens of the document being indexed so far (see startDoc). */
  docTokens = 0;
  private currentDoc = -1;

  /** Starts counting a doc's tokens; true the first time for that doc (the caller then calls finishDoc once). */
  startDoc(doc: number): boolean {
    if (this.currentDoc === doc) return false;
    // the previous document is complete: its postings may move into a run
    if (this.pendingLen >= CHUNK - 3 * 1024) this.flushRun();
    this.currentDoc = doc;
    this.docTokens = 0;
    return true;
  }

  /** Adds the tokens of one value of a doc straight from the text; returns how many. Call finishDoc after the doc's last value. */
  addText(doc: number, text: string, analyzer: Analyzer): number {
    const lower = analyzer.lowercase;
    const words = this.words;
    // the fast path's hashes are of lower-cased words, as the analyzers that use it lower-case
    if (lower && analyzer.asciiWords && asciiWordRanges(text, words)) {
      const { ranges, hashes } = words;
      for (let i = 0; i < words.count; i++) this.addTermId(doc, this.termIds.internAscii(text, ranges[2 * i]!, ranges[2 * i + 1]!, true, hashes[i]!));
      this.docTokens += words.count;
      return words.count;
    }
    let count = 0;
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
      // a document with more distinct terms than the buffer has room for (or the first one)
      const grown = new Int32Array(Math.max(CHUNK, this.pending.length * 2));
      grown.set(this.pending.subarray(0, this.pendingLen));
      this.pending = grown;
    }
    if (2 * id >= this.lastDocAt.length) this.growScratch(id + 1);
    const last = this.lastDocAt;
    if (last[2 * id] === doc) this.pending[last[2 * id + 1]!]!++;
    else {
      const p = this.pending;
      let len = this.pendingLen;
      last[2 * id] = doc;
      p[len++] = doc;
      p[len++] = id;
      last[2 * id + 1] = len;
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
    const grown = new Int32Array(Math.max(2 * size, this.lastDocAt.length * 2)).fill(-1);
    grown.set(this.lastDocAt);
    this.lastDocAt = grown;
  }

  get hasPending(): boolean {
    return this.pendingLen > 0 || this.runs.length > 0;
  }

  /** Sorts the buffered triples by term into a run: 5 bytes a posting instead of 12. */
  private flushRun(): void {
    const p = this.pending;
    const len = this.pendingLen;
    if (len === 0) return;
    if (this.runCounts.length < this.terms.length) {
      const grown = new Int32Array(Math.max(1024, this.terms.length * 2));
      grown.set(this.runCounts);
      this.runCounts = grown;
    }
    const counts = this.runCounts;
    const touched = new Int32Array(len / 3);
    let distinct = 0;
    let maxFreq = 0;
    for (let i = 0; i < len; i += 3) {
      const t = p[i + 1]!;
      if (counts[t]!++ === 0) touched[distinct++] = t;
      if (p[i + 2]! > maxFreq) maxFreq = p[i + 2]!;
    }
    const terms = touched.slice(0, distinct).sort();
    const ends = new Int32Array(distinct);
    let sum = 0;
    for (let j = 0; j < distinct; j++) {
      const t = terms[j]!;
      const c = counts[t]!;
      counts[t] = sum;
      ends[j] = sum += c;
    }
    // the buffer holds whole documents in doc order: its first and last entries bound the run
    const narrow = p[len - 3]! - p[0]! < 65536;
    const base = narrow ? p[0]! : 0;
    const docs = narrow ? new Uint16Array(len / 3) : new Int32Array(len / 3);
    const freqs = maxFreq < 256 ? new Uint8Array(len / 3) : maxFreq < 65536 ? new Uint16Array(len / 3) : new Int32Array(len / 3);
    for (let i = 0; i < len; i += 3) {
      const at = counts[p[i + 1]!]!++;
      docs[at] = p[i]! - base;
      freqs[at] = p[i + 2]!;
    }
    for (let j = 0; j < distinct; j++) counts[terms[j]!] = 0;
    this.runs.push({ terms, ends, base, docs, freqs, maxFreq });
    this.pendingLen = 0;
  }

  /** Makes pending postings searchable. */
  refresh(): void {
    const numTerms = this.terms.length;
    if (!this.hasPending && numTerms === this.searchableTerms) return;
    this.flushRun();
    const runs = this.runs;
    const oldTerms = this.searchableTerms;
    const oldOffsets = this.offsets;
    const oldFreqs = this.freqs;
    const counts = new Int32Array(numTerms + 1);
    for (let t = 0; t < oldTerms; t++) counts[t] = oldOffsets[t + 1]! - oldOffsets[t]!;
    let maxFreq = 0;
    for (const run of runs) {
      for (let j = 0, from = 0; j < run.terms.length; from = run.ends[j++]!) counts[run.terms[j]!]! += run.ends[j]! - from;
      if (run.maxFreq > maxFreq) maxFreq = run.maxFreq;
    }
    const offsets = new Int32Array(numTerms + 1);
    let longest = 0;
    for (let t = 0; t < numTerms; t++) {
      offsets[t + 1] = offsets[t]! + counts[t]!;
      if (counts[t]! > longest) longest = counts[t]!;
    }
    const total = offsets[numTerms]!;
    for (let i = 0; i < oldFreqs.length; i++) if (oldFreqs[i]! > maxFreq) maxFreq = oldFreqs[i]!;
    const freqs = maxFreq < 256 ? new Uint8Array(total) : maxFreq < 65536 ? new Uint16Array(total) : new Int32Array(total);
    // the new statistics first: the blocks' BM25 bounds use the new avgdl
    this.docCount += this.pendingDocCount;
    this.sumTotalTermFreq += this.pendingSumTtf;
    // The doc ids are gathered a slice of terms at a time into one scratch array, so a refresh
    // never holds all of them as 4-byte ints next to the packed copy it is building.
    const scratch = new Int32Array(Math.max(1, Math.min(total, Math.max(this.refreshSlice, longest))));
    // slices are greedy: two in a row hold more postings than the scratch, so there are at most this many
    const blocks = new BlockWriter(this, offsets, freqs, Math.min(numTerms, 2 * Math.ceil(total / scratch.length) + 1));
    const cursor = new Int32Array(numTerms);
    const runAt = new Int32Array(runs.length);
    for (let first = 0; first < numTerms; ) {
      let last = first + 1;
      while (last < numTerms && offsets[last + 1]! - offsets[first]! <= scratch.length) last++;
      const base = offsets[first]!;
      for (let t = first; t < last; t++) {
        cursor[t] = offsets[t]!;
        if (t < oldTerms) {
          const from = oldOffsets[t]!;
          const to = oldOffsets[t + 1]!;
          this.decodeTerm(t, scratch, offsets[t]! - base);
          freqs.set(oldFreqs.subarray(from, to), offsets[t]!);
          cursor[t] += to - from;
        }
      }
      // runs in the order they were written, so each term's docs stay ascending
      for (let r = 0; r < runs.length; r++) {
        const run = runs[r]!;
        const rd = run.docs;
        const rf = run.freqs;
        const runBase = run.base;
        let j = runAt[r]!;
        for (let from = j === 0 ? 0 : run.ends[j - 1]!; j < run.terms.length && run.terms[j]! < last; from = run.ends[j++]!) {
          const t = run.terms[j]!;
          let at = cursor[t]!;
          for (let i = from, to = run.ends[j]!; i < to; i++, at++) {
            scratch[at - base] = runBase + rd[i]!;
            freqs[at] = rf[i]!;
          }
          cursor[t] = at;
        }
        runAt[r] = j;
      }
      blocks.addTerms(first, last, scratch, base);
      first = last;
    }
    this.bitsets.clear();
    runs.length = 0;
    this.pending = new Int32Array(0);
    this.pendingLen = 0;
    this.pendingDocCount = 0;
    this.pendingSumTtf = 0;
    // the snapshot changes in one step, after the old one was read for the last time
    this.offsets = offsets;
    this.freqs = freqs;
    this.searchableTerms = numTerms;
    blocks.install();
  }

  /** Writes the doc ids of global block `block` (`count` of them, packed in `bytes`) into `out` from `outAt`. */
  private decodeBlock(bytes: Uint8Array, block: number, count: number, out: Int32Array, outAt: number): void {
    const w = this.blockWidth[block]!;
    const base = this.blockBase[block]!;
    let at = this.blockByteStart[block]!;
    for (let i = 0; i < count; i++, at += w) out[outAt + i] = base + readOffset(bytes, at, w);
  }

  /** Writes a searchable term's doc ids into `out` from `outAt`. */
  private decodeTerm(termId: number, out: Int32Array, outAt: number): void {
    const len = this.offsets[termId + 1]! - this.offsets[termId]!;
    const first = this.termFirstBlock[termId]!;
    const bytes = this.docChunks[this.termChunk[termId]!]!;
    for (let b = 0; b * BLOCK_SIZE < len; b++) this.decodeBlock(bytes, first + b, Math.min(BLOCK_SIZE, len - b * BLOCK_SIZE), out, outAt + b * BLOCK_SIZE);
  }

  /** A searchable term's doc ids, decoded into a new array (filters, sorting, constant-score queries). */
  termDocs(termId: number): Int32Array {
    if (termId >= this.searchableTerms) return new Int32Array(0);
    const out = new Int32Array(this.offsets[termId + 1]! - this.offsets[termId]!);
    this.decodeTerm(termId, out, 0);
    return out;
  }

  /** A cursor over a searchable term's postings. */
  postings(termId: number): PostingsCursor {
    return new PostingsCursor(this, termId);
  }

  private readonly bitsets = new Map<number, Uint8Array>();

  /** One byte per doc for a term's postings (term filters); a few are kept until the next refresh. */
  termBitset(termId: number, maxDoc: number): Uint8Array {
    let b = this.bitsets.get(termId);
    if (!b || b.length !== maxDoc) {
      b = new Uint8Array(maxDoc);
      const docs = this.termDocs(termId);
      for (let i = 0; i < docs.length; i++) b[docs[i]!] = 1;
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
      this.docChunks.reduce((n, c) => n + c.byteLength, 0) +
      this.termChunk.byteLength +
      this.blockByteStart.byteLength +
      this.blockBase.byteLength +
      this.blockWidth.byteLength +
      this.blockLastDoc.byteLength +
      this.freqs.byteLength +
      this.norms.byteLength +
      this.blockMaxFreq.byteLength +
      this.blockBestNorm.byteLength +
      this.blockMaxX.byteLength +
      this.termFirstBlock.byteLength +
      this.pending.byteLength +
      this.runs.reduce((n, r) => n + r.terms.byteLength + r.ends.byteLength + r.docs.byteLength + r.freqs.byteLength, 0) +
      this.termIds.memoryBytes()
    );
  }
}

/**
 * Builds a refresh's packed doc ids and per-block bounds, a slice of terms at a time (in term
 * order), then installs them on the field in one step.
 */
class BlockWriter {
  private readonly firstBlock: Int32Array<ArrayBuffer>;
  private readonly maxFreq: Int32Array<ArrayBuffer>;
  private readonly bestNorm: Uint8Array<ArrayBuffer>;
  private readonly maxX: Float32Array<ArrayBuffer>;
  private readonly lastDoc: Int32Array<ArrayBuffer>;
  private readonly baseDoc: Int32Array<ArrayBuffer>;
  private readonly width: Uint8Array<ArrayBuffer>;
  private readonly byteStart: Int32Array<ArrayBuffer>;
  private readonly cache: Float32Array | undefined;
  /** The packed bytes of each slice of terms, exact size. */
  private readonly chunks: Uint8Array[] = [];
  /** Per term: its chunk. */
  private readonly termChunk: Uint16Array | Int32Array;

  constructor(
    private readonly field: InvertedField,
    private readonly offsets: Int32Array<ArrayBuffer>,
    private readonly freqs: Uint8Array | Uint16Array | Int32Array,
    maxChunks: number,
  ) {
    const numTerms = offsets.length - 1;
    this.termChunk = maxChunks <= 65536 ? new Uint16Array(numTerms) : new Int32Array(numTerms);
    const firstBlock = (this.firstBlock = new Int32Array(numTerms + 1));
    for (let t = 0; t < numTerms; t++) firstBlock[t + 1] = firstBlock[t]! + Math.ceil((offsets[t + 1]! - offsets[t]!) / BLOCK_SIZE);
    const numBlocks = firstBlock[numTerms]!;
    this.maxFreq = new Int32Array(numBlocks);
    this.bestNorm = new Uint8Array(numBlocks);
    this.maxX = new Float32Array(field.bm25 ? numBlocks : 0);
    this.lastDoc = new Int32Array(numBlocks);
    this.baseDoc = new Int32Array(numBlocks);
    this.width = new Uint8Array(numBlocks);
    this.byteStart = new Int32Array(numBlocks + 1);
    const bm25 = field.bm25;
    this.cache = bm25 && field.docCount > 0 ? bm25NormInverseCache(f32(bm25.k1), f32(bm25.b), bm25Avgdl(field)) : undefined;
  }

  /** Encodes terms [first, last); their doc ids are in `docs`, term t's from offsets[t] - base. */
  addTerms(first: number, last: number, docs: Int32Array, base: number): void {
    const { offsets, firstBlock, freqs, cache, width } = this;
    const { norms, hasNorms, higherNormScoresMore: higher } = this.field;
    // widths first, so the slice's bytes are allocated once, at their exact size
    let size = 0;
    for (let t = first; t < last; t++) {
      const end = offsets[t + 1]! - base;
      for (let b = offsets[t]! - base, block = firstBlock[t]!; b < end; b += BLOCK_SIZE, block++) {
        const bEnd = Math.min(end, b + BLOCK_SIZE);
        const span = docs[bEnd - 1]! - docs[b]!;
        const w = span < 0x100 ? 1 : span < 0x10000 ? 2 : span < 0x1000000 ? 3 : 4;
        width[block] = w;
        size += (bEnd - b) * w;
      }
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (let t = first; t < last; t++) {
      const end = offsets[t + 1]! - base;
      for (let b = offsets[t]! - base, block = firstBlock[t]!; b < end; b += BLOCK_SIZE, block++) {
        const bEnd = Math.min(end, b + BLOCK_SIZE);
        const w = width[block]!;
        const blockBase = docs[b]!;
        this.byteStart[block] = at;
        this.baseDoc[block] = blockBase;
        this.lastDoc[block] = docs[bEnd - 1]!;
        for (let i = b; i < bEnd; i++) {
          const off = docs[i]! - blockBase;
          bytes[at] = off;
          if (w > 1) bytes[at + 1] = off >>> 8;
          if (w > 2) bytes[at + 2] = off >>> 16;
          if (w > 3) bytes[at + 3] = off >>> 24;
          at += w;
        }
        let mf = 0;
        let bn = higher ? 0 : 255;
        let mx = 0;
        for (let i = b; i < bEnd; i++) {
          const f = freqs[i + base]!;
          if (f > mf) mf = f;
          if (hasNorms) {
            const n = norms[docs[i]!]!;
            if (higher ? n > bn : n < bn) bn = n;
          }
          if (cache) {
            const x = f32(f * cache[hasNorms ? norms[docs[i]!]! : 1]!);
            if (x > mx) mx = x;
          }
        }
        if (cache) this.maxX[block] = mx;
        this.maxFreq[block] = mf;
        this.bestNorm[block] = hasNorms ? bn : 1;
      }
    }
    this.termChunk.fill(this.chunks.length, first, last);
    this.chunks.push(bytes);
  }

  install(): void {
    const field = this.field;
    field.docChunks = this.chunks;
    field.termChunk = this.termChunk;
    field.blockByteStart = this.byteStart;
    field.blockBase = this.baseDoc;
    field.blockWidth = this.width;
    field.blockLastDoc = this.lastDoc;
    field.blockMaxFreq = this.maxFreq;
    field.blockMaxX = this.maxX;
    field.blockBestNorm = this.bestNorm;
    field.termFirstBlock = this.firstBlock;
  }
}

/** A doc's offset from its block's base, `w` bytes little-endian at `at`. */
function readOffset(bytes: Uint8Array, at: number, w: number): number {
  if (w === 1) return bytes[at]!;
  if (w === 2) return bytes[at]! | (bytes[at + 1]! << 8);
  if (w === 3) return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/**
 * Positions over one term's postings, as indexes into the field's freqs (from `start` to
 * `end`). A doc reads straight from its packed block; `advance` skips whole blocks by their
 * last doc, then gallops inside the block.
 */
export class PostingsCursor {
  readonly start: number;
  readonly end: number;
  readonly firstBlock: number;
  readonly blocks: number;
  private readonly bytes: Uint8Array;
  private readonly byteStart: Int32Array;
  private readonly width: Uint8Array;
  private readonly baseDoc: Int32Array;
  private readonly lastDoc: Int32Array;
  /** The block last read: its index within the term, base doc, byte width and first byte. */
  private block = -1;
  private base = 0;
  private w = 1;
  private at = 0;

  constructor(field: InvertedField, termId: number) {
    this.start = field.offsets[termId]!;
    this.end = field.offsets[termId + 1]!;
    this.firstBlock = field.termFirstBlock[termId]!;
    this.blocks = Math.ceil((this.end - this.start) / BLOCK_SIZE);
    this.bytes = field.docChunks[field.termChunk[termId]!] ?? EMPTY_BYTES;
    this.byteStart = field.blockByteStart;
    this.width = field.blockWidth;
    this.baseDoc = field.blockBase;
    this.lastDoc = field.blockLastDoc;
  }

  /** The doc at position `pos` (start <= pos < end). */
  docAt(pos: number): number {
    const rel = pos - this.start;
    if (rel >> 7 !== this.block) this.load(rel >> 7);
    const w = this.w;
    const at = this.at + (rel & (BLOCK_SIZE - 1)) * w;
    const bytes = this.bytes;
    if (w === 1) return this.base + bytes[at]!;
    if (w === 2) return this.base + (bytes[at]! | (bytes[at + 1]! << 8));
    return this.base + readOffset(bytes, at, w);
  }

  /** Last doc of the term's block `b`. */
  lastDocOfBlock(b: number): number {
    return this.lastDoc[this.firstBlock + b]!;
  }

  /** The first position >= pos whose doc is >= target, or `end`. */
  advance(pos: number, target: number): number {
    if (pos >= this.end) return this.end;
    let b = (pos - this.start) >> 7;
    const last = this.lastDoc;
    const fb = this.firstBlock;
    if (last[fb + b]! < target) {
      // gallop over the blocks' last docs, then binary search
      let lo = b + 1;
      let step = 1;
      let hi = lo;
      while (hi < this.blocks && last[fb + hi]! < target) {
        lo = hi + 1;
        hi += step;
        step <<= 1;
      }
      if (hi > this.blocks) hi = this.blocks;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (last[fb + mid]! < target) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= this.blocks) return this.end;
      b = lo;
      pos = this.start + b * BLOCK_SIZE;
    }
    // the block's last doc is >= target: gallop inside it
    const blockEnd = Math.min(this.end, this.start + (b + 1) * BLOCK_SIZE);
    let step = 1;
    let lo = pos;
    let hi = pos;
    while (hi < blockEnd && this.docAt(hi) < target) {
      lo = hi + 1;
      hi += step;
      step <<= 1;
    }
    if (hi > blockEnd) hi = blockEnd;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docAt(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private load(b: number): void {
    const g = this.firstBlock + b;
    this.block = b;
    this.base = this.baseDoc[g]!;
    this.w = this.width[g]!;
    this.at = this.byteStart[g]!;
  }
}
