import { describe, expect, it } from 'vitest';
import { byte4ToInt, intToByte4, floatToByte315, byte315ToFloat } from './small-float.js';

describe('Lucene one-byte norms', () => {
  it('keeps field lengths below 40 exact and rounds longer ones down to 4 significant bits', () => {
    for (let i = 0; i < 40; i++) expect(byte4ToInt(intToByte4(i))).toBe(i);
    // From the reference notes (SmallFloat): 100 → 96, 41 → 40; the bytes from a javac run of SmallFloat's formulas.
    expect(byte4ToInt(intToByte4(100))).toBe(96);
    expect(intToByte4(100)).toBe(57);
    expect(byte4ToInt(intToByte4(41))).toBe(40);
    expect(intToByte4(41)).toBe(40);
    expect(byte4ToInt(255)).toBe(2013265944);
  });

  it('encodes classic field norms 1/sqrt(numTerms) with 3 significant bits', () => {
    // From the reference notes: 1→1.0, 2→0.625, 3→0.5, 5→0.4375, 10→0.3125.
    const norm = (n: number) => byte315ToFloat(floatToByte315(Math.fround(1 / Math.sqrt(n))));
    expect([1, 2, 3, 5, 10].map(norm)).toEqual([1.0, 0.625, 0.5, 0.4375, 0.3125]);
    expect(floatToByte315(0)).toBe(0);
  });
});
