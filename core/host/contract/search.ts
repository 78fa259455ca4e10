/**
 * Host-contract methods and events of the search (relevance) workbench. Every call goes over
 * Elasticsearch's REST API at the search base URL, so the same screens work against the
 * embedded engine and against a real Elasticsearch or OpenSearch cluster.
 */

/** One mapped field, flattened (multi-fields appear as `message.keyword`). */
export interface SearchFieldInfo {
  path: string;
  type: string;
  analyzer?: string;
  searchAnalyzer?: string;
  /** The field's similarity; undefined means the index default. */
  similarity?: string;
  /** The parent field when this is a multi-field. */
  multiFieldOf?: string;
}

export interface SearchIndexInfo {
  name: string;
  uuid: string;
  health: string;
  docs: number;
  deletedDocs: number;
  storeSize: string;
  /** The index-wide similarity: BM25 (with k1, b) or classic. */
  similarity: { type: string; k1?: number; b?: number };
  /** Settings as Elasticsearch shows them (nested, string values). */
  settings: Record<string, unknown>;
  /** `mappings` exactly as `GET /{index}/_mapping` returns it. */
  mappings: Record<string, unknown>;
  fields: SearchFieldInfo[];
}

/** An explanation node as Elasticsearch returns it. */
export interface SearchExplanation {
  value: number;
  description: string;
  details: SearchExplanation[];
}

export interface SearchWhyNot {
  index: string;
  id: string;
  /** false when the document does not exist (Elasticsearch answers 404). */
  found: boolean;
  matched: boolean;
  explanation?: SearchExplanation;
  /** The clauses that fail, in order, quoted from the explanation ("no match on required clause (…)", "failure to match filter: …"). */
  failures: string[];
}

export interface SearchToken {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
}

export interface SearchMethods {
  /** Indexes with doc counts, similarity, settings, mappings and flattened fields. */
  'search.indices'(params: Record<string, never>): SearchIndexInfo[];
  /** One index's mapping as fields (and the raw mapping). */
  'search.mapping'(params: { index: string }): { index: string; mappings: Record<string, unknown>; fields: SearchFieldInfo[] };
  /**
   * Runs a raw Elasticsearch search body; returns the Elasticsearch response unchanged. `text`,
   * when given, is the body exactly as the user typed it and is sent as is, so that the line and
   * column of a parsing_exception point into the editor.
   */
  'search.query'(params: { index: string; body?: Record<string, unknown>; text?: string; explain?: boolean }): Record<string, unknown>;
  /** Why one document scored what it did: `GET /{index}/_explain/{id}`. */
  'search.explain'(params: { index: string; id: string; query: Record<string, unknown> }): { index: string; id: string; matched: boolean; found: boolean; explanation?: SearchExplanation };
  /** Why a document did not match: the explain tree and the failing clauses named. */
  'search.whyNot'(params: { index: string; id: string; query: Record<string, unknown> }): SearchWhyNot;
  /** Tokens of a text as a field's analyzer (or a named analyzer) produces them. */
  'search.analyze'(params: { text: string; index?: string; field?: string; analyzer?: string }): { tokens: SearchToken[] };
  /**
   * Creates an index from a bundled sample data set (web access logs, or 3,811 mails of the
   * SpamAssassin ham corpus) and indexes it in batches, emitting `search.loadProgress`.
   */
  'search.indexSample'(params: { dataset: SearchSampleDataset; index?: string; similarity?: 'BM25' | 'classic' }): { index: string; indexed: number; errors: number };
  /**
   * Indexes a batch of documents through `_bulk` (an `_id` key in a document is its id). The
   * index is created by the first batch when missing, with dynamic mappings. Returns how many
   * were indexed and, for the rejected ones, Elasticsearch's reasons.
   */
  'search.bulk'(params: { index: string; documents: Record<string, unknown>[]; refresh?: boolean }): SearchBulkResult;
  /**
   * Copies an index into a new one with the same mappings and another default similarity
   * (`index.similarity.default.type`), for comparing BM25 with classic TF/IDF on one query.
   */
  'search.copyIndex'(params: { source: string; target: string; similarity: 'BM25' | 'classic'; replace?: boolean }): { index: string; copied: number };
  /** The remote cluster's credentials as stored (secrets never come back, only whether one is set). */
  'search.remoteAuth'(params: Record<string, never>): SearchRemoteAuthView;
  /** Stores the remote cluster's credentials (file mode 0600 in the data directory); `none` removes them. */
  'search.setRemoteAuth'(params: SearchRemoteAuth): SearchRemoteAuthView;
  /**
   * Connects to a search server (the configured one, or `url` with `auth` before saving) and
   * answers with its name, version and distribution, or a readable reason why it cannot.
   */
  'search.testConnection'(params: { url?: string; auth?: SearchRemoteAuth }): SearchConnectionTest;
  'search.deleteIndex'(params: { index: string }): { acknowledged: boolean };
  /** Creates an index from an Elasticsearch create-index body (settings, mappings). */
  'search.createIndex'(params: { index: string; body?: Record<string, unknown> }): { acknowledged: boolean; index: string };
  /** Indexes one document (refreshed, so the next query sees it); returns Elasticsearch's answer. */
  'search.indexDocument'(params: { index: string; id?: string; document: Record<string, unknown> }): Record<string, unknown>;
  /** One stored document (`found: false` when missing). */
  'search.getDocument'(params: { index: string; id: string }): { found: boolean; id: string; version?: number; source?: Record<string, unknown> };
}

export type SearchSampleDataset = 'access-logs' | 'mails';

export interface SearchBulkResult {
  indexed: number;
  rejected: number;
  /** The first rejected documents' reasons as Elasticsearch gives them (at most 20). */
  errors: { position: number; id?: string; type: string; reason: string }[];
}

export type SearchRemoteAuth = { kind: 'none' } | { kind: 'basic'; username: string; password: string } | { kind: 'apiKey'; apiKey: string };

export interface SearchRemoteAuthView {
  kind: SearchRemoteAuth['kind'];
  username?: string;
  /** Whether a password or API key is stored. */
  secretSet: boolean;
}

export type SearchConnectionTest =
  | { ok: true; url: string; name: string; clusterName: string; version: string; distribution: 'elasticsearch' | 'opensearch' | 'loupe'; tookMs: number }
  | { ok: false; url: string; status?: number; message: string; hint: string };

export interface SearchEvents {
  /** The list of indexes changed (sample indexed, index deleted). */
  'search.indicesChanged': { indices: string[] };
  /** Progress of a sample being indexed. */
  'search.loadProgress': { index: string; done: number; total: number; rejected: number };
}
