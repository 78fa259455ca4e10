/**
 * The peer adapters drive the real libraries: a query must find the document an engineer
 * would expect, and a filtered query must return only documents with the filter's tag.
 */
import { describe, expect, it } from 'vitest';
import type { BenchDoc, BenchEngine } from '../types.js';
import { createFlexSearch } from './flexsearch.js';
import { createLunr } from './lunr.js';
import { createMiniSearch } from './minisearch.js';
import { createOrama } from './orama.js';

const texts = [
  ['a', 'payment failed for order', 'POST'],
  ['b', 'payment accepted', 'GET'],
  ['c', 'login timeout for user', 'GET'],
  ['d', 'user login failed', 'POST'],
  ['e', 'cache refresh completed', 'GET'],
  ['f', 'payment payment payment retry', 'GET'],
] as const;
const docs: BenchDoc[] = texts.map(([id, text, tag]) => ({ id, text, tag, source: { message: text } }));
const tags = new Map(docs.map((d) => [d.id, d.tag]));

const peers: Array<() => BenchEngine> = [createMiniSearch, createFlexSearch, () => createLunr((id) => tags.get(id)), createOrama];

describe.each(peers.map((make) => [make().name, make] as const))('%s adapter', (_name, make) => {
  it('indexes every document, reporting progress', async () => {
    const engine = make();
    const progress: number[] = [];
    await engine.build(docs, (n) => progress.push(n));
    expect(progress.at(-1)).toBe(docs.length);
  });

  it('finds the documents containing a term, and only those', async () => {
    const engine = make();
    await engine.build(docs, () => {});
    expect((await engine.search({ terms: ['cache'] })).sort()).toEqual(['e']);
    expect((await engine.search({ terms: ['payment'] })).sort()).toEqual(['a', 'b', 'f']);
  });

  it('matches any of several terms (OR, like a match query)', async () => {
    const engine = make();
    await engine.build(docs, () => {});
    expect((await engine.search({ terms: ['cache', 'timeout'] })).sort()).toEqual(['c', 'e']);
  });

  it('keeps only documents with the tag in a filtered query', async () => {
    const engine = make();
    await engine.build(docs, () => {});
    expect((await engine.search({ terms: ['failed', 'payment'], tag: 'POST' })).sort()).toEqual(['a', 'd']);
  });

  it('returns at most 10 ids', async () => {
    const many: BenchDoc[] = Array.from({ length: 30 }, (_, i) => ({ id: `m${i}`, text: `common word ${i}`, tag: 'GET', source: {} }));
    const engine = make();
    await engine.build(many, () => {});
    expect(await engine.search({ terms: ['common'] })).toHaveLength(10);
  });
});
