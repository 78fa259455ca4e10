import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './sorted.js';

describe('binary search over an ascending array', () => {
  const arr = [2, 4, 4, 7];
  it('lowerBound: the first element at or above x', () => {
    expect([0, 2, 3, 4, 5, 7, 8].map((x) => lowerBound(arr, x))).toEqual([0, 0, 1, 1, 3, 3, 4]);
    expect(lowerBound([], 1)).toBe(0);
  });
  it('upperBound: the first element above x', () => {
    expect([0, 2, 3, 4, 5, 7, 8].map((x) => upperBound(arr, x))).toEqual([0, 1, 1, 3, 3, 4, 4]);
    expect(upperBound([], 1)).toBe(0);
  });
});
