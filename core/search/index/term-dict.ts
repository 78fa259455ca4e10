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
      if (this.hashes[id] === (h | 0)) {
        const t = this.terms[id]!;
        if (t.length === len) {
          let same = true;
          for (let i = 0; i < len; i++) {
            let c = text.charCodeAt(start + i);
            if (lower && c >= 65 && c <= 90) c += 32;
            if (t.charCodeAt(i) !== c) {
              same = false;
              break;
            }
          }
          if (same) return id;
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
    return this.table.byteLength + this.hashes.byteLength + this.terms.reduce((s, t) => s + 32 + t.length * 2, 0);
  }
}
