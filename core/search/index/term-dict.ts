/**
 * A field's term dictionary: term → id in an open-addressing hash over one Int32Array. Each
 * slot holds the term's hash, id, length and where its characters sit in a byte pool (ASCII
 * terms), so that a lookup touches one slot and the pool; indexing looks terms up straight
 * from a token's range in the source text (lower-casing ASCII on the fly), so a string is made
 * only the first time a term is seen.
 */
import { TERM_HASH_PRIME, TERM_HASH_SEED, termHash as hashString } from '../analysis/term-hash.js';

const EMPTY = -1;
/** Int32s per slot: hash, id, pool start (-1 for non-ASCII terms), length. */
const SLOT = 4;


export class TermDict {
  readonly terms: string[] = [];
  /** ASCII terms' characters side by side, compared without touching the heap strings. */
  private pool = new Uint8Array(1 << 16);
  private poolLen = 0;
  private table = newTable(1024);
  private mask = 1023;

  get size(): number {
    return this.terms.length;
  }

  get(term: string): number | undefined {
    const id = this.table[this.slotOf(term, hashString(term)) * SLOT + 1]!;
    return id === EMPTY ? undefined : id;
  }

  intern(term: string): number {
    const h = hashString(term);
    const slot = this.slotOf(term, h);
    const id = this.table[slot * SLOT + 1]!;
    return id === EMPTY ? this.insert(term, h, slot) : id;
  }

  /** The slot holding `term` (hash `h`), or the empty slot where it would go. */
  private slotOf(term: string, h: number): number {
    const table = this.table;
    let slot = h & this.mask;
    for (;;) {
      const at = slot * SLOT;
      const id = table[at + 1]!;
      if (id === EMPTY || (table[at] === h && this.terms[id] === term)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  /** The id of text[start, end) (lower-cased when `lower`), interning it if new. */
  internRange(text: string, start: number, end: number, lower: boolean): number {
    let h = TERM_HASH_SEED;
    for (let i = start; i < end; i++) {
      let c = text.charCodeAt(i);
      if (c >= 128) return this.intern(lower ? text.slice(start, end).toLowerCase() : text.slice(start, end));
      if (lower && c >= 65 && c <= 90) c += 32;
      h = Math.imul(h ^ c, TERM_HASH_PRIME);
    }
    return this.internAscii(text, start, end, lower, h | 0);
  }

  /**
   * The id of ASCII text[start, end) (lower-cased when `lower`) whose termHash, lower-cased
   * likewise, is `h` (asciiWordRanges gives it), interning it if new.
   */
  internAscii(text: string, start: number, end: number, lower: boolean, h: number): number {
    const len = end - start;
    const table = this.table;
    let slot = h & this.mask;
    for (;;) {
      const at = slot * SLOT;
      const id = table[at + 1]!;
      if (id === EMPTY) {
        const s = text.slice(start, end);
        return this.insert(lower ? s.toLowerCase() : s, h, slot);
      }
      if (table[at] === h && table[at + 3] === len) {
        const from = table[at + 2]!;
        if (from >= 0) {
          const pool = this.pool;
          let i = 0;
          for (; i < len; i++) {
            let c = text.charCodeAt(start + i);
            if (lower && c >= 65 && c <= 90) c += 32;
            if (pool[from + i] !== c) break;
          }
          if (i === len) return id;
        }
      }
      slot = (slot + 1) & this.mask;
    }
  }

  private insert(term: string, h: number, slot: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    let ascii = true;
    for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) >= 128) ascii = false;
    let from = -1;
    if (ascii) {
      if (this.poolLen + term.length > this.pool.length) {
        const grown = new Uint8Array(Math.max(this.poolLen + term.length, this.pool.length * 2));
        grown.set(this.pool.subarray(0, this.poolLen));
        this.pool = grown;
      }
      for (let i = 0; i < term.length; i++) this.pool[this.poolLen + i] = term.charCodeAt(i);
      from = this.poolLen;
      this.poolLen += term.length;
    }
    const at = slot * SLOT;
    this.table[at] = h;
    this.table[at + 1] = id;
    this.table[at + 2] = from;
    this.table[at + 3] = term.length;
    if ((id + 1) * 2 > this.mask + 1) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.table;
    const slots = (this.mask + 1) * 2;
    const table = newTable(slots);
    const mask = slots - 1;
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 1] === EMPTY) continue;
      let slot = old[at]! & mask;
      while (table[slot * SLOT + 1] !== EMPTY) slot = (slot + 1) & mask;
      table.set(old.subarray(at, at + SLOT), slot * SLOT);
    }
    this.table = table;
    this.mask = mask;
  }

  memoryBytes(): number {
    return this.table.byteLength + this.pool.byteLength + this.terms.reduce((s, t) => s + 32 + t.length * 2, 0);
  }
}

function newTable(slots: number): Int32Array {
  const t = new Int32Array(slots * SLOT);
  for (let i = 1; i < t.length; i += SLOT) t[i] = EMPTY;
  return t;
}
