/**
 * The shapes shared by the search benchmark's data sets, queries and engine adapters. Every
 * engine gets the same documents and the same queries; adapters translate them into each
 * engine's own API.
 */

/** One document as every engine sees it. */
export interface BenchDoc {
  /** Stable id, the same in every engine (used for the ranking-overlap column). */
  id: string;
  /** The full-text field that match queries search. */
  text: string;
  /** The keyword value the bool query filters on (e.g. the HTTP method, or spam/ham). */
  tag: string;
  /** The document as it would be stored in Elasticsearch (what Loupe indexes). */
  source: Record<string, unknown>;
}

export type QueryKind = 'terms1' | 'terms2' | 'terms3' | 'filtered';

export const QUERY_KINDS: readonly QueryKind[] = ['terms1', 'terms2', 'terms3', 'filtered'];

export const QUERY_KIND_LABELS: Record<QueryKind, string> = {
  terms1: '1 term',
  terms2: '2 terms',
  terms3: '3 terms',
  filtered: 'must+filter',
};

/** A top-10 query: OR of the terms over the text field, optionally filtered by tag. */
export interface BenchQuery {
  terms: string[];
  /** When set, only documents whose tag equals this value match (filter context: no score). */
  tag?: string;
}

/** What an engine is told about the data set so it can lay out its index. */
export interface DatasetLayout {
  name: string;
  /** Elasticsearch field holding the text (dotted path inside source). */
  textField: string;
  /** Elasticsearch keyword field holding the tag. */
  tagField: string;
  /** Elasticsearch create-index body (mappings) for Loupe. */
  createIndexBody: Record<string, unknown>;
}

export interface Dataset {
  layout: DatasetLayout;
  docs: BenchDoc[];
  queries: Record<QueryKind, BenchQuery[]>;
}

/** An engine under test. `search` returns the ids of the top 10 documents, best first. */
export interface BenchEngine {
  readonly name: string;
  /** Indexes all documents; calls onProgress with the running count every chunk or so. */
  build(docs: BenchDoc[], onProgress: (indexed: number) => void): Promise<void>;
  search(query: BenchQuery): Promise<string[]> | string[];
  /** The engine's own figure for the memory its index holds, when it reports one. */
  ownMemoryBytes?(): Promise<number> | number;
}

export const TOP_K = 10;

/** Documents per chunk when engines index in steps (progress reports, bulk batches). */
export const CHUNK = 10_000;

/** Calls `add` on consecutive slices of `docs` and reports progress after each. */
export async function inChunks(
  docs: BenchDoc[],
  add: (chunk: BenchDoc[]) => void | Promise<void>,
  onProgress: (indexed: number) => void,
  size = CHUNK,
): Promise<void> {
  for (let start = 0; start < docs.length; start += size) {
    await add(docs.slice(start, start + size));
    onProgress(Math.min(docs.length, start + size));
  }
}
