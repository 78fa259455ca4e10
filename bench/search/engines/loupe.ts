/**
 * Loupe's embedded search engine, driven through its in-process API with the same
 * Elasticsearch request bodies a client would send: a create-index body with the data set's
 * mappings, bulk batches, a refresh, and `match` / `bool { must, filter }` searches asking for
 * 10 hits. `_source: false` because the peers return ids only too.
 */
import type { BenchDoc, BenchEngine, BenchQuery, DatasetLayout } from '../types.js';
import { inChunks, TOP_K } from '../types.js';

/** The slice of core/search/engine.ts this benchmark uses. */
export interface LoupeSearchEngine {
  createIndex(name: string, body: Record<string, unknown>): unknown;
  bulkIndex(name: string, docs: Array<{ id?: string; source: object }>): unknown;
  refresh(name: string): unknown;
  search(indexPattern: string, body: Record<string, unknown>): unknown;
  stats(name: string): { docs: number; memoryBytes: number } | Promise<{ docs: number; memoryBytes: number }>;
}

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

export async function loadLoupeEngine(): Promise<LoupeSearchEngine> {
  // Resolved at run time so the benchmark type-checks and its peers run while the engine is
  // still being written; a missing engine is reported, not a crash.
  const specifier = '../../../core/search/engine.js';
  const mod = (await import(specifier)) as { SearchEngine: new (opts: { dataDir?: string }) => LoupeSearchEngine };
  return new mod.SearchEngine({});
}

export function createLoupe(layout: DatasetLayout, engine: LoupeSearchEngine): BenchEngine {
  return {
    name: 'Loupe',
    async build(docs: BenchDoc[], onProgress) {
      await engine.createIndex(INDEX, layout.createIndexBody);
      await inChunks(docs, (chunk) => engine.bulkIndex(INDEX, chunk.map((d) => ({ id: d.id, source: d.source }))) as void, onProgress);
      await engine.refresh(INDEX);
    },
    async search(query: BenchQuery) {
      const response = (await engine.search(INDEX, loupeQueryBody(layout, query))) as SearchResponse;
      return response.hits.hits.map((h) => h._id);
    },
    async ownMemoryBytes() {
      return (await engine.stats(INDEX)).memoryBytes;
    },
  };
}
