/**
 * Stored `_source`: each document's JSON text exactly as indexed, written as UTF-8 into an open
 * block of about 128 KiB that is compressed once full (brotli at quality 0, as Lucene's stored
 * fields compress chunks of documents together with a fast codec). A sealed block holds the
 * texts followed by the byte length of each (varints), so any text, raw
 * newlines included, comes back unchanged. Reading a hit decompresses one block; the last few
 * decompressed blocks are kept.
 *
 * Texts go straight into bytes, so indexing keeps no string per document alive (they die young
 * instead of being promoted and marked by every major GC). A text that UTF-8 cannot carry
 * (a lone surrogate) is kept as a string on the side.
 *
 * A sealed block is kept as a one-byte (latin1) string, a byte a character, not as an
 * ArrayBuffer: V8 starts a full collection whenever ArrayBuffer memory has grown 64 MB since the
 * last one, and the stored sources are the largest part of an index (100 MB for a million
 * access-log documents), so as ArrayBuffers they alone would cost an indexing run of that size
 * two full collections (each one marks the whole heap, for 0.3-0.5 s here). Strings count
 * against the heap limit instead, which is in the gigabytes.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

const BLOCK_BYTES = 128 * 1024;

const BROTLI = {
  chunkSize: 64 * 1024,
  params: {
    // quality 0 compresses access logs 1.45x faster than 1 for blocks 10% larger (0.31 of the
    // text instead of 0.28); indexing time is the scarcer resource
    [constants.BROTLI_PARAM_QUALITY]: 0,
    // a window as large as a block: larger ones only cost memory (zlib's state is reported to V8)
    [constants.BROTLI_PARAM_LGWIN]: 18,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};

interface OpenBlock {
  bytes: Buffer;
  /** Byte offset where each document ends, in order. */
  ends: Int32Array;
}

export class DocStore {
  /** Sealed blocks, compressed, a byte per character (see above). */
  private readonly blocks: string[] = [];
  /** First doc number of each sealed block. */
  private blockFirstDoc = new Int32Array(64);
  private open: Buffer = Buffer.allocUnsafe(BLOCK_BYTES * 2);
  private openBytes = 0;
  private openEnds = new Int32Array(1024);
  private openFirstDoc = 0;
  private size = 0;
  /** Texts that are not well-formed UTF-16 (stored as an empty slot in their block). */
  private readonly illFormed = new Map<number, string>();
  private readonly cache = new Map<number, OpenBlock>();

  /** Appends the JSON text of the next doc number. */
  add(json: string): number {
    const doc = this.size++;
    const k = doc - this.openFirstDoc;
    if (k >= this.openEnds.length) {
      const grown = new Int32Array(this.openEnds.length * 2);
      grown.set(this.openEnds);
      this.openEnds = grown;
    }
    if (!(json as unknown as { isWellFormed(): boolean }).isWellFormed()) this.illFormed.set(doc, json);
    else {
      // at most 3 UTF-8 bytes per UTF-16 unit
      if (this.openBytes + json.length * 3 > this.open.length) this.grow(this.openBytes + json.length * 3);
      this.openBytes += this.open.write(json, this.openBytes, 'utf8');
    }
    this.openEnds[k] = this.openBytes;
    if (this.openBytes >= BLOCK_BYTES) this.seal();
    return doc;
  }

  private grow(minBytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(minBytes, this.open.length * 2));
    this.open.copy(grown, 0, 0, this.openBytes);
    this.open = grown;
  }

  private seal(): void {
    const count = this.size - this.openFirstDoc;
    if (count === 0) return;
    // trailer after the texts: each document's byte length as a varint, then the trailer's
    // own length in 4 bytes; written in place, so the block is compressed without a copy
    const body = this.openBytes;
    if (body + count * 5 + 4 > this.open.length) this.grow(body + count * 5 + 4);
    const buf = this.open;
    let pos = body;
    let prev = 0;
    for (let i = 0; i < count; i++) {
      pos = writeVarint(buf, pos, this.openEnds[i]! - prev);
      prev = this.openEnds[i]!;
    }
    buf.writeUInt32LE(pos - body, pos);
    pos += 4;
    const compressed = brotliCompressSync(buf.subarray(0, pos), { ...BROTLI, params: { ...BROTLI.params, [constants.BROTLI_PARAM_SIZE_HINT]: pos } });
    this.blocks.push(compressed.toString('latin1'));
    const b = this.blocks.length - 1;
    if (b >= this.blockFirstDoc.length) {
      const grown = new Int32Array(this.blockFirstDoc.length * 2);
      grown.set(this.blockFirstDoc);
      this.blockFirstDoc = grown;
    }
    this.blockFirstDoc[b] = this.openFirstDoc;
    this.openFirstDoc = this.size;
    this.openBytes = 0;
    if (this.open.length > BLOCK_BYTES * 2) this.open = Buffer.allocUnsafe(BLOCK_BYTES * 2);
  }

  get count(): number {
    return this.size;
  }

  get(doc: number): string {
    if (doc < 0 || doc >= this.size) throw new RangeError(`no stored document ${doc}`);
    const odd = this.illFormed.get(doc);
    if (odd !== undefined) return odd;
    if (doc >= this.openFirstDoc) {
      const k = doc - this.openFirstDoc;
      return this.open.toString('utf8', k === 0 ? 0 : this.openEnds[k - 1]!, this.openEnds[k]!);
    }
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.blockFirstDoc[mid]! <= doc) lo = mid;
      else hi = mid - 1;
    }
    let block = this.cache.get(lo);
    if (!block) {
      block = decodeBlock(this.blocks[lo]!);
      if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(lo, block);
    }
    const k = doc - this.blockFirstDoc[lo]!;
    return block.bytes.toString('utf8', k === 0 ? 0 : block.ends[k - 1]!, block.ends[k]!);
  }

  memoryBytes(): number {
    let bytes = this.open.length + this.openEnds.byteLength + this.blockFirstDoc.byteLength + this.blocks.length * 8;
    // a sequential one-byte string: a 16-byte header and its characters
    for (const b of this.blocks) bytes += 16 + b.length;
    for (const s of this.illFormed.values()) bytes += 32 + s.length * 2;
    return bytes;
  }
}

function decodeBlock(compressed: string): OpenBlock {
  const raw = brotliDecompressSync(Buffer.from(compressed, 'latin1'));
  const trailer = raw.readUInt32LE(raw.length - 4);
  const body = raw.length - 4 - trailer;
  let pos = body;
  const ends: number[] = [];
  let end = 0;
  while (pos < raw.length - 4) {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = raw[pos++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    ends.push((end += v));
  }
  return { bytes: raw.subarray(0, body), ends: Int32Array.from(ends) };
}

function writeVarint(buf: Buffer, pos: number, value: number): number {
  while (value >= 0x80) {
    buf[pos++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  buf[pos++] = value;
  return pos;
}
