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
});
