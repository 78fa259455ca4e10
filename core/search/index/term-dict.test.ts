import { describe, expect, it } from 'vitest';
import { TermDict } from './term-dict.js';

describe('term dictionary', () => {
  it('gives one id per term whether looked up by string or by a lower-cased range of text', () => {
    const d = new TermDict();
    const text = 'Login LOGIN login Über über x';
    const ids = [
      [0, 5],
      [6, 11],
      [12, 17],
      [18, 22],
      [23, 27],
      [28, 29],
    ].map(([s, e]) => d.internRange(text, s!, e!, true));
    expect(ids).toEqual([0, 0, 0, 1, 1, 2]);
    expect(d.terms).toEqual(['login', 'über', 'x']);
    expect(d.get('login')).toBe(0);
    expect(d.get('über')).toBe(1);
    expect(d.get('Login')).toBeUndefined();
    expect(d.internRange('Login', 0, 5, false)).toBe(3);
    for (let i = 0; i < 5000; i++) expect(d.intern(`t${i}`)).toBe(4 + i);
    for (let i = 0; i < 5000; i++) expect(d.internRange(`x T${i}`, 2, 3 + String(i).length + 0, true)).toBe(4 + i);
  });
});
