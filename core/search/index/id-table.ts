/**
 * Document ids → doc numbers, compact. Ids that are canonical integers ("0", "42", as bulk
 * loaders often use) live in an open-addressing hash over typed arrays; other ids in a Map.
 * Each entry points at the newest doc number of that id.
 */
const EMPTY = -1;

export class IdTable {
  private keys = new Float64Array(1024);
  private vals = new Int32Array(1024).fill(EMPTY);
  private used = 0;
  private readonly strings = new Map<string, number>();
  /** doc → numeric id (NaN when the doc's id is not numeric or auto); made only when needed. */
  private docNumeric = new Float64Array(0);
  /**
   * Docs whose id is their own doc number written as an integer ("0", "1", … as bulk loads of
   * numbered documents give): no hash entry is needed for them.
   */
  private identity = new Uint8Array(1024);
  private readonly docString = new Map<number, string>();

  static numeric(id: string): number | undefined {
    const len = id.length;
    if (len === 0 || len > 15) return undefined;
    const c0 = id.charCodeAt(0);
    if (c0 === 48) return len === 1 ? 0 : undefined;
    let n = 0;
    for (let i = 0; i < len; i++) {
      const c = id.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
      n = n * 10 + (c - 48);
    }
    return n;
  }

  private slot(key: number): number {
    const mask = this.keys.length - 1;
    let h = (Math.imul(key | 0, 0x9e3779b1) ^ Math.imul((key / 4294967296) | 0, 0x85ebca6b)) & mask;
    while (this.vals[h] !== EMPTY && this.keys[h] !== key) h = (h + 1) & mask;
    return h;
  }

  get(id: string): number | undefined {
    const n = IdTable.numeric(id);
    if (n === undefined) return this.strings.get(id);
    if (this.used > 0) {
      const h = this.slot(n);
      if (this.vals[h] !== EMPTY) return this.vals[h];
    }
    return n < this.identity.length && this.identity[n] === 1 ? n : undefined;
  }

  set(id: string, doc: number): void {
    const n = IdTable.numeric(id);
    if (n === doc && (this.used === 0 || this.vals[this.slot(n)] === EMPTY)) {
      if (doc >= this.identity.length) {
        const grown = new Uint8Array(Math.max(doc + 1, this.identity.length * 2));
        grown.set(this.identity);
        this.identity = grown;
      }
      this.identity[doc] = 1;
      return;
    }
    if (n !== undefined && doc >= this.docNumeric.length) {
      const grown = new Float64Array(Math.max(doc + 1, this.docNumeric.length * 2, 1024)).fill(NaN);
      grown.set(this.docNumeric);
      this.docNumeric = grown;
    }
    if (n === undefined) {
      this.strings.set(id, doc);
      this.docString.set(doc, id);
      return;
    }
    if ((this.used + 1) * 2 > this.keys.length) this.rehash();
    const h = this.slot(n);
    if (this.vals[h] === EMPTY) this.used++;
    this.keys[h] = n;
    this.vals[h] = doc;
    this.docNumeric[doc] = n;
  }

  /** The id of a doc that was given an explicit id. */
  idOf(doc: number): string | undefined {
    if (doc < this.identity.length && this.identity[doc] === 1) return String(doc);
    const n = doc < this.docNumeric.length ? this.docNumeric[doc]! : NaN;
    if (n === n) return String(n);
    return this.docString.get(doc);
  }

  /** Forgets the doc → id link of a superseded doc (the id now points elsewhere). */
  forgetDoc(doc: number): void {
    this.docString.delete(doc);
  }

  private rehash(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.vals = new Int32Array(oldKeys.length * 2).fill(EMPTY);
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldVals[i] === EMPTY) continue;
      const h = this.slot(oldKeys[i]!);
      this.keys[h] = oldKeys[i]!;
      this.vals[h] = oldVals[i]!;
    }
  }

  get size(): number {
    return this.used + this.strings.size;
  }

  memoryBytes(): number {
    return this.keys.byteLength + this.vals.byteLength + this.docNumeric.byteLength + this.identity.byteLength + this.strings.size * 120;
  }
}
