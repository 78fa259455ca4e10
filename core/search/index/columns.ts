/**
 * Doc values: per-document column values used for sorting, range filters and exists. Numbers
 * (and dates, booleans, IPv4 addresses) live in a Float64Array with NaN for "no value"; extra
 * values of multi-valued documents in a side map. Keyword columns hold term ordinals of the
 * field's dictionary.
 */
export class NumericColumn {
  values = new Float64Array(1024).fill(NaN);
  /** Second and later values of multi-valued documents. */
  readonly extra = new Map<number, number[]>();

  add(doc: number, value: number): void {
    if (doc >= this.values.length) {
      const grown = new Float64Array(Math.max(doc + 1, this.values.length * 2)).fill(NaN);
      grown.set(this.values);
      this.values = grown;
    }
    const cur = this.values[doc]!;
    if (Number.isNaN(cur)) this.values[doc] = value;
    else {
      const list = this.extra.get(doc) ?? [];
      list.push(value);
      this.extra.set(doc, list);
    }
  }

  has(doc: number): boolean {
    return doc < this.values.length && !Number.isNaN(this.values[doc]!);
  }

  /** All values of a document (empty when it has none). */
  all(doc: number): number[] {
    if (!this.has(doc)) return [];
    const extra = this.extra.get(doc);
    return extra ? [this.values[doc]!, ...extra] : [this.values[doc]!];
  }

  memoryBytes(): number {
    return this.values.byteLength + this.extra.size * 64;
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
