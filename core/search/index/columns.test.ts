import { describe, expect, it } from 'vitest';
import { NumericColumn } from './columns.js';

function roundTrip(values: Array<number | undefined>): NumericColumn {
  const col = new NumericColumn();
  values.forEach((v, doc) => v !== undefined && col.add(doc, v));
  values.forEach((v, doc) => {
    if (v === undefined) expect(col.has(doc)).toBe(false);
    else expect(Object.is(col.get(doc), v)).toBe(true);
  });
  return col;
}

describe('numeric doc values', () => {
  it('give back every value as indexed while the column re-packs (wider, lower base, then floats)', () => {
    const ts = Date.UTC(2024, 0, 1);
    const values: Array<number | undefined> = [];
    for (let i = 0; i < 5000; i++) values.push(i % 7 === 3 ? undefined : i % 3 === 0 ? 200 + (i % 50) : ts + i * 60_000);
    // small codes and timestamps in one column: beyond 32 bits, so floats
    expect(roundTrip(values).memoryBytes()).toBe(8192 * 8);
    // a month of millisecond timestamps fits 32 bits: 4 bytes per doc instead of 8
    const month = roundTrip(Array.from({ length: 5000 }, (_, i) => (i % 11 === 5 ? undefined : ts + i * 500_000)));
    expect(month.memoryBytes()).toBe(8192 * 4);
    // HTTP status codes: 2 bytes per doc
    expect(roundTrip(Array.from({ length: 5000 }, (_, i) => [200, 404, 503, 301][i % 4])).memoryBytes()).toBe(8192 * 2);
    roundTrip([5, 4, 3, 2, 1, 0, -1, -1000, -1e9, undefined, 7]);
    roundTrip([1, 2.5, -0, 0, undefined, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]);
    roundTrip([-0, 3]);
    roundTrip([0xfe, 0xff, 0x100, 0xffff, 0x10000, 2 ** 32 - 2, 2 ** 32 + 5]);
  });

  it('keeps the extra values of multi-valued documents and reports docs without values as missing', () => {
    const col = new NumericColumn();
    col.add(2, 10);
    col.add(2, 1.5);
    col.add(2, -3);
    expect(col.all(2)).toEqual([10, 1.5, -3]);
    expect(col.all(0)).toEqual([]);
    expect(col.has(5000)).toBe(false);
    expect(col.get(5000)).toBeNaN();
    expect(col.length).toBe(3);
  });
});
