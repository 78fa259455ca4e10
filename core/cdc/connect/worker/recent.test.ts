import { describe, expect, it } from 'vitest';
import { Recent } from './recent.js';

describe('Recent', () => {
  it('keeps the newest items, oldest first, across wraps of the ring', () => {
    const r = new Recent<number>(5);
    expect(r.list()).toEqual([]);
    r.add([1, 2, 3]);
    expect(r.list()).toEqual([1, 2, 3]);
    r.add([4, 5, 6, 7]);
    expect(r.list()).toEqual([3, 4, 5, 6, 7]);
    r.add([8]);
    expect(r.list()).toEqual([4, 5, 6, 7, 8]);
  });

  it('takes only the last `capacity` items of a batch larger than the ring', () => {
    const r = new Recent<number>(3);
    r.add([1]);
    r.add([10, 11, 12, 13, 14]);
    expect(r.list()).toEqual([12, 13, 14]);
    r.add([15, 16]);
    expect(r.list()).toEqual([14, 15, 16]);
  });

  it('answers a copy that later additions do not change', () => {
    const r = new Recent<number>(2);
    r.add([1, 2]);
    const seen = r.list();
    r.add([3]);
    expect(seen).toEqual([1, 2]);
    expect(r.list()).toEqual([2, 3]);
  });
});
