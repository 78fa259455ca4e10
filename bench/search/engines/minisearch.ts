/**
 * MiniSearch 7 (BM25+, in-memory radix tree). Filtering uses its `filter` search option, the
 * way its documentation recommends: the callback sees each scored result with its stored
 * fields, so the tag is stored.
 */
import MiniSearch from 'minisearch';
import type { BenchDoc, BenchEngine, BenchQuery } from '../types.js';
import { inChunks, TOP_K } from '../types.js';

export function createMiniSearch(): BenchEngine {
  const index = new MiniSearch<BenchDoc>({ idField: 'id', fields: ['text'], storeFields: ['tag'] });
  return {
    name: 'MiniSearch',
    async build(docs, onProgress) {
      await inChunks(docs, (chunk) => index.addAll(chunk), onProgress);
    },
    search(query: BenchQuery) {
      const { tag } = query;
      // Defaults: OR of the terms, no prefix or fuzzy matching — as a match query does.
      const results = index.search(query.terms.join(' '), tag === undefined ? {} : { filter: (r) => r.tag === tag });
      const top: string[] = [];
      for (let i = 0; i < results.length && i < TOP_K; i++) top.push(String(results[i].id));
      return top;
    },
  };
}
