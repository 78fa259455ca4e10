/**
 * Stored `_source`: each document's JSON text, packed into blocks of about 64 KiB that are
 * deflated once full (as Lucene's stored fields compress blocks). Reading a hit inflates one
 * block; the last few inflated blocks are kept.
 */
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';

const BLOCK_BYTES = 64 * 1024;

export class DocStore {
  private readonly blocks: Uint8Array[] = [];
  /** First doc number of each sealed block. */
  private blockFirstDoc: number[] = [];
  private open: string[] = [];
  private openBytes = 0;
  private openFirstDoc = 0;
  private size = 0;
  private readonly cache = new Map<number, string[]>();

  /** Appends the JSON text of the next doc number. */
  add(json: string): number {
    const doc = this.size++;
    this.open.push(json);
    this.openBytes += json.length;
    if (this.openBytes >= BLOCK_BYTES) this.seal();
    return doc;
  }

  private seal(): void {
    if (this.open.length === 0) return;
    // copied to an exact-size array: zlib's result sits in a larger chunk that would stay allocated
    this.blocks.push(new Uint8Array(deflateRawSync(Buffer.from(this.open.join('\n')), { level: constants.Z_BEST_SPEED })));
    this.blockFirstDoc.push(this.openFirstDoc);
    this.openFirstDoc = this.size;
    this.open = [];
    this.openBytes = 0;
  }

  get count(): number {
    return this.size;
  }

  get(doc: number): string {
    if (doc < 0 || doc >= this.size) throw new RangeError(`no stored document ${doc}`);
    if (doc >= this.openFirstDoc) return this.open[doc - this.openFirstDoc]!;
    let lo = 0;
    let hi = this.blockFirstDoc.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.blockFirstDoc[mid]! <= doc) lo = mid;
      else hi = mid - 1;
    }
    let docs = this.cache.get(lo);
    if (!docs) {
      docs = inflateRawSync(this.blocks[lo]!).toString().split('\n');
      if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(lo, docs);
    }
    return docs[doc - this.blockFirstDoc[lo]!]!;
  }

  memoryBytes(): number {
    return this.blocks.reduce((s, b) => s + b.length, 0) + this.openBytes * 2 + this.blocks.length * 16;
  }
}
