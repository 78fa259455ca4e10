/**
 * The per-index filter cache, as Elasticsearch's query cache behaves: filters that are used
 * often are cached (a usage history of the last 256 filters; range, terms, prefix and exists
 * after 2 uses, others after 5; term and match_all never), only on an index of at least 10,000
 * documents (or with `index.queries.cache.everything: true`), and dropped when a refresh changes
 * the index. Hits and misses are counted for `GET /{index}/_stats`.
 */
export interface QueryCacheStats {
  memory_size_in_bytes: number;
  total_count: number;
  hit_count: number;
  miss_count: number;
  cache_size: number;
  cache_count: number;
  evictions: number;
}

const HISTORY = 256;
const MAX_ENTRIES = 1000;
const COSTLY = new Set(['range', 'terms', 'prefix', 'exists', 'ids']);

export class FilterCache {
  private readonly entries = new Map<string, Int32Array>();
  private generation = -1;
  private readonly history: string[] = [];
  private readonly uses = new Map<string, number>();
  hits = 0;
  misses = 0;
  cacheCount = 0;
  evictions = 0;

  constructor(private readonly everything: boolean) {}

  /** Records a use of a filter (Lucene's policy.onUse). */
  onUse(key: string): void {
    this.history.push(key);
    this.uses.set(key, (this.uses.get(key) ?? 0) + 1);
    if (this.history.length > HISTORY) {
      const old = this.history.shift()!;
      const n = this.uses.get(old)! - 1;
      if (n === 0) this.uses.delete(old);
      else this.uses.set(old, n);
    }
  }

  private shouldCache(kind: string, key: string): boolean {
    if (kind === 'term' || kind === 'match_all' || kind === 'match_none') return false;
    if (this.everything) return true;
    return (this.uses.get(key) ?? 0) >= (COSTLY.has(kind) ? 2 : 5);
  }

  /** The cached doc set, or computes it (and caches it when the policy says so). */
  get(kind: string, key: string, generation: number, maxDoc: number, compute: () => Int32Array): Int32Array {
    if (generation !== this.generation) {
      this.evictions += this.entries.size;
      this.entries.clear();
      this.generation = generation;
    }
    if (kind === 'term' || kind === 'match_all' || kind === 'match_none' || (!this.everything && maxDoc < 10000)) return compute();
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const docs = compute();
    if (this.shouldCache(kind, key)) {
      if (this.entries.size >= MAX_ENTRIES) {
        this.entries.delete(this.entries.keys().next().value!);
        this.evictions++;
      }
      this.entries.set(key, docs);
      this.cacheCount++;
    }
    return docs;
  }

  stats(): QueryCacheStats {
    let bytes = 0;
    for (const d of this.entries.values()) bytes += d.byteLength + 64;
    return {
      memory_size_in_bytes: bytes,
      total_count: this.hits + this.misses,
      hit_count: this.hits,
      miss_count: this.misses,
      cache_size: this.entries.size,
      cache_count: this.cacheCount,
      evictions: this.evictions,
    };
  }

  clear(): void {
    this.evictions += this.entries.size;
    this.entries.clear();
  }
}
