/**
 * Loupe's embedded search engine, driven through its in-process API with the same
 * Elasticsearch request bodies a client would send: a create-index body with the data set's
 * mappings, bulk batches, a refresh, and `match` / `bool { must, filter }` searches asking for
 * 10 hits. `_source: false` because the peers return ids only too.
 */
import { SearchEngine } from '../../../core/search/engine.js';
import type { BenchDoc, BenchEngine, BenchQuery, DatasetLayout } from '../types.js';
import { inChunks, TOP_K } from '../types.js';

/** The slice of core/search/engine.ts this benchmark uses. */
export type LoupeSearchEngine = Pick<SearchEngine, 'createIndex' | 'bulkIndex' | 'refresh' | 'search' | 'stats'>;

interface SearchResponse {
  hits: { hits: Array<{ _id: string }> };
}

const INDEX = 'bench';

/** The Elasticsearch query a BenchQuery stands for: a match (OR), wrapped in bool+filter when filtered. */
export function loupeQueryBody(layout: DatasetLayout, query: BenchQuery): Record<string, unknown> {
  const match = { match: { [layout.textField]: query.terms.join(' ') } };
  const q = query.tag === undefined ? match : { bool: { must: [match], filter: [{ term: { [layout.tagField]: query.tag } }] } };
  return { size: TOP_K, _source: false, query: q };
}

/** An in-memory engine (no dataDir): the benchmark measures indexing and search, not the disk log. */
export function loadLoupeEngine(): LoupeSearchEngine {
  return new SearchEngine({});
}

export function createLoupe(layout: DatasetLayout, engine: LoupeSearchEngine): BenchEngine {
  return {
    name: 'Loupe',
    async build(docs: BenchDoc[], onProgress) {
      engine.createIndex(INDEX, layout.createIndexBody);
      await inChunks(docs, (chunk) => engine.bulkIndex(INDEX, chunk.map((d) => ({ id: d.id, source: d.source }))), onProgress);
      engine.refresh(INDEX);
    },
    search(query: BenchQuery) {
      const response = engine.search(INDEX, loupeQueryBody(layout, query)) as unknown as SearchResponse;
      return response.hits.hits.map((h) => h._id);
    },
    ownMemoryBytes() {
      return engine.stats(INDEX).memoryBytes;
    },
  };
}
