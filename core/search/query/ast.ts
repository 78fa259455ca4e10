/** The query DSL after parsing: one node type per Elasticsearch query, before any index is consulted. */
export type QueryNode =
  | { kind: 'match_all'; boost: number }
  | { kind: 'match_none'; boost: number }
  | { kind: 'match'; field: string; query: string | number | boolean; operator: 'or' | 'and'; minimumShouldMatch?: string; analyzer?: string; boost: number; zeroTermsQuery: 'none' | 'all' }
  | { kind: 'multi_match'; fields: string[]; query: string | number | boolean; operator: 'or' | 'and'; minimumShouldMatch?: string; analyzer?: string; boost: number; tieBreaker: number }
  | { kind: 'term'; field: string; value: string | number | boolean; boost: number; caseInsensitive: boolean }
  | { kind: 'terms'; field: string; values: Array<string | number | boolean>; boost: number }
  | { kind: 'range'; field: string; gt?: unknown; gte?: unknown; lt?: unknown; lte?: unknown; format?: string; boost: number }
  | { kind: 'exists'; field: string; boost: number }
  | { kind: 'ids'; values: string[]; boost: number }
  | { kind: 'prefix'; field: string; value: string; boost: number; caseInsensitive: boolean }
  | { kind: 'bool'; must: QueryNode[]; filter: QueryNode[]; should: QueryNode[]; mustNot: QueryNode[]; minimumShouldMatch?: string; boost: number }
  | { kind: 'constant_score'; filter: QueryNode; boost: number };

/** `missing`: where documents without a value go, or the value that stands in for none. */
export type SortSpec = { field: '_score' | '_doc' | string; order: 'asc' | 'desc'; missing: '_last' | '_first' | number | string };

export type SourceFilter = false | { includes: string[]; excludes: string[] };

export interface SearchRequest {
  query: QueryNode;
  size: number;
  from: number;
  sort?: SortSpec[];
  source: SourceFilter;
  /** true = exact, false = none, number = count exactly up to this many */
  trackTotalHits: boolean | number;
  explain: boolean;
  trackScores: boolean;
  minScore?: number;
}
