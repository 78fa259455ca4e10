/**
 * Doc values: per-document column values used for sorting, range filters and exists. Numbers
 * (and dates, booleans, IPv4 addresses) live packed as offsets from a base while they are
 * integers in a narrow range, else in a Float64Array; extra values of multi-valued documents
 * in a side map. Keyword columns hold term ordinals of the
 * field's dictionary.
 */
type Packed = Uint8Array | Uint16Array | Uint32Array;

/** Packed widths tried in order: the largest value of each type marks "no value". */
const WIDTHS = [
  { make: (n: number) => new Uint8Array(n), missing: 0xff },
  { make: (n: number) => new Uint16Array(n), missing: 0xffff },
  { make: (n: number) => new Uint32Array(n), missing: 0xffffffff },
] as const;

export class NumericColumn {
  /**
   * Integer values are kept as offsets from `base` in the narrowest unsigned array that holds
   * them (as Lucene packs doc values); anything else (fractions, -0, wide ranges) switches the
   * column to a Float64Array with NaN for "no value".
   */
  private packed: Packed | undefined = new Uint8Array(1024).fill(0xff);
  private missing = 0xff;
  private base = 0;
  /** Whether `base` has been set by a first value. */
  private based = false;
  private floats: Float64Array | undefined;
  private count = 0;
  /** Second and later values of multi-valued documents. */
  readonly extra = new Map<number, number[]>();

  /** Docs the column has room for (values beyond are missing). */
  get length(): number {
    return this.count;
  }

  /** The (first) value of a doc; NaN when it has none. */
  get(doc: number): number {
    if (doc >= this.count) return NaN;
    const p = this.packed;
    if (p === undefined) return this.floats![doc]!;
    const v = p[doc]!;
    return v === this.missing ? NaN : this.base + v;
  }

  add(doc: number, value: number): void {
    this.ensure(doc + 1);
    if (doc >= this.count) this.count = doc + 1;
    const cur = this.get(doc);
    if (!Number.isNaN(cur)) {
      const list = this.extra.get(doc) ?? [];
      list.push(value);
      this.extra.set(doc, list);
      return;
    }
    const p = this.packed;
    if (p !== undefined) {
      if (!this.based && Number.isInteger(value) && !Object.is(value, -0)) {
        this.base = value;
        this.based = true;
      }
      const off = value - this.base;
      if (Number.isInteger(off) && off >= 0 && off < this.missing && !Object.is(value, -0)) {
        p[doc] = off;
        return;
      }
      this.repack(value);
      this.add(doc, value);
      return;
    }
    this.floats![doc] = value;
  }

  private ensure(n: number): void {
    const cap = this.packed ? this.packed.length : this.floats!.length;
    if (n <= cap) return;
    const size = Math.max(n, cap * 2);
    if (this.packed) {
      const grown = WIDTHS.find((w) => w.missing === this.missing)!.make(size).fill(this.missing);
      grown.set(this.packed);
      this.packed = grown;
    } else {
      const grown = new Float64Array(size).fill(NaN);
      grown.set(this.floats!);
      this.floats = grown;
    }
  }

  /** Re-encodes the column so that `value` fits: a wider array, a lower base, or floats. */
  private repack(value: number): void {
    const old = this.packed!;
    const cap = old.length;
    let min = value;
    let max = value;
    for (let d = 0; d < this.count; d++) {
      const v = old[d]!;
      if (v === this.missing) continue;
      const x = this.base + v;
      if (x < min) min = x;
      if (x > max) max = x;
    }
    const integral = Number.isInteger(value) && !Object.is(value, -0);
    // room below the lowest value as large as the current range, so that values arriving in
    // descending order (a log read backwards) re-encode a logarithmic number of times
    const base = value < this.base ? Math.max(min - (max - min), Number.MIN_SAFE_INTEGER) : this.base;
    const width = integral ? WIDTHS.find((w) => max - base < w.missing && Number.isSafeInteger(max - base)) : undefined;
    if (width) {
      const next = width.make(cap).fill(width.missing);
      for (let d = 0; d < this.count; d++) {
        const v = old[d]!;
        if (v !== this.missing) next[d] = this.base + v - base;
      }
      this.packed = next;
      this.missing = width.missing;
      this.base = base;
      return;
    }
    const floats = new Float64Array(cap).fill(NaN);
    for (let d = 0; d < this.count; d++) {
      const v = old[d]!;
      if (v !== this.missing) floats[d] = this.base + v;
    }
    this.floats = floats;
    this.packed = undefined;
  }

  has(doc: number): boolean {
    return !Number.isNaN(this.get(doc));
  }

  /** All values of a document (empty when it has none). */
  all(doc: number): number[] {
    if (!this.has(doc)) return [];
    const extra = this.extra.get(doc);
    return extra ? [this.get(doc), ...extra] : [this.get(doc)];
  }

  memoryBytes(): number {
    return (this.packed ?? this.floats!).byteLength + this.extra.size * 64;
  }
}

export class OrdinalColumn {
  ords = new Int32Array(1024).fill(-1);
  readonly extra = new Map<number, number[]>();

  add(doc: number, ord: number): void {
    if (doc >= this.ords.length) {
      const grown = new Int32Array(Math.max(doc + 1, this.ords.length * 2)).fill(-1);
      grown.set(this.ords);
      this.ords = grown;
    }
    if (this.ords[doc] === -1) this.ords[doc] = ord;
    else {
      const list = this.extra.get(doc) ?? [];
      list.push(ord);
      this.extra.set(doc, list);
    }
  }

  has(doc: number): boolean {
    return doc < this.ords.length && this.ords[doc]! >= 0;
  }

  all(doc: number): number[] {
    if (!this.has(doc)) return [];
    const extra = this.extra.get(doc);
    return extra ? [this.ords[doc]!, ...extra] : [this.ords[doc]!];
  }

  memoryBytes(): number {
    return this.ords.byteLength + this.extra.size * 64;
  }
}
