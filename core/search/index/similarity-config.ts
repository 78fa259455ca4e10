/**
 * Index similarity settings as Elasticsearch reads them: `index.similarity.default.type`
 * (BM25, classic or boolean) with BM25's k1 and b, and named similarities that fields pick with
 * `"similarity": "<name>"`. Both flat (`index.similarity.default.type`) and nested settings work.
 */
import { illegalArgument } from '../errors.js';
import { BM25_DEFAULTS } from '../similarity/bm25.js';

export type SimilarityConfig = { kind: 'BM25'; k1: number; b: number } | { kind: 'classic' } | { kind: 'boolean' };

export const DEFAULT_SIMILARITY: SimilarityConfig = { kind: 'BM25', ...BM25_DEFAULTS };

export function similarityFromSettings(def: Record<string, unknown>, name: string): SimilarityConfig {
  const type = String(def.type ?? '');
  if (type === 'BM25') {
    const k1 = def.k1 === undefined ? BM25_DEFAULTS.k1 : Number(def.k1);
    const b = def.b === undefined ? BM25_DEFAULTS.b : Number(def.b);
    if (!Number.isFinite(k1) || k1 < 0) throw illegalArgument(`illegal k1 value: ${def.k1}, must be a non-negative finite value`);
    if (!Number.isFinite(b) || b < 0 || b > 1) throw illegalArgument(`illegal b value: ${def.b}, must be between 0 and 1`);
    return { kind: 'BM25', k1, b };
  }
  if (type === 'classic') return { kind: 'classic' };
  if (type === 'boolean') return { kind: 'boolean' };
  throw illegalArgument(`Unknown Similarity type [${type}] for [${name}]`);
}

/** Resolves a field's `similarity` value (built-in name or a named one from the settings). */
export function resolveSimilarity(name: string | undefined, named: Map<string, SimilarityConfig>): SimilarityConfig {
  if (name === undefined) return named.get('default') ?? DEFAULT_SIMILARITY;
  const custom = named.get(name);
  if (custom) return custom;
  if (name === 'BM25') return DEFAULT_SIMILARITY;
  if (name === 'classic') return { kind: 'classic' };
  if (name === 'boolean') return { kind: 'boolean' };
  throw illegalArgument(`Unknown Similarity type [${name}]`);
}
