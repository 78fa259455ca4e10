import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, InvertedField } from './inverted-field.js';

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('postings', () => {
  // a refresh gathers the postings a slice of terms at a time: one slice, and many small ones;
  // without jumps the pending runs span fewer than 65536 docs and keep them in two bytes
  it.each([
    [1 << 20, 0.01],
    [300, 0.01],
    [300, 0],
  ])('give back every doc id and freq of every term, across refreshes and pending runs, gaps of any size and block edges (refresh slice %i, jumps %d)', (slice, jumps) => {
    const rand = random(7);
    const field = new InvertedField(false, false, undefined, slice);
    const expected = new Map<string, number[]>();
    const freqOf = new Map<string, number>();
    let doc = 0;
    // the first batch overflows the pending buffer, so its postings reach refresh as sorted runs
    for (const batch of [60_000, 1, 9000]) {
      for (let i = 0; i < batch; i++) {
        // dense, sparse and very sparse terms; big doc-number jumps give multi-byte gaps
        doc += rand() < jumps ? 1 + Math.floor(rand() * 3_000_000) : 1;
        const terms = new Set<string>(['all']);
        if (rand() < 0.3) terms.add(`t${Math.floor(rand() * 20)}`);
        if (rand() < 0.02) terms.add(`rare${Math.floor(rand() * 500)}`);
        field.startDoc(doc);
        for (const t of terms) {
          // a term seen several times in a doc has that freq
          const freq = t.startsWith('t') ? 1 + (doc % 3) : 1;
          for (let k = 0; k < freq; k++) field.addTerm(doc, t);
          freqOf.set(`${t}@${doc}`, freq);
          if (!expected.has(t)) expected.set(t, []);
          expected.get(t)!.push(doc);
        }
        field.finishDoc(doc, terms.size, 1);
      }
      field.refresh();
      for (const [term, docs] of expected) {
        const id = field.termIds.get(term)!;
        expect([...field.termDocs(id)]).toEqual(docs);
        expect(field.docFreq(id)).toBe(docs.length);
        const cursor = field.postings(id);
        expect(cursor.end - cursor.start).toBe(docs.length);
        expect(Array.from(field.freqs.subarray(cursor.start, cursor.end))).toEqual(docs.map((d) => freqOf.get(`${term}@${d}`)));
        for (let i = 0; i < docs.length; i += 1 + Math.floor(rand() * 50)) expect(cursor.docAt(cursor.start + i)).toBe(docs[i]);
        // advance lands on the first doc >= target, from any position, or at the end
        for (let k = 0; k < 40; k++) {
          const from = Math.floor(rand() * docs.length);
          const target = docs[from]! + Math.floor(rand() * (k % 2 ? 50 : 5_000_000)) - 3;
          let want = from;
          while (want < docs.length && docs[want]! < target) want++;
          expect(cursor.advance(cursor.start + from, target) - cursor.start).toBe(want);
        }
      }
    }
    expect(expected.get('all')!.length).toBeGreaterThan(BLOCK_SIZE * 10);
  });
});
