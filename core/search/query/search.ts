/**
 * Runs a search request over one or more indexes and shapes Elasticsearch's response: hits in
 * score order (or by sort fields), totals with track_total_hits, `_source` filtering, and
 * explanations. Each index is one shard; results merge by score, then index order, then doc id.
 */
import { sortPrint, withSortPrint } from '../sort-values.js';
import type { IndexShard } from '../index/shard.js';
import { EsError, illegalArgument } from '../errors.js';
import { toJson } from '../similarity/explanation.js';
import type { SearchRequest, SortSpec } from './ast.js';
import { contextFor, createWeight } from './build.js';
import { collectAll, type TopDocs } from './collect.js';
import { collectTopK } from './top-k.js';
import type { FilterCache } from './filter-cache.js';
import { filterSource } from './source-filter.js';
import { parseKeepingText } from '../raw-json.js';
import { NO_MORE_DOCS } from './scorers.js';
import { formatDate } from '../mapping/dates.js';

export interface SearchTarget {
  name: string;
  shard: IndexShard;
  cache?: FilterCache;
}

export interface SearchOptions {
  now?: number;
  nodeId?: string;
  /** Force the exhaustive path (tests compare it with top-k). */
  exhaustive?: boolean;
}

type Json = Record<string, unknown>;

interface Hit {
  target: SearchTarget;
  targetIndex: number;
  doc: number;
  score: number;
  sortValues?: unknown[];
}

export function executeSearch(targets: SearchTarget[], req: SearchRequest, opts: SearchOptions = {}): Json {
  const started = performance.now();
  const now = opts.now ?? Date.now();
  const k = req.from + req.size;
  let total = 0;
  let relation: 'eq' | 'gte' = 'eq';
  let maxScore = -Infinity;
  let hits: Hit[] = [];
  const sortByScore = !req.sort || (req.sort.length === 1 && req.sort[0]!.field === '_score' && req.sort[0]!.order === 'desc');
  const weights = new Map<SearchTarget, ReturnType<typeof createWeight>>();

  targets.forEach((target, targetIndex) => {
    const ctx = contextFor(target.shard, now, target.cache);
    const weight = createWeight(ctx, req.query);
    weights.set(target, weight);
    if (sortByScore) {
      const threshold = req.trackTotalHits === true ? Infinity : req.trackTotalHits === false ? 0 : req.trackTotalHits;
      const top: TopDocs =
        !opts.exhaustive && req.minScore === undefined ? collectTopK(target.shard, weight, Math.max(k, 0), threshold) : collectAll(target.shard, weight.scorer(), Math.max(k, 0), req.minScore);
      total += top.total;
      if (top.relation === 'gte') relation = 'gte';
      if (top.maxScore > maxScore) maxScore = top.maxScore;
      for (let i = 0; i < top.docs.length; i++) hits.push({ target, targetIndex, doc: top.docs[i]!, score: top.scores[i]! });
    } else {
      const scorer = weight.scorer();
      const live = target.shard.searchLive;
      if (scorer) {
        const needScores = req.trackScores || req.sort!.some((s) => s.field === '_score');
        for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
          if (live[doc] !== 1) continue;
          const score = needScores ? scorer.score() : NaN;
          if (req.minScore !== undefined && score < req.minScore) continue;
          total++;
          if (score > maxScore) maxScore = score;
          hits.push({ target, targetIndex, doc, score, sortValues: req.sort!.map((s) => sortValue(target.shard, s, doc, score)) });
        }
      }
    }
  });

  if (sortByScore) {
    hits.sort((a, b) => b.score - a.score || a.targetIndex - b.targetIndex || a.doc - b.doc);
  } else {
    const specs = req.sort!;
    hits.sort((a, b) => {
      for (let i = 0; i < specs.length; i++) {
        const c = compareSort(a.sortValues![i], b.sortValues![i], specs[i]!);
        if (c !== 0) return c;
      }
      return a.targetIndex - b.targetIndex || a.doc - b.doc;
    });
  }
  if (typeof req.trackTotalHits === 'number' && total > req.trackTotalHits) {
    total = req.trackTotalHits;
    relation = 'gte';
  }
  hits = hits.slice(req.from, req.from + req.size);

  const out: Json[] = hits.map((h) => {
    const hit: Json = {};
    if (req.explain) {
      hit._shard = `[${h.target.name}][0]`;
      hit._node = opts.nodeId ?? 'loupe-node';
    }
    hit._index = h.target.name;
    hit._type = '_doc';
    hit._id = h.target.shard.idOf(h.doc);
    hit._score = sortByScore || req.trackScores ? h.score : null;
    if (req.source !== false) {
      const src = filterSource(parseKeepingText(h.target.shard.sourceOf(h.doc)) as Json, req.source);
      if (src !== undefined) hit._source = src;
    }
    if (h.sortValues) {
      const specs = req.sort!;
      const sort = h.sortValues.map((v) => v ?? null);
      const print = specs.map((spec, i) => sortPrint(spec.field, h.target.shard.mapping.fields.get(spec.field)?.type, h.sortValues![i], (spec.order === 'asc') === (spec.missing === '_first')));
      hit.sort = withSortPrint(sort, print);
    }
    if (req.explain) hit._explanation = toJson(weights.get(h.target)!.explain(h.doc));
    return hit;
  });

  const response: Json = {
    took: Math.round(performance.now() - started),
    timed_out: false,
    _shards: { total: targets.length, successful: targets.length, skipped: 0, failed: 0 },
    hits: {
      ...(req.trackTotalHits === false ? {} : { total: { value: total, relation } }),
      max_score: sortByScore || req.trackScores ? (maxScore === -Infinity ? null : maxScore) : null,
      hits: out,
    },
  };
  return response;
}

/** A doc's value for a sort; a `missing` value given in the request stands in for none. */
function sortValue(shard: IndexShard, spec: SortSpec, doc: number, score: number): unknown {
  const v = fieldSortValue(shard, spec, doc, score);
  if (v !== undefined || spec.missing === '_first' || spec.missing === '_last') return v;
  if (shard.mapping.fields.get(spec.field)?.type === 'keyword') return String(spec.missing);
  const n = Number(spec.missing);
  if (Number.isNaN(n) || spec.missing === '') throw new EsError('number_format_exception', `For input string: "${String(spec.missing)}"`, 400);
  return n;
}

function fieldSortValue(shard: IndexShard, spec: SortSpec, doc: number, score: number): unknown {
  if (spec.field === '_score') return score;
  if (spec.field === '_doc') return doc;
  const mapper = shard.mapping.fields.get(spec.field);
  if (!mapper) throw illegalArgument(`No mapping found for [${spec.field}] in order to sort on`);
  if (mapper.type === 'text') {
    throw illegalArgument(
      `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${spec.field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
    );
  }
  if (mapper.type === 'keyword') {
    const ords = shard.ordinalColumn(spec.field);
    const field = shard.inverted.get(spec.field);
    if (!ords || !field) return undefined;
    const values = ords.all(doc).map((o) => field.terms[o]!);
    if (values.length === 0) return undefined;
    values.sort();
    return spec.order === 'asc' ? values[0] : values[values.length - 1];
  }
  const col = shard.numeric.get(spec.field);
  const values = col?.all(doc) ?? [];
  if (values.length === 0) return undefined;
  return spec.order === 'asc' ? Math.min(...values) : Math.max(...values);
}

function compareSort(a: unknown, b: unknown, spec: SortSpec): number {
  if (a === undefined || b === undefined) {
    if (a === b) return 0;
    const missingFirst = spec.missing === '_first';
    return (a === undefined) === missingFirst ? -1 : 1;
  }
  const c = typeof a === 'string' ? (a < (b as string) ? -1 : a > (b as string) ? 1 : 0) : (a as number) - (b as number);
  return spec.order === 'asc' ? c : -c;
}

export { formatDate };
