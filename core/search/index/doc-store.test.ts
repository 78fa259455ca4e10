import { describe, expect, it } from 'vitest';
import { DocStore } from './doc-store.js';

describe('stored documents', () => {
  it('returns every document exactly, from open and compressed blocks, including non-ASCII text', () => {
    const store = new DocStore();
    const docs = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ n: i, text: `doc ${i} ${'é✓ '.repeat(i % 50)}`, nested: { line: 'a\nb' } }));
    docs.forEach((d) => store.add(d));
    for (const i of [0, 1, 777, 1500, 2998, 2999]) expect(store.get(i)).toBe(docs[i]);
    expect(store.count).toBe(3000);
    expect(store.memoryBytes()).toBeLessThan(docs.join('').length);
  });

  it('keeps a source as sent, pretty-printed with raw newlines, after its block is compressed', () => {
    const store = new DocStore();
    const pretty = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ n: i, msg: `line ${i}` }, null, 2) + (i % 3 === 0 ? '\r\n' : ''));
    pretty.forEach((d) => store.add(d));
    for (let i = 0; i < pretty.length; i += 97) expect(store.get(i)).toBe(pretty[i]);
    expect(store.get(4999)).toBe(pretty[4999]);
  });

  it('keeps texts UTF-8 cannot carry (a lone surrogate), empty texts and one very large text', () => {
    const store = new DocStore();
    const odd = '{"s":"\ud800x"}';
    const big = JSON.stringify({ big: 'x😀'.repeat(200_000) });
    const docs = ['{}', odd, '', big, ...Array.from({ length: 4000 }, (_, i) => `{"i":${i}}`)];
    docs.forEach((d) => store.add(d));
    docs.forEach((d, i) => expect(store.get(i)).toBe(d));
    expect(() => store.get(docs.length)).toThrow(RangeError);
  });
});
