import { describe, expect, it } from 'vitest';
import { asciiWordRanges, standardTokenize } from './standard-tokenizer.js';
import { termHash } from './term-hash.js';

function full(text: string): number[] {
  const out: number[] = [];
  standardTokenize(text, (s, e) => out.push(s, e));
  return out;
}

function fast(text: string): number[] | undefined {
  const out = { ranges: new Int32Array(2), hashes: new Int32Array(1), count: 0 };
  if (!asciiWordRanges(text, out)) return undefined;
  // each word's hash is the term dictionary's hash of the lower-cased word
  for (let i = 0; i < out.count; i++) expect(out.hashes[i]).toBe(termHash(text.slice(out.ranges[2 * i]!, out.ranges[2 * i + 1]!).toLowerCase()));
  return [...out.ranges.subarray(0, out.count * 2)];
}

describe('the ASCII fast path of the standard tokenizer', () => {
  it('splits plain log lines into the same words as the UAX #29 rules', () => {
    const line = 'GET /api/v2/Orders?id=42 HTTP 200 - "curl" user-17 (timeout) [x] a-b!c';
    expect(fast(line)).toEqual(full(line));
  });

  it('leaves text with joining punctuation, non-ASCII or over-long words to the full rules', () => {
    for (const text of ['U.S.A', '3,14', "don't", 'a_b', 'x:y', 'café', '1;2', 'a'.repeat(300)]) expect(fast(text)).toBeUndefined();
    // punctuation that touches no letter or digit is a plain separator
    expect(fast('a . b , c ; d : e')).toEqual(full('a . b , c ; d : e'));
    expect(fast('a _ b')).toBeUndefined();
  });

  it('agrees with the full rules on random ASCII text whenever it applies', () => {
    let seed = 11;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const alphabet = 'abcXYZ019 _.:\',;-/"!?\t\n';
    let applied = 0;
    for (let k = 0; k < 5000; k++) {
      const len = Math.floor(rand() * 40);
      let text = '';
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * (rand() < 0.8 ? 10 : alphabet.length))];
      const f = fast(text);
      if (f === undefined) continue;
      applied++;
      expect(f, JSON.stringify(text)).toEqual(full(text));
    }
    expect(applied).toBeGreaterThan(1000);
  });
});
