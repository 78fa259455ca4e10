/**
 * Lunr 2 (vector-space scoring over BM25-like weights). Its default pipeline stems and drops
 * English stop words; both are taken out so it indexes the words an Elasticsearch standard
 * analyzer indexes. Lunr has no filters: the filtered query keeps the first ten scored results
 * whose tag matches (post-filtering, the usual advice for Lunr).
 */
import lunr from 'lunr';
import type { BenchDoc, BenchEngine, BenchQuery } from '../types.js';
import { inChunks, TOP_K } from '../types.js';

export function createLunr(tagOf: (id: string) => string | undefined): BenchEngine {
  let index: lunr.Index | undefined;
  return {
    name: 'Lunr',
    async build(docs: BenchDoc[], onProgress) {
      const builder = new lunr.Builder();
      builder.ref('id');
      builder.field('text');
      // A bare Builder has empty pipelines: lunr's tokenizer (lower-case, split on spaces and
      // hyphens) only, no stemmer and no stop-word filter.
      await inChunks(docs, (chunk) => {
        for (const doc of chunk) builder.add({ id: doc.id, text: doc.text });
      }, onProgress);
      // Lunr computes every document vector here, in one call that cannot report progress.
      index = builder.build();
    },
    search(query: BenchQuery) {
      if (!index) throw new Error('Lunr index not built');
      // Each term is an optional clause (OR), as in a match query.
      const results = index.query((q) => q.term(query.terms, {}));
      const top: string[] = [];
      for (let i = 0; i < results.length && top.length < TOP_K; i++) {
        const ref = results[i].ref;
        if (query.tag === undefined || tagOf(ref) === query.tag) top.push(ref);
      }
      return top;
    },
  };
}
