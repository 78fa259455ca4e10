/**
 * One index (one shard, one segment): documents, their postings, norms, doc values and stored
 * sources; updates and deletes; refresh; and the statistics the scores use.
 *
 * Lucene behaviour reproduced: an update is a delete plus a new document with a new, larger doc
 * id; a deleted document stops matching at the next refresh but keeps counting in docFreq,
 * docCount, sumTotalTermFreq and maxDoc until the segment is merged — so scores after updates
 * are the ones Elasticsearch prints before a merge. Loupe merges only on `_forcemerge`, which
 * rewrites the index from its live documents (new doc ids, statistics without the deleted ones).
 */
import { randomBytes } from 'node:crypto';
import { Mapping, type FieldMapper } from '../mapping/mapping.js';
import { getAnalyzer } from '../analysis/analyzers.js';
import { bm25Norm } from '../similarity/bm25.js';
import { classicNorm } from '../similarity/classic.js';
import { ipv4ToNumber } from '../mapping/ip.js';
import { EsError, illegalArgument, mapperParsing } from '../errors.js';
import { InvertedField } from './inverted-field.js';
import { NumericColumn, OrdinalColumn } from './columns.js';
import { DocStore } from './doc-store.js';
import { IdTable } from './id-table.js';
import { resolveSimilarity, similarityFromSettings, type SimilarityConfig } from './similarity-config.js';
import { flattenSettings, normaliseSettings } from './settings.js';
import { parseTimeValue } from './time-value.js';

const LIVE = 1;
const AUTO_ID = 2;

export interface IndexMeta {
  name: string;
  uuid: string;
  settings: Record<string, string>;
  mappings: Record<string, unknown>;
  creationDate: number;
  autoIdPrefix: string;
}

export interface WriteResult {
  _id: string;
  _version: number;
  result: 'created' | 'updated' | 'deleted' | 'not_found' | 'noop';
  _seq_no: number;
  _primary_term: number;
}

export interface StoredDoc {
  doc: number;
  id: string;
  version: number;
  seqNo: number;
  source: string;
}

export class IndexShard {
  readonly mapping: Mapping;
  readonly similarities = new Map<string, SimilarityConfig>();
  readonly inverted = new Map<string, InvertedField>();
  readonly numeric = new Map<string, NumericColumn>();
  /** Keyword doc values (term ordinals per doc), built from the postings on first sort after a refresh. */
  private readonly ordinalCache = new Map<string, { generation: number; column: OrdinalColumn }>();
  readonly store = new DocStore();

  private flags = new Uint8Array(1024);
  /** Per doc: its version, and its seqNo less its doc number (0 throughout a plain bulk load), packed. */
  private readonly versions = new NumericColumn();
  private readonly seqNoGaps = new NumericColumn();
  private readonly ids = new IdTable();
  private nextSeqNo = 0;

  /** Search-time view: docs below `searchMaxDoc` whose byte in `searchLive` is set. */
  searchMaxDoc = 0;
  searchLive = new Uint8Array(0);
  searchDeleted = 0;
  /** Bumped on every refresh that changed something; caches key on it. */
  generation = 0;
  private dirtySinceRefresh = false;
  mappingChanged = false;
  /** Docs indexed or deleted since the last refresh (for refresh_interval). */
  pendingSince: number | undefined;
  /**
   * Versions of recently deleted ids, as Elasticsearch's version map keeps them (delete
   * tombstones): an id indexed or deleted again within `index.gc_deletes` (60 s) counts on from
   * its last version; after that, or after a restart (they live in memory only, as in
   * Elasticsearch), it starts again at 1.
   */
  private readonly tombstones = new Map<string, { version: number; at: number }>();
  /** The clock tombstones age by (tests move it). */
  now: () => number = Date.now;

  constructor(readonly meta: IndexMeta) {
    this.mapping = Mapping.fromBody(meta.mappings);
    for (const [k, v] of Object.entries(meta.settings)) {
      const m = /^index\.similarity\.([^.]+)\.type$/.exec(k);
      if (!m) continue;
      const name = m[1]!;
      const def: Record<string, unknown> = { type: v };
      for (const p of ['k1', 'b']) if (meta.settings[`index.similarity.${name}.${p}`] !== undefined) def[p] = meta.settings[`index.similarity.${name}.${p}`];
      this.similarities.set(name, similarityFromSettings(def, name));
    }
    for (const mapper of this.mapping.fields.values()) this.similarityOf(mapper); // validates names
  }

  /** Builds the metadata of a new index from a create-index body. */
  static createMeta(name: string, body: Record<string, unknown>, now: number): IndexMeta {
    for (const key of Object.keys(body)) {
      if (!['settings', 'mappings', 'aliases'].includes(key)) throw new EsError('parsing_exception', `unknown key [${key}] for create index`, 400, { line: 1, col: 1 });
    }
    const settings = normaliseSettings(flattenSettings(body.settings));
    const shards = Number(settings['index.number_of_shards'] ?? '1');
    if (!Number.isInteger(shards) || shards < 1 || shards > 1024) {
      throw illegalArgument(`Failed to parse value [${settings['index.number_of_shards']}] for setting [index.number_of_shards] must be >= 1`);
    }
    settings['index.number_of_shards'] ??= '1';
    settings['index.number_of_replicas'] ??= '1';
    const uuid = randomBytes(16).toString('base64url').slice(0, 22);
    settings['index.uuid'] = uuid;
    settings['index.provided_name'] = name;
    settings['index.creation_date'] = String(now);
    settings['index.version.created'] = '8512000';
    const mapping = Mapping.fromBody(body.mappings);
    return { name, uuid, settings, mappings: mapping.toJson(), creationDate: now, autoIdPrefix: randomBytes(9).toString('base64url') };
  }

  similarityOf(mapper: FieldMapper): SimilarityConfig {
    return resolveSimilarity(mapper.similarity, this.similarities);
  }

  get defaultSimilarity(): SimilarityConfig {
    return resolveSimilarity(undefined, this.similarities);
  }

  get maxDoc(): number {
    return this.store.count;
  }

  // ---- ids ------------------------------------------------------------------------------

  private autoId(doc: number): string {
    return this.meta.autoIdPrefix + doc.toString(36).padStart(8, '0');
  }

  idOf(doc: number): string {
    return (this.flags[doc]! & AUTO_ID) !== 0 ? this.autoId(doc) : this.ids.idOf(doc)!;
  }

  /** The current (live, realtime) doc number of an id. */
  lookup(id: string): number | undefined {
    const explicit = this.ids.get(id);
    if (explicit !== undefined) return (this.flags[explicit]! & LIVE) !== 0 ? explicit : undefined;
    const prefix = this.meta.autoIdPrefix;
    if (id.length === prefix.length + 8 && id.startsWith(prefix)) {
      const doc = parseInt(id.slice(prefix.length), 36);
      if (Number.isInteger(doc) && doc < this.maxDoc && (this.flags[doc]! & (LIVE | AUTO_ID)) === (LIVE | AUTO_ID)) return doc;
    }
    return undefined;
  }

  /** Whether a doc number is the live version of its document right now (realtime). */
  lookupDocIsLive(doc: number): boolean {
    return doc < this.maxDoc && (this.flags[doc]! & LIVE) !== 0;
  }

  isSearchable(doc: number): boolean {
    return doc < this.searchMaxDoc && this.searchLive[doc] === 1;
  }

  // ---- writes ---------------------------------------------------------------------------

  /**
   * Indexes a document; `opType: 'create'` fails when the id exists. `json` is the source text
   * if already known; `version` restores a logged version (replay, force merge).
   */
  index(id: string | undefined, source: unknown, opts: { opType?: 'index' | 'create'; json?: string; version?: number } = {}): WriteResult {
    if (id !== undefined) validateId(id);
    const existing = id === undefined ? undefined : this.lookup(id);
    if (existing !== undefined && opts.opType === 'create') {
      throw new EsError('version_conflict_engine_exception', `[${id}]: version conflict, document already exists (current version [${this.versions.get(existing)}])`, 409, {
        index_uuid: this.meta.uuid,
        shard: '0',
        index: this.meta.name,
      });
    }
    const doc = this.maxDoc;
    const docId = id ?? this.autoId(doc);
    const { values, changed } = this.mapping.parseDocument(source, docId);
    if (changed) this.mappingChanged = true;
    const json = opts.json ?? JSON.stringify(source);
    this.ensureCapacity(doc + 1);
    this.store.add(json);
    this.indexValues(doc, values);
    let version = opts.version;
    if (version === undefined) {
      const deleted = existing === undefined && id !== undefined ? this.tombstoneVersion(id) : undefined;
      version = existing !== undefined ? this.versions.get(existing) + 1 : deleted !== undefined ? deleted + 1 : 1;
    }
    if (id !== undefined && this.tombstones.size > 0) this.tombstones.delete(id);
    if (existing !== undefined) this.flags[existing] = this.flags[existing]! & ~LIVE;
    this.flags[doc] = LIVE | (id === undefined ? AUTO_ID : 0);
    if (id !== undefined) this.ids.set(id, doc);
    this.versions.add(doc, version);
    const seqNo = this.nextSeqNo++;
    this.seqNoGaps.add(doc, seqNo - doc);
    this.markDirty();
    return { _id: docId, _version: version, result: existing === undefined ? 'created' : 'updated', _seq_no: seqNo, _primary_term: 1 };
  }

  /** Deletes a document; a delete of a missing id still takes a version (and leaves a tombstone), as in Elasticsearch. */
  delete(id: string): WriteResult {
    const doc = this.lookup(id);
    const seqNo = this.nextSeqNo++;
    const previous = doc !== undefined ? this.versions.get(doc) : this.tombstoneVersion(id);
    const version = previous === undefined ? 1 : previous + 1;
    this.tombstones.set(id, { version, at: this.now() });
    if (doc === undefined) return { _id: id, _version: version, result: 'not_found', _seq_no: seqNo, _primary_term: 1 };
    this.flags[doc] = this.flags[doc]! & ~LIVE;
    this.markDirty();
    return { _id: id, _version: version, result: 'deleted', _seq_no: seqNo, _primary_term: 1 };
  }

  /** The version of a deleted id while its tombstone lives (index.gc_deletes). */
  private tombstoneVersion(id: string): number | undefined {
    const t = this.tombstones.get(id);
    if (!t) return undefined;
    if (this.now() - t.at > this.gcDeletesMs) {
      this.tombstones.delete(id);
      return undefined;
    }
    return t.version;
  }

  private get gcDeletesMs(): number {
    return parseTimeValue(this.meta.settings['index.gc_deletes'], 60_000);
  }

  /** Drops every tombstone: a restarted Elasticsearch node has none. */
  forgetTombstones(): void {
    this.tombstones.clear();
  }

  /** Takes over another shard's tombstones (a force merge rewrites documents, not the version map). */
  adoptTombstones(from: IndexShard): void {
    for (const [id, t] of from.tombstones) this.tombstones.set(id, t);
  }

  /** Partial update (`doc`, `doc_as_upsert`, `upsert`), as the _update API and bulk `update` do. */
  update(id: string, body: Record<string, unknown>): WriteResult {
    if (body.script !== undefined) throw illegalArgument('scripted updates are not supported by the Loupe search engine');
    const partial = body.doc as Record<string, unknown> | undefined;
    const current = this.get(id);
    if (!current) {
      const upsert = (body.doc_as_upsert === true ? partial : body.upsert) as Record<string, unknown> | undefined;
      if (!upsert) {
        throw new EsError('document_missing_exception', `[${id}]: document missing`, 404, { index_uuid: this.meta.uuid, shard: '0', index: this.meta.name });
      }
      return this.index(id, upsert);
    }
    if (!partial || typeof partial !== 'object') throw new EsError('action_request_validation_exception', 'Validation Failed: 1: script or doc is missing;', 400);
    const merged = deepMerge(JSON.parse(current.source) as Record<string, unknown>, partial);
    if (JSON.stringify(merged) === current.source && body.detect_noop !== false) {
      return { _id: id, _version: current.version, result: 'noop', _seq_no: current.seqNo, _primary_term: 1 };
    }
    return this.index(id, merged);
  }

  /** Realtime get (sees writes that are not yet refreshed, as Elasticsearch's GET does). */
  get(id: string): StoredDoc | undefined {
    const doc = this.lookup(id);
    if (doc === undefined) return undefined;
    return { doc, id, version: this.versions.get(doc), seqNo: this.seqNoOf(doc), source: this.store.get(doc) };
  }

  sourceOf(doc: number): string {
    return this.store.get(doc);
  }

  versionOf(doc: number): number {
    return this.versions.get(doc);
  }

  seqNoOf(doc: number): number {
    return doc + this.seqNoGaps.get(doc);
  }

  private markDirty(): void {
    this.dirtySinceRefresh = true;
    this.pendingSince ??= Date.now();
  }

  get needsRefresh(): boolean {
    return this.dirtySinceRefresh;
  }

  private ensureCapacity(n: number): void {
    if (n <= this.flags.length) return;
    const size = Math.max(n, this.flags.length * 2);
    const flags = new Uint8Array(size);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** Inverted fields the current document added tokens to (each field counts its own). */
  private readonly touched: InvertedField[] = [];

  private indexValues(doc: number, values: unknown[]): void {
    // values of one field are inverted as one field (Lucene concatenates all values of a field)
    const touched = this.touched;
    touched.length = 0;
    for (let v = 0; v < values.length; v += 2) {
      const mapper = values[v] as FieldMapper;
      const value = values[v + 1];
      if (!mapper.index && mapper.type !== 'keyword') {
        if (mapper.type !== 'text') this.addColumnValue(mapper, doc, value);
        continue;
      }
      switch (mapper.type) {
        case 'text': {
          const field = this.invertedFor(mapper);
          if (field.startDoc(doc)) touched.push(field);
          field.addText(doc, value as string, getAnalyzer(mapper.analyzer));
          break;
        }
        case 'keyword': {
          const s = value as string;
          if (mapper.ignoreAbove !== undefined && s.length > mapper.ignoreAbove) break;
          const field = this.invertedFor(mapper);
          if (field.startDoc(doc)) touched.push(field);
          field.addTerm(doc, s);
          break;
        }
        case 'ip': {
          // IPv4 as a number (Lucene indexes addresses as points, not terms); IPv6 as terms
          const n = ipv4ToNumber(value as string);
          if (n !== undefined) this.column(mapper.path).add(doc, n);
          else {
            const field = this.invertedFor(mapper);
            if (field.startDoc(doc)) touched.push(field);
            field.addTerm(doc, value as string);
          }
          break;
        }
        default:
          this.addColumnValue(mapper, doc, value);
      }
    }
    for (let i = 0; i < touched.length; i++) {
      const field = touched[i]!;
      const numTerms = field.docTokens;
      // text fields carry a length norm (classic or BM25, by the field's similarity); others 1
      field.finishDoc(doc, numTerms, !field.hasNorms ? 1 : field.higherNormScoresMore ? classicNorm(numTerms) : bm25Norm(numTerms));
    }
  }

  private addColumnValue(mapper: FieldMapper, doc: number, value: unknown): void {
    if (typeof value === 'number') this.column(mapper.path).add(doc, value);
  }

  private column(path: string): NumericColumn {
    let c = this.numeric.get(path);
    if (!c) this.numeric.set(path, (c = new NumericColumn()));
    return c;
  }

  /** Term ordinals per searchable doc of a keyword field (for sorting), built once per refresh. */
  ordinalColumn(path: string): OrdinalColumn | undefined {
    const f = this.inverted.get(path);
    if (!f) return undefined;
    const cached = this.ordinalCache.get(path);
    if (cached && cached.generation === this.generation) return cached.column;
    const column = new OrdinalColumn();
    for (let t = 0; t < f.searchableTerms; t++) {
      const docs = f.termDocs(t);
      for (let i = 0; i < docs.length; i++) column.add(docs[i]!, t);
    }
    this.ordinalCache.set(path, { generation: this.generation, column });
    return column;
  }

  invertedFor(mapper: FieldMapper): InvertedField {
    let f = this.inverted.get(mapper.path);
    if (!f) {
      const hasNorms = mapper.type === 'text';
      const sim = this.similarityOf(mapper);
      f = new InvertedField(hasNorms, sim.kind === 'classic', sim.kind === 'BM25' ? { k1: sim.k1, b: sim.b } : undefined);
      this.inverted.set(mapper.path, f);
    }
    return f;
  }

  // ---- refresh --------------------------------------------------------------------------

  /** Makes every write so far visible to searches. Returns whether anything changed. */
  refresh(): boolean {
    // expired tombstones go on refresh, as Elasticsearch prunes its version map
    if (this.tombstones.size > 0) {
      const gone = this.now() - this.gcDeletesMs;
      for (const [id, t] of this.tombstones) if (t.at < gone) this.tombstones.delete(id);
    }
    if (!this.dirtySinceRefresh) return false;
    for (const f of this.inverted.values()) f.refresh();
    const n = this.maxDoc;
    const live = new Uint8Array(n);
    let deleted = 0;
    for (let d = 0; d < n; d++) {
      if ((this.flags[d]! & LIVE) !== 0) live[d] = 1;
      else deleted++;
    }
    this.searchLive = live;
    this.searchMaxDoc = n;
    this.searchDeleted = deleted;
    this.generation++;
    this.dirtySinceRefresh = false;
    this.pendingSince = undefined;
    return true;
  }

  /** Live documents right now (realtime), in doc id order — what a merge keeps. */
  *liveDocs(): Iterable<{ id: string | undefined; source: string; version: number }> {
    for (let d = 0; d < this.maxDoc; d++) {
      if ((this.flags[d]! & LIVE) === 0) continue;
      yield { id: (this.flags[d]! & AUTO_ID) !== 0 ? undefined : this.ids.idOf(d), source: this.store.get(d), version: this.versions.get(d) };
    }
  }

  /** Count of live docs as of the last refresh (what `docs.count` shows). */
  get searchableDocCount(): number {
    return this.searchMaxDoc - this.searchDeleted;
  }

  memoryBytes(): number {
    let bytes = this.flags.byteLength + this.versions.memoryBytes() + this.seqNoGaps.memoryBytes() + this.searchLive.byteLength + this.store.memoryBytes();
    for (const f of this.inverted.values()) bytes += f.memoryBytes();
    for (const c of this.numeric.values()) bytes += c.memoryBytes();
    for (const c of this.ordinalCache.values()) bytes += c.column.memoryBytes();
    bytes += this.ids.memoryBytes() + this.tombstones.size * 120;
    return bytes;
  }
}

function validateId(id: string): void {
  if (id.length === 0) throw new EsError('action_request_validation_exception', 'Validation Failed: 1: if _id is specified it must not be empty;', 400);
  if (Buffer.byteLength(id) > 512) throw new EsError('action_request_validation_exception', `Validation Failed: 1: id [${id}] is too long, must be no longer than 512 bytes but was: ${Buffer.byteLength(id)};`, 400);
}

function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(patch)) {
    const cur = target[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)) deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>);
    else target[k] = v;
  }
  return target;
}

export { mapperParsing };
