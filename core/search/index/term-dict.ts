/**
 * A field's term dictionary: term → id in an open-addressing hash over typed arrays. Indexing
 * looks terms up straight from a token's range in the source text (lower-casing ASCII on the
 * fly), so a string is made only the first time a term is seen.
 */
const EMPTY = -1;

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export class TermDict {
  readonly terms: string[] = [];
  private hashes = new Int32Array(0);
  /** ASCII terms' characters side by side (start, length per term; -1 start for non-ASCII), compared without touching the heap strings. */
  private pool = new Uint8Array(1 << 16);
  private poolLen = 0;
  private starts = new Int32Array(0);
  private lengths = new Int32Array(0);
  private table = new Int32Array(1024).fill(EMPTY);

  get size(): number {
    return this.terms.length;
  }

  get(term: string): number | undefined {
    const mask = this.table.length - 1;
    let slot = hashString(term) & mask;
    for (;;) {
      const id = this.table[slot]!;
      if (id === EMPTY) return undefined;
      if (this.terms[id] === term) return id;
      slot = (slot + 1) & mask;
    }
  }

  intern(term: string): number {
    const h = hashString(term);
    const mask = this.table.length - 1;
    let slot = h & mask;
    for (;;) {
      const id = this.table[slot]!;
      if (id === EMPTY) return this.insert(term, h, slot);
      if (this.terms[id] === term) return id;
      slot = (slot + 1) & mask;
    }
  }

  /** The id of text[start, end) (lower-cased when `lower`), interning it if new. */
  internRange(text: string, start: number, end: number, lower: boolean): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      let c = text.charCodeAt(i);
      if (c >= 128) return this.intern(lower ? text.slice(start, end).toLowerCase() : text.slice(start, end));
      if (lower && c >= 65 && c <= 90) c += 32;
      h = Math.imul(h ^ c, 16777619);
    }
    h >>>= 0;
    const len = end - start;
    const mask = this.table.length - 1;
    let slot = h & mask;
    for (;;) {
      const id = this.table[slot]!;
      if (id === EMPTY) {
        const s = text.slice(start, end);
        return this.insert(lower ? s.toLowerCase() : s, h, slot);
      }
      if (this.hashes[id] === (h | 0) && this.lengths[id] === len) {
        const at = this.starts[id]!;
        if (at >= 0) {
          const pool = this.pool;
          let i = 0;
          for (; i < len; i++) {
            let c = text.charCodeAt(start + i);
            if (lower && c >= 65 && c <= 90) c += 32;
            if (pool[at + i] !== c) break;
          }
          if (i === len) return id;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  private insert(term: string, h: number, slot: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    if (id >= this.hashes.length) {
      const grown = new Int32Array(Math.max(1024, this.hashes.length * 2));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = h | 0;
    if (id >= this.starts.length) {
      const n = Math.max(1024, this.starts.length * 2);
      const st = new Int32Array(n);
      st.set(this.starts);
      this.starts = st;
      const ln = new Int32Array(n);
      ln.set(this.lengths);
      this.lengths = ln;
    }
    this.lengths[id] = term.length;
    let ascii = true;
    for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) >= 128) ascii = false;
    if (ascii) {
      if (this.poolLen + term.length > this.pool.length) {
        const grown = new Uint8Array(Math.max(this.poolLen + term.length, this.pool.length * 2));
        grown.set(this.pool.subarray(0, this.poolLen));
        this.pool = grown;
      }
      for (let i = 0; i < term.length; i++) this.pool[this.poolLen + i] = term.charCodeAt(i);
      this.starts[id] = this.poolLen;
      this.poolLen += term.length;
    } else this.starts[id] = -1;
    this.table[slot] = id;
    if ((id + 1) * 2 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(EMPTY);
    const mask = table.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = (this.hashes[id]! >>> 0) & mask;
      while (table[slot] !== EMPTY) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.table = table;
  }

  memoryBytes(): number {
    return this.table.byteLength + this.hashes.byteLength + this.pool.byteLength + this.starts.byteLength + this.lengths.byteLength + this.terms.reduce((s, t) => s + 32 + t.length * 2, 0);
  }
}
