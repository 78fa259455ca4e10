/**
 * FlexSearch 0.8 (contextual index, no BM25: results come out pre-ranked by term position
 * and resolution). A Document index with the tag as a FlexSearch `tag` field, so the filtered
 * query uses FlexSearch's own tag filter. `suggest: true` returns documents that match only
 * some of the terms, as a match query (OR) does; without it FlexSearch requires all terms.
 */
import { Document } from 'flexsearch';
import type { BenchDoc, BenchEngine, BenchQuery } from '../types.js';
import { inChunks, TOP_K } from '../types.js';

interface FlexDoc {
  id: string;
  text: string;
  tag: string;
  [key: string]: string;
}

export function createFlexSearch(): BenchEngine {
  const index = new Document<FlexDoc>({ document: { id: 'id', index: ['text'], tag: ['tag'] } });
  return {
    name: 'FlexSearch',
    async build(docs: BenchDoc[], onProgress) {
      await inChunks(docs, (chunk) => {
        for (const doc of chunk) index.add(doc as unknown as FlexDoc);
      }, onProgress);
    },
    search(query: BenchQuery) {
      const options = {
        query: query.terms.join(' '),
        limit: TOP_K,
        suggest: true,
        ...(query.tag === undefined ? {} : { tag: { tag: query.tag } }),
      };
      // One field is indexed, so the result has at most one entry.
      const results = index.search(options) as unknown as Array<{ field?: string; tag?: string; result: Array<string | number> }>;
      const ids = results[0]?.result ?? [];
      return ids.slice(0, TOP_K).map(String);
    },
  };
}
