/**
 * The search engine without HTTP: indexes by name, documents, refresh, search, explain,
 * analyze and stats. The REST layer (rest/) maps Elasticsearch's endpoints onto these calls;
 * benchmarks and the host use it in-process. With a `dataDir` every index survives a restart.
 */
import { randomBytes } from 'node:crypto';
import { parseTimeValue } from './index/time-value.js';
import { IndexShard, type IndexMeta, type WriteResult } from './index/shard.js';
import { nestSettings } from './index/settings.js';
import { IndexFiles, type Op } from './persistence.js';
import { parseKeepingText } from './raw-json.js';
import { EsError, alreadyExists, illegalArgument, indexNotFound, invalidIndexName } from './errors.js';
import { QueryParser } from './query/parse.js';
import { parsingAt } from './query/json-position.js';
import { executeSearch, type SearchTarget } from './query/search.js';
import { contextFor, createWeight } from './query/build.js';
import { FilterCache } from './query/filter-cache.js';
import { toJson } from './similarity/explanation.js';
import { getAnalyzer, type AnalyzedToken } from './analysis/analyzers.js';

type Json = Record<string, unknown>;

export interface SearchEngineOptions {
  /** Folder for index files; without it indexes live in memory only. */
  dataDir?: string;
  /** Clock for date math (`now`) and refresh intervals. */
  now?: () => number;
}

interface IndexEntry {
  shard: IndexShard;
  cache: FilterCache;
  files?: IndexFiles;
}

export type RefreshPolicy = 'false' | 'true' | 'wait_for';

export interface BulkItemResult {
  [action: string]: Json;
}

export class SearchEngine {
  private readonly indices = new Map<string, IndexEntry>();
  readonly nodeId = randomBytes(16).toString('base64url').slice(0, 22);
  private readonly now: () => number;

  constructor(readonly options: SearchEngineOptions = {}) {
    this.now = options.now ?? Date.now;
    if (options.dataDir) this.load(options.dataDir);
  }

  private load(dataDir: string): void {
    for (const files of IndexFiles.listIndexDirs(dataDir)) {
      const meta = files.readMeta();
      if (!meta) continue;
      const shard = new IndexShard(meta);
      for (const op of files.readOps()) {
        try {
          if (op.op === 'index') shard.index(op.id ?? undefined, JSON.parse(op.source), { json: op.source, version: op.version });
          else {
            shard.delete(op.id);
            // versions come from the log (older logs have none: the id then starts again at 1)
            shard.forgetTombstones();
          }
        } catch {
          // an operation that failed when first written was never logged; nothing to skip here
        }
      }
      shard.refresh();
      shard.mappingChanged = false;
      this.indices.set(meta.name, { shard, cache: this.cacheFor(meta), files });
    }
  }

  private cacheFor(meta: IndexMeta): FilterCache {
    return new FilterCache(meta.settings['index.queries.cache.everything'] === 'true');
  }

  // ---- indexes --------------------------------------------------------------------------

  createIndex(name: string, body: object = {}): { acknowledged: true; shards_acknowledged: true; index: string } {
    validateIndexName(name);
    const existing = this.indices.get(name);
    if (existing) throw alreadyExists(name, existing.shard.meta.uuid);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new EsError('parsing_exception', 'request body is required', 400, { line: 1, col: 1 });
    const meta = IndexShard.createMeta(name, body as Json, this.now());
    const shard = new IndexShard(meta);
    const files = this.options.dataDir ? IndexFiles.forIndex(this.options.dataDir, name) : undefined;
    files?.writeMeta(meta);
    this.indices.set(name, { shard, cache: this.cacheFor(meta), files });
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  deleteIndex(pattern: string): { acknowledged: true } {
    // Elasticsearch 8 defaults action.destructive_requires_name to true
    if (pattern === '_all' || pattern.includes('*')) throw illegalArgument('Wildcard expressions or all indices are not allowed');
    const names = this.resolve(pattern, { allowNoIndices: false });
    for (const n of names) {
      this.indices.get(n)!.files?.remove();
      this.indices.delete(n);
    }
    return { acknowledged: true };
  }

  exists(name: string): boolean {
    try {
      return this.resolve(name, { allowNoIndices: false }).length > 0;
    } catch {
      return false;
    }
  }

  listIndices(): string[] {
    return [...this.indices.keys()].sort();
  }

  /** Index names for a pattern: comma lists, `*` wildcards, `_all`, `-excluded`. */
  resolve(pattern: string, opts: { allowNoIndices?: boolean } = {}): string[] {
    const all = this.listIndices();
    if (pattern === '' || pattern === '_all' || pattern === '*') return all;
    const out = new Set<string>();
    for (const part of pattern.split(',')) {
      if (part.startsWith('-') && out.size > 0) {
        const re = wildcard(part.slice(1));
        for (const n of [...out]) if (re.test(n)) out.delete(n);
        continue;
      }
      if (part.includes('*')) {
        const re = wildcard(part);
        for (const n of all) if (re.test(n)) out.add(n);
      } else {
        if (!this.indices.has(part)) throw indexNotFound(part);
        out.add(part);
      }
    }
    if (out.size === 0 && opts.allowNoIndices === false) throw indexNotFound(pattern);
    return [...out];
  }

  private entry(name: string): IndexEntry {
    const e = this.indices.get(name);
    if (!e) throw indexNotFound(name);
    return e;
  }

  /** The shard of an index, for the host's read-only views. */
  shard(name: string): IndexShard {
    return this.entry(name).shard;
  }

  getIndex(pattern: string): Json {
    const out: Json = {};
    for (const n of this.resolve(pattern, { allowNoIndices: false })) {
      const s = this.entry(n).shard;
      this.persistMappingIfChanged(n);
      out[n] = { aliases: {}, mappings: s.mapping.toJson(), settings: nestSettings(s.meta.settings) };
    }
    return out;
  }

  getMapping(pattern: string): Json {
    const out: Json = {};
    for (const n of this.resolve(pattern, { allowNoIndices: false })) out[n] = { mappings: this.entry(n).shard.mapping.toJson() };
    return out;
  }

  putMapping(pattern: string, body: Json): { acknowledged: true } {
    for (const n of this.resolve(pattern, { allowNoIndices: false })) {
      const e = this.entry(n);
      e.shard.mapping.merge(body);
      for (const m of e.shard.mapping.fields.values()) e.shard.similarityOf(m);
      e.shard.mappingChanged = true;
      this.persistMappingIfChanged(n);
    }
    return { acknowledged: true };
  }

  // ---- documents ------------------------------------------------------------------------

  private ensureIndex(name: string): IndexEntry {
    const e = this.indices.get(name);
    if (e) return e;
    this.createIndex(name, {}); // Elasticsearch creates an index on first write
    return this.indices.get(name)!;
  }

  indexDoc(index: string, id: string | undefined, source: unknown, opts: { opType?: 'index' | 'create'; json?: string; refresh?: RefreshPolicy } = {}): Json {
    if (id === undefined && opts.opType === 'create') throw new EsError('action_request_validation_exception', 'Validation Failed: 1: an id must be provided if version type or value are set;', 400);
    const e = this.ensureIndex(index);
    const r = e.shard.index(id, source, { opType: opts.opType, json: opts.json });
    e.files?.append([{ op: 'index', id: id ?? null, source: opts.json ?? JSON.stringify(source), version: r._version }]);
    this.afterWrite(index, opts.refresh);
    return writeResponse(index, r, opts.refresh);
  }

  getDoc(index: string, id: string, params: URLSearchParams = new URLSearchParams()): { found: boolean; body: Json } {
    const e = this.entry(index);
    const d = e.shard.get(id);
    if (!d) return { found: false, body: { _index: index, _id: id, found: false } };
    const body: Json = { _index: index, _id: id, _version: d.version, _seq_no: d.seqNo, _primary_term: 1, found: true };
    const src = params.get('_source');
    if (src !== 'false') body._source = parseKeepingText(d.source);
    return { found: true, body };
  }

  deleteDoc(index: string, id: string, opts: { refresh?: RefreshPolicy } = {}): { found: boolean; body: Json } {
    const e = this.entry(index);
    const r = e.shard.delete(id);
    if (r.result === 'deleted') e.files?.append([{ op: 'delete', id }]);
    this.afterWrite(index, opts.refresh);
    return { found: r.result === 'deleted', body: writeResponse(index, r, opts.refresh) };
  }

  updateDoc(index: string, id: string, body: Json, opts: { refresh?: RefreshPolicy } = {}): Json {
    const e = this.entry(index);
    const r = e.shard.update(id, body);
    if (r.result !== 'noop') e.files?.append([{ op: 'index', id, source: e.shard.get(id)!.source, version: r._version }]);
    this.afterWrite(index, opts.refresh);
    return writeResponse(index, r, opts.refresh);
  }

  /** Bench and host interface: index many documents at once (no refresh). */
  bulkIndex(name: string, docs: Array<{ id?: string; source: object }>): void {
    const e = this.ensureIndex(name);
    const ops: Op[] = [];
    for (const d of docs) {
      const json = JSON.stringify(d.source);
      const r = e.shard.index(d.id, d.source, { json });
      if (e.files) ops.push({ op: 'index', id: d.id ?? null, source: json, version: r._version });
    }
    e.files?.append(ops);
    this.persistMappingIfChanged(name);
  }

  /** `_bulk`: NDJSON action/source pairs; per-item results, one failure never stops the rest. */
  bulk(defaultIndex: string | undefined, ndjson: string, refresh?: RefreshPolicy): Json {
    const started = performance.now();
    const lines = ndjson.split('\n');
    const items: BulkItemResult[] = [];
    let errors = false;
    const pendingOps = new Map<string, Op[]>();
    const touched = new Set<string>();
    let i = 0;
    const nextLine = (): string | undefined => {
      while (i < lines.length) {
        const l = lines[i++]!;
        if (l.trim() !== '') return l;
      }
      return undefined;
    };
    for (let line = nextLine(); line !== undefined; line = nextLine()) {
      let action: Json;
      try {
        action = JSON.parse(line) as Json;
      } catch (err) {
        throw new EsError('illegal_argument_exception', `Malformed action/metadata line [${i}], expected START_OBJECT but found [VALUE_STRING]: ${(err as Error).message}`, 400);
      }
      const keys = action && typeof action === 'object' ? Object.keys(action) : [];
      const type = keys[0];
      if (keys.length !== 1 || !type || !['index', 'create', 'update', 'delete'].includes(type)) {
        throw illegalArgument(`Malformed action/metadata line [${i}], expected field [create], [delete], [index] or [update] but found [${type ?? ''}]`);
      }
      const meta = (action[type] ?? {}) as Json;
      const index = (meta._index as string | undefined) ?? defaultIndex;
      const id = meta._id === undefined || meta._id === null ? undefined : String(meta._id);
      let sourceLine: string | undefined;
      if (type !== 'delete') {
        sourceLine = nextLine();
        if (sourceLine === undefined) throw illegalArgument(`The bulk request must be terminated by a newline [\\n]`);
      }
      if (!index) {
        items.push({ [type]: { _index: null, _id: id ?? null, status: 400, error: { type: 'action_request_validation_exception', reason: 'Validation Failed: 1: index is missing;' } } });
        errors = true;
        continue;
      }
      try {
        let r: WriteResult;
        let status = 200;
        if (type === 'delete') {
          if (id === undefined) throw new EsError('action_request_validation_exception', 'Validation Failed: 1: id is missing;', 400);
          const e = this.entry(index);
          r = e.shard.delete(id);
          if (r.result === 'deleted') queue(pendingOps, index, { op: 'delete', id });
          else status = 404;
        } else if (type === 'update') {
          if (id === undefined) throw new EsError('action_request_validation_exception', 'Validation Failed: 1: id is missing;', 400);
          const e = this.entry(index);
          const body = parseSourceLine(sourceLine!);
          r = e.shard.update(id, body);
          if (r.result !== 'noop') queue(pendingOps, index, { op: 'index', id, source: e.shard.get(id)!.source, version: r._version });
          if (r.result === 'created') status = 201;
        } else {
          if (type === 'create' && id === undefined) {
            // create without id gets an auto id, as Elasticsearch does
          }
          validateIndexName(index);
          const e = this.ensureIndex(index);
          const source = parseSourceLine(sourceLine!);
          const json = oneLineJson(sourceLine!);
          r = e.shard.index(id, source, { opType: type === 'create' ? 'create' : 'index', json });
          queue(pendingOps, index, { op: 'index', id: id ?? null, source: json, version: r._version });
          if (r.result === 'created') status = 201;
        }
        touched.add(index);
        items.push({ [type]: { _index: index, _id: r._id, _version: r._version, result: r.result, _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: r._seq_no, _primary_term: 1, status } });
      } catch (err) {
        if (!(err instanceof EsError)) throw err;
        errors = true;
        const error: Json = { type: err.type, reason: err.reason, ...err.extra };
        if (err.causedBy) error.caused_by = err.causedBy;
        if (err.type === 'index_not_found_exception' || err.type === 'mapper_parsing_exception' || err.type === 'version_conflict_engine_exception' || err.type === 'document_missing_exception') {
          error.index_uuid ??= this.indices.get(index)?.shard.meta.uuid ?? '_na_';
          error.shard ??= '0';
          error.index ??= index;
        }
        items.push({ [type]: { _index: index, _id: id ?? null, status: err.status, error } });
      }
    }
    for (const [index, ops] of pendingOps) this.indices.get(index)?.files?.append(ops);
    for (const index of touched) this.afterWrite(index, refresh);
    return { errors, took: Math.round(performance.now() - started), items };
  }

  private afterWrite(index: string, refresh?: RefreshPolicy): void {
    this.persistMappingIfChanged(index);
    if (refresh === 'true' || refresh === 'wait_for') this.refresh(index);
  }

  private persistMappingIfChanged(index: string): void {
    const e = this.indices.get(index);
    if (!e || !e.shard.mappingChanged) return;
    e.shard.meta.mappings = e.shard.mapping.toJson();
    e.shard.mappingChanged = false;
    e.files?.writeMeta(e.shard.meta);
  }

  refresh(pattern: string): { _shards: { total: number; successful: number; failed: number } } {
    const names = this.resolve(pattern);
    for (const n of names) this.entry(n).shard.refresh();
    return { _shards: { total: names.length * 2, successful: names.length, failed: 0 } };
  }

  /** Rewrites an index from its live documents: deleted ones stop counting in the statistics. */
  forceMerge(pattern: string): { _shards: { total: number; successful: number; failed: number } } {
    const names = this.resolve(pattern);
    for (const n of names) {
      const old = this.entry(n);
      const shard = new IndexShard(old.shard.meta);
      const ops: Op[] = [];
      for (let d = 0; d < old.shard.maxDoc; d++) {
        if (!old.shard.lookupDocIsLive(d)) continue;
        const id = old.shard.idOf(d);
        const source = old.shard.sourceOf(d);
        // a merge keeps each document's version, as Lucene's merge keeps Elasticsearch's _version doc values
        const version = old.shard.versionOf(d);
        shard.index(id, JSON.parse(source), { json: source, version });
        ops.push({ op: 'index', id, source, version });
      }
      shard.adoptTombstones(old.shard);
      shard.now = old.shard.now;
      shard.refresh();
      old.files?.rewriteOps(ops);
      this.indices.set(n, { shard, cache: this.cacheFor(shard.meta), files: old.files });
    }
    return { _shards: { total: names.length * 2, successful: names.length, failed: 0 } };
  }

  // ---- search ---------------------------------------------------------------------------

  /** Elasticsearch refreshes a shard whose writes are older than refresh_interval (1s) before searching it. */
  private autoRefresh(names: string[]): void {
    const now = Date.now();
    for (const n of names) {
      const s = this.entry(n).shard;
      const interval = parseTimeValue(s.meta.settings['index.refresh_interval'], 1000);
      if (interval >= 0 && s.pendingSince !== undefined && now - s.pendingSince >= interval) s.refresh();
    }
  }

  private targets(pattern: string): SearchTarget[] {
    const names = this.resolve(pattern);
    this.autoRefresh(names);
    return names.map((name) => {
      const e = this.entry(name);
      return { name, shard: e.shard, cache: e.cache };
    });
  }

  /** Runs a search; `body` is the Elasticsearch search body; returns the Elasticsearch response. */
  search(indexPattern: string, body: object = {}, params: URLSearchParams = new URLSearchParams(), rawBody?: string): Json {
    const req = new QueryParser(rawBody).searchRequest(body, params);
    return executeSearch(this.targets(indexPattern), req, { now: this.now(), nodeId: this.nodeId });
  }

  /** The exhaustive path (every match scored); tests compare it with the pruned top-k path. */
  searchExhaustive(indexPattern: string, body: object = {}): Json {
    const req = new QueryParser().searchRequest(body);
    return executeSearch(this.targets(indexPattern), req, { now: this.now(), nodeId: this.nodeId, exhaustive: true });
  }

  count(indexPattern: string, body: object = {}, params: URLSearchParams = new URLSearchParams(), rawBody?: string): Json {
    const b = body as Json;
    for (const k of Object.keys(b)) if (k !== 'query') throw parsingAt(rawBody, k, `request does not support [${k}]`);
    const req = new QueryParser(rawBody).searchRequest({ query: b.query, size: 0, track_total_hits: true }, params);
    const targets = this.targets(indexPattern);
    const res = executeSearch(targets, req, { now: this.now(), exhaustive: true });
    return { count: ((res.hits as Json).total as Json).value, _shards: { total: targets.length, successful: targets.length, skipped: 0, failed: 0 } };
  }

  /** `GET /{index}/_explain/{id}`: 404 with matched:false when the document does not exist. */
  explain(index: string, id: string, body: object = {}, rawBody?: string): { status: number; body: Json } {
    const e = this.entry(index);
    this.autoRefresh([index]);
    const b = body as Json;
    for (const k of Object.keys(b)) if (k !== 'query') throw parsingAt(rawBody, k, `request does not support [${k}]`);
    if (b.query === undefined) throw new EsError('action_request_validation_exception', 'Validation Failed: 1: query is missing;', 400);
    const req = new QueryParser(rawBody).searchRequest({ query: b.query });
    const doc = e.shard.lookup(id);
    if (doc === undefined || !e.shard.isSearchable(doc)) return { status: 404, body: { _index: index, _type: '_doc', _id: id, matched: false } };
    const weight = createWeight(contextFor(e.shard, this.now(), e.cache), req.query);
    const explanation = weight.explain(doc);
    return { status: 200, body: { _index: index, _type: '_doc', _id: id, matched: explanation.match, explanation: toJson(explanation) } };
  }

  /** `_analyze`: tokens of a text with an analyzer or a field's analyzer. */
  analyze(index: string | undefined, body: Json): { tokens: AnalyzedToken[] } {
    const text = body.text;
    if (text === undefined) throw new EsError('action_request_validation_exception', 'Validation Failed: 1: text is missing;', 400);
    let analyzerName = (body.analyzer as string | undefined) ?? 'standard';
    if (body.field !== undefined) {
      if (!index) throw illegalArgument('analyzer [field] requires an index');
      const m = this.entry(index).shard.mapping.fields.get(String(body.field));
      if (m) analyzerName = m.type === 'text' ? m.analyzer : 'keyword';
    }
    const analyzer = getAnalyzer(analyzerName);
    const texts = Array.isArray(text) ? text.map(String) : [String(text)];
    const tokens: AnalyzedToken[] = [];
    let offset = 0;
    let position = 0;
    for (const t of texts) {
      const ts = analyzer.tokens(t);
      for (const tok of ts) tokens.push({ ...tok, start_offset: tok.start_offset + offset, end_offset: tok.end_offset + offset, position: tok.position + position });
      offset += t.length + 1;
      position += ts.length + 100; // position_increment_gap between values
    }
    return { tokens };
  }

  // ---- stats ----------------------------------------------------------------------------

  /** Bench interface: live doc count and approximate bytes of the index structures. */
  stats(name: string): { docs: number; memoryBytes: number } {
    const s = this.entry(name).shard;
    return { docs: s.searchableDocCount, memoryBytes: s.memoryBytes() };
  }

  indexStats(pattern: string): Json {
    const indices: Json = {};
    const totals = { docs: { count: 0, deleted: 0 }, store: { size_in_bytes: 0 }, query_cache: { memory_size_in_bytes: 0, total_count: 0, hit_count: 0, miss_count: 0, cache_size: 0, cache_count: 0, evictions: 0 } };
    const names = this.resolve(pattern);
    for (const n of names) {
      const e = this.entry(n);
      const qc = e.cache.stats();
      const stats = { docs: { count: e.shard.searchableDocCount, deleted: e.shard.searchDeleted }, store: { size_in_bytes: e.shard.memoryBytes() }, query_cache: qc };
      indices[n] = { uuid: e.shard.meta.uuid, health: 'yellow', status: 'open', primaries: stats, total: stats };
      totals.docs.count += stats.docs.count;
      totals.docs.deleted += stats.docs.deleted;
      totals.store.size_in_bytes += stats.store.size_in_bytes;
      for (const k of Object.keys(qc) as (keyof typeof qc)[]) totals.query_cache[k] += qc[k];
    }
    return { _shards: { total: names.length * 2, successful: names.length, failed: 0 }, _all: { primaries: totals, total: totals }, indices };
  }

  catIndices(): Json[] {
    return this.listIndices().map((n) => {
      const s = this.entry(n).shard;
      const size = formatBytes(s.memoryBytes());
      return { health: 'yellow', status: 'open', index: n, uuid: s.meta.uuid, pri: s.meta.settings['index.number_of_shards'] ?? '1', rep: s.meta.settings['index.number_of_replicas'] ?? '1', 'docs.count': String(s.searchableDocCount), 'docs.deleted': String(s.searchDeleted), 'store.size': size, 'pri.store.size': size, 'dataset.size': size };
    });
  }

  clusterHealth(): Json {
    const n = this.indices.size;
    return {
      cluster_name: 'loupe',
      status: n === 0 ? 'green' : 'yellow',
      timed_out: false,
      number_of_nodes: 1,
      number_of_data_nodes: 1,
      active_primary_shards: n,
      active_shards: n,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: n,
      unassigned_primary_shards: 0,
      delayed_unassigned_shards: 0,
      number_of_pending_tasks: 0,
      number_of_in_flight_fetch: 0,
      task_max_waiting_in_queue_millis: 0,
      active_shards_percent_as_number: n === 0 ? 100.0 : 50.0,
    };
  }

  close(): void {
    for (const n of this.indices.keys()) this.persistMappingIfChanged(n);
  }
}

function queue(map: Map<string, Op[]>, index: string, op: Op): void {
  const list = map.get(index);
  if (list) list.push(op);
  else map.set(index, [op]);
}

function parseSourceLine(line: string): Json {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    throw new EsError('mapper_parsing_exception', 'failed to parse', 400, {}, { type: 'json_parse_exception', reason: (err as Error).message });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new EsError('mapper_parsing_exception', 'failed to parse', 400, {}, { type: 'not_x_content_exception', reason: 'Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes' });
  return v as Json;
}

function oneLineJson(line: string): string {
  return line.trim();
}

function writeResponse(index: string, r: WriteResult, refresh?: RefreshPolicy): Json {
  const body: Json = { _index: index, _id: r._id, _version: r._version, result: r.result, _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: r._seq_no, _primary_term: r._primary_term };
  if (refresh === 'true' && r.result !== 'noop') body.forced_refresh = true;
  if (r.result === 'noop') body._shards = { total: 0, successful: 0, failed: 0 };
  return body;
}

export function validateIndexName(name: string): void {
  if (name !== name.toLowerCase()) throw invalidIndexName(name, 'must be lowercase');
  if (/[\\/*?"<>| ,#:]/.test(name)) throw invalidIndexName(name, 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]');
  if (/^[-_+]/.test(name)) throw invalidIndexName(name, 'must not start with \'_\', \'-\', or \'+\'');
  if (name === '.' || name === '..') throw invalidIndexName(name, "must not be '.' or '..'");
  if (Buffer.byteLength(name) > 255) throw invalidIndexName(name, 'index name is too long, (' + Buffer.byteLength(name) + ' > 255)');
  if (name.length === 0) throw invalidIndexName(name, 'must not be empty');
}

function wildcard(p: string): RegExp {
  return new RegExp('^' + p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n}b`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}kb`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)}mb`;
  return `${(n / 1024 ** 3).toFixed(1)}gb`;
}
