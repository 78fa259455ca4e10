import { describe, expect, it } from 'vitest';
import { readLink, writeLink } from './deep-link.js';

describe('the relevance deep link', () => {
  it('keeps index, body, selected hit, why-not id and tab through the URL', () => {
    const state = { index: 'access-logs', body: '{\n  "query": { "match": { "message": "login & failed?" } }\n}', hit: 'a#1', whyNot: 'x/y', tab: 'why-not' as const, compareB: 'z' };
    const hash = writeLink(state);
    expect(hash.startsWith('#/relevance?')).toBe(true);
    expect(readLink(hash)).toEqual(state);
  });

  it('ignores other pages and unknown tabs', () => {
    expect(readLink('#/cdc?index=x')).toEqual({});
    expect(readLink('#/relevance?index=x&tab=nope')).toEqual({ index: 'x' });
    expect(writeLink({})).toBe('#/relevance');
  });
});
