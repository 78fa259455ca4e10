import { describe, expect, it } from 'vitest';
import { formatRatio, formatTable, positiveInt, positiveNumber, seededRandom, timeBoxedLoop } from './bench-util.js';

describe('seeded random numbers', () => {
  it('repeat exactly for the same seed, so benchmark data is the same on every run', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 1000 }, a);
    expect(Array.from({ length: 1000 }, b)).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 5 }, seededRandom(43))).not.toEqual(first.slice(0, 5));
  });

  it('are spread evenly enough for data generation', () => {
    const r = seededRandom(1);
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[Math.floor(r() * 10)]++;
    for (const b of buckets) expect(Math.abs(b - 10_000)).toBeLessThan(500);
  });
});

describe('time-boxed loops', () => {
  it('run at least the required number of iterations when there is no minimum time', async () => {
    const seen: number[] = [];
    const result = await timeBoxedLoop((i) => seen.push(i), { minMs: 0, minIterations: 7, maxMs: 60_000 });
    expect(result.iterations).toBe(7);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('stop after one iteration when the hard limit is already reached', async () => {
    const result = await timeBoxedLoop(() => {}, { minMs: 60_000, minIterations: 1_000, maxMs: 0 });
    expect(result.iterations).toBe(1);
  });

  it('report iterations per second from the measured wall time', async () => {
    const result = await timeBoxedLoop(() => {}, { minMs: 0, minIterations: 100, maxMs: 60_000 });
    expect(result.perSecond).toBeCloseTo((result.iterations * 1000) / result.ms, 6);
  });
});

describe('tables and numbers', () => {
  it('align columns: first left, figures right', () => {
    const table = formatTable(['engine', 'q/s'], [['Loupe', '1,000'], ['MiniSearch', '1.5']]);
    expect(table.split('\n')).toEqual(['engine        q/s', '----------  -----', 'Loupe       1,000', 'MiniSearch    1.5']);
  });

  it('print ratios compactly', () => {
    expect(formatRatio(1234.5)).toBe('1,235×');
    expect(formatRatio(12.3)).toBe('12×');
    expect(formatRatio(2.345)).toBe('2.3×');
    expect(formatRatio(0.1234)).toBe('0.12×');
    expect(formatRatio(NaN)).toBe('–');
  });

  it('accept document counts as 200000, 200_000, 200k or 1m, and reject nonsense', () => {
    expect(positiveInt('200000', 'n', 1)).toBe(200_000);
    expect(positiveInt('200_000', 'n', 1)).toBe(200_000);
    expect(positiveInt('200k', 'n', 1)).toBe(200_000);
    expect(positiveInt('1m', 'n', 1)).toBe(1_000_000);
    expect(positiveInt(undefined, 'n', 5)).toBe(5);
    expect(() => positiveInt('-3', '--docs', 1)).toThrow('--docs must be a positive integer, got "-3"');
    expect(() => positiveInt('lots', '--docs', 1)).toThrow(/positive integer/);
    expect(() => positiveInt('0', '--docs', 1)).toThrow(/positive integer/);
    expect(positiveNumber('0.5', 's', 1)).toBe(0.5);
    expect(() => positiveNumber('0', '--query-limit', 1)).toThrow('--query-limit must be a positive number, got "0"');
  });
});
