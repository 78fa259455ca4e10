import { describe, expect, it } from 'vitest';
import { seededRandom } from '../bench-util.js';
import { ZipfSampler } from './zipf.js';

describe('Zipf sampling', () => {
  it('gives rank r a probability proportional to 1 / r^s', () => {
    const z = new ZipfSampler(1000, 1);
    let total = 0;
    for (let r = 1; r <= 1000; r++) total += z.probability(r);
    expect(total).toBeCloseTo(1, 10);
    expect(z.probability(1) / z.probability(2)).toBeCloseTo(2, 10);
    expect(z.probability(10) / z.probability(100)).toBeCloseTo(10, 10);
  });

  it('draws ranks with those frequencies', () => {
    const z = new ZipfSampler(1000, 1);
    const random = seededRandom(3);
    const counts = new Map<number, number>();
    const draws = 200_000;
    for (let i = 0; i < draws; i++) {
      const r = z.rank(random());
      counts.set(r, (counts.get(r) ?? 0) + 1);
    }
    for (const r of [1, 2, 5, 20]) {
      expect((counts.get(r) ?? 0) / draws).toBeCloseTo(z.probability(r), 2);
    }
    expect(Math.max(...counts.keys())).toBeLessThanOrEqual(1000);
    expect(Math.min(...counts.keys())).toBe(1);
  });

  it('maps the ends of [0, 1) to the first and last rank', () => {
    const z = new ZipfSampler(50, 1.2);
    expect(z.rank(0)).toBe(1);
    expect(z.rank(0.999999999)).toBe(50);
  });

  it('rejects an empty vocabulary', () => {
    expect(() => new ZipfSampler(0, 1)).toThrow('Zipf n must be a positive integer, got 0');
  });
});
