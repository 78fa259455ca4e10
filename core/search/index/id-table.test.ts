import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.js';

describe('document ids', () => {
  it('finds numbered, updated and string ids and names every doc', () => {
    const t = new IdTable();
    for (let d = 0; d < 5000; d++) t.set(String(d), d); // "0", "1", … as bulk loads give
    t.set('42', 5000); // update of "42": the id moves to a new doc
    t.set('abc', 5001);
    t.set('007', 5002); // not a canonical integer: kept as a string
    t.set('9000', 5003);
    expect(t.get('41')).toBe(41);
    expect(t.get('42')).toBe(5000);
    expect(t.get('abc')).toBe(5001);
    expect(t.get('007')).toBe(5002);
    expect(t.get('7')).toBe(7);
    expect(t.get('9000')).toBe(5003);
    expect(t.get('9001')).toBeUndefined();
    expect([t.idOf(42), t.idOf(5000), t.idOf(5001), t.idOf(5002), t.idOf(5003)]).toEqual(['42', '42', 'abc', '007', '9000']);
  });
});
