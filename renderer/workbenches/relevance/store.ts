/**
 * The Relevance workbench's state and actions: indexes, the request body and its history, the
 * last response, the selected hit and its explanation, why-not, compare, the BM25/classic switch
 * and data loading. Every host call goes through the bridge.
 */
import { create } from 'zustand';
import type { SearchBulkResult, SearchIndexInfo, SearchToken, SearchWhyNot } from '../../../core/host/contract.js';
import { bridge } from '../../bridge.js';
import { toShownError, type ShownError } from './lib/errors.js';
import { parseFailure, valueAt, type Ex, type Failure } from './lib/explain.js';
import type { DetailTab } from './lib/deep-link.js';
import { TEMPLATES } from './lib/query-schema.js';

export interface Hit {
  _id: string;
  _score: number | null;
  _source?: Record<string, unknown>;
  _explanation?: Ex;
  sort?: unknown[];
}

export interface SearchResult {
  took: number;
  total: { value: number; relation: string };
  maxScore: number | null;
  hits: Hit[];
  from: number;
  size: number;
}

export interface WhyNotFailure extends Failure {
  /** The document's own value of each field the clause names. */
  values: { field: string; expr: string; value: unknown }[];
  /** For text clauses: the query's tokens against the field's tokens (_analyze). */
  tokens?: { field: string; query: string[]; document: string[] }[];
}

export interface WhyNotView {
  id: string;
  result: SearchWhyNot;
  failures: WhyNotFailure[];
  source?: Record<string, unknown>;
}

export interface RankRow {
  id: string;
  bm25Rank?: number;
  classicRank?: number;
  bm25Score?: number;
  classicScore?: number;
  move: 'up' | 'down' | 'same' | 'new' | 'gone';
}

export interface LoadProgress {
  index: string;
  done: number;
  total: number;
  rejected: number;
  what: string;
  errors: SearchBulkResult['errors'];
  finished: boolean;
}

const HISTORY_KEY = 'loupe.relevance.history';
const EXPLAIN_INLINE_MAX = 50;

export const DEFAULT_BODY = JSON.stringify(TEMPLATES[3]!.body, null, 2);

function loadHistory(): string[] {
  try {
    const raw = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string').slice(0, 20) : [];
  } catch {
    return [];
  }
}

/** size/from of the body as typed (defaults when it does not parse). */
function pageOf(text: string): { size: number; from: number; query?: Record<string, unknown> } {
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    return { size: typeof b.size === 'number' ? b.size : 10, from: typeof b.from === 'number' ? b.from : 0, query: (b.query as Record<string, unknown>) ?? { match_all: {} } };
  } catch {
    return { size: 10, from: 0 };
  }
}

export interface RelevanceState {
  indices: SearchIndexInfo[] | null;
  indicesError: ShownError | null;
  index: string | null;
  bodyText: string;
  history: string[];
  running: boolean;
  result: SearchResult | null;
  queryError: ShownError | null;
  /** The query of the shown result (for explain, why-not, compare). */
  ranQuery: Record<string, unknown> | null;
  selectedId: string | null;
  explanation: { id: string; tree?: Ex; loading: boolean; error?: ShownError; source?: Record<string, unknown> } | null;
  columns: string[];
  tab: DetailTab;
  whyNotId: string;
  whyNot: { loading: boolean; view?: WhyNotView; error?: ShownError } | null;
  compareB: string | null;
  compareTrees: { a?: Ex; b?: Ex; loading: boolean; error?: ShownError } | null;
  similarity: { loading: boolean; rows?: RankRow[]; copy?: string; error?: ShownError; step?: string } | null;
  load: LoadProgress | null;
  loadError: ShownError | null;
  cancelLoad: boolean;
  busyIndex: boolean;

  refreshIndices(): Promise<void>;
  selectIndex(name: string | null): void;
  setBody(text: string): void;
  run(): Promise<void>;
  page(delta: number): Promise<void>;
  select(id: string | null): Promise<void>;
  setTab(tab: DetailTab): void;
  setColumns(cols: string[]): void;
  setWhyNotId(id: string): void;
  whyNotRun(id?: string): Promise<void>;
  setCompareB(id: string | null): void;
  compare(): Promise<void>;
  similaritySwitch(): Promise<void>;
  loadSamples(): Promise<void>;
  loadFile(file: File, index: string): Promise<void>;
  cancel(): void;
  deleteIndex(name: string): Promise<void>;
}

export const useRelevance = create<RelevanceState>()((set, get) => ({
  indices: null,
  indicesError: null,
  index: null,
  bodyText: DEFAULT_BODY,
  history: typeof localStorage === 'undefined' ? [] : loadHistory(),
  running: false,
  result: null,
  queryError: null,
  ranQuery: null,
  selectedId: null,
  explanation: null,
  columns: [],
  tab: 'explanation',
  whyNotId: '',
  whyNot: null,
  compareB: null,
  compareTrees: null,
  similarity: null,
  load: null,
  loadError: null,
  cancelLoad: false,
  busyIndex: false,

  async refreshIndices() {
    try {
      const indices = await bridge().invoke('search.indices', {});
      const cur = get().index;
      const index = cur && indices.some((i) => i.name === cur) ? cur : (indices.find((i) => i.name === 'access-logs') ?? indices[0])?.name ?? null;
      set({ indices, indicesError: null });
      if (index !== cur) get().selectIndex(index);
    } catch (err) {
      set({ indicesError: toShownError(err), indices: get().indices ?? null });
    }
  },

  selectIndex(name) {
    const info = get().indices?.find((i) => i.name === name);
    const columns = defaultColumns(info);
    set({ index: name, columns, result: null, queryError: null, selectedId: null, explanation: null, whyNot: null, compareTrees: null, similarity: null });
  },

  setBody(text) {
    set({ bodyText: text });
  },

  async run() {
    const { index, bodyText } = get();
    if (!index) return;
    const { size, from, query } = pageOf(bodyText);
    set({ running: true, queryError: null });
    try {
      const res = (await bridge().invoke('search.query', { index, text: bodyText, explain: size <= EXPLAIN_INLINE_MAX })) as Record<string, unknown>;
      const hitsBody = res.hits as { total?: { value: number; relation: string }; max_score: number | null; hits: Hit[] };
      const result: SearchResult = { took: Number(res.took ?? 0), total: hitsBody.total ?? { value: hitsBody.hits.length, relation: 'eq' }, maxScore: hitsBody.max_score, hits: hitsBody.hits, from, size };
      const history = [bodyText, ...get().history.filter((h) => h !== bodyText)].slice(0, 20);
      try {
        localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
      } catch {
        // private mode: history lives for this page only
      }
      const keep = get().selectedId;
      const selectedId = keep && result.hits.some((h) => h._id === keep) ? keep : (result.hits[0]?._id ?? null);
      set({ running: false, result, history, ranQuery: query ?? { match_all: {} }, compareTrees: null, similarity: null });
      await get().select(selectedId);
      if (get().tab === 'why-not' && get().whyNotId) void get().whyNotRun();
    } catch (err) {
      set({ running: false, queryError: toShownError(err), result: null, selectedId: null, explanation: null });
    }
  },

  async page(delta) {
    const r = get().result;
    if (!r) return;
    const from = Math.max(0, r.from + delta * (r.size || 10));
    try {
      const body = JSON.parse(get().bodyText) as Record<string, unknown>;
      body.from = from;
      set({ bodyText: JSON.stringify(body, null, 2) });
    } catch {
      return;
    }
    await get().run();
  },

  async select(id) {
    const { result, index, ranQuery } = get();
    if (!id || !index) {
      set({ selectedId: null, explanation: null });
      return;
    }
    const hit = result?.hits.find((h) => h._id === id);
    if (hit?._explanation) {
      set({ selectedId: id, explanation: { id, tree: hit._explanation, loading: false, source: hit._source } });
      return;
    }
    set({ selectedId: id, explanation: { id, loading: true, source: hit?._source } });
    try {
      const r = await bridge().invoke('search.explain', { index, id, query: ranQuery ?? { match_all: {} } });
      if (get().selectedId !== id) return;
      let source = hit?._source;
      if (!source) source = (await bridge().invoke('search.getDocument', { index, id })).source;
      set({ explanation: { id, tree: r.explanation, loading: false, source } });
    } catch (err) {
      if (get().selectedId === id) set({ explanation: { id, loading: false, error: toShownError(err) } });
    }
  },

  setTab(tab) {
    set({ tab });
    if (tab === 'compare' && !get().compareTrees) void get().compare();
  },

  setColumns(columns) {
    set({ columns });
  },

  setWhyNotId(whyNotId) {
    set({ whyNotId });
  },

  async whyNotRun(idArg) {
    const id = (idArg ?? get().whyNotId).trim();
    const { index } = get();
    if (!id || !index) return;
    const query = get().ranQuery ?? pageOf(get().bodyText).query ?? { match_all: {} };
    set({ whyNotId: id, whyNot: { loading: true }, tab: 'why-not' });
    try {
      const b = bridge();
      const result = await b.invoke('search.whyNot', { index, id, query });
      const doc = result.found ? await b.invoke('search.getDocument', { index, id }) : undefined;
      const info = get().indices?.find((i) => i.name === index);
      const failures: WhyNotFailure[] = [];
      const named = result.failures.filter((f) => !f.includes("doesn't match id") && f !== 'no matching term');
      // A query of one clause fails without naming it ("no matching term"): name it from the query.
      const described = named.length ? named.map(parseFailure) : result.matched || !result.found ? [] : [{ ...parseFailure(result.explanation?.description ?? 'no match'), clauses: clausesOf(query) }];
      for (const f of described) {
        const values = f.clauses.map((c) => ({ ...c, value: valueAt(doc?.source, c.field) }));
        const out: WhyNotFailure = { ...f, values };
        const textClauses = f.clauses.filter((c) => info?.fields.find((x) => x.path === c.field)?.type === 'text');
        if (textClauses.length) {
          out.tokens = [];
          for (const field of [...new Set(textClauses.map((c) => c.field))]) {
            const queryText = queryTextFor(query, field) ?? textClauses.filter((c) => c.field === field).map((c) => c.expr).join(' ');
            const docText = valueAt(doc?.source, field);
            const [q, d] = await Promise.all([
              b.invoke('search.analyze', { index, field, text: queryText }),
              b.invoke('search.analyze', { index, field, text: docText === undefined ? '' : Array.isArray(docText) ? docText.join(' ') : String(docText) }),
            ]);
            out.tokens.push({ field, query: tokens(q.tokens), document: tokens(d.tokens) });
          }
        }
        failures.push(out);
      }
      if (get().whyNotId === id) set({ whyNot: { loading: false, view: { id, result, failures, source: doc?.source } } });
    } catch (err) {
      set({ whyNot: { loading: false, error: toShownError(err) } });
    }
  },

  setCompareB(compareB) {
    set({ compareB, compareTrees: null });
    if (get().tab === 'compare') void get().compare();
  },

  async compare() {
    const { result, selectedId, index, ranQuery } = get();
    if (!result || !selectedId || !index) return;
    let bId = get().compareB;
    if (!bId || bId === selectedId || !result.hits.some((h) => h._id === bId)) {
      const at = result.hits.findIndex((h) => h._id === selectedId);
      bId = result.hits[at + 1]?._id ?? result.hits[at - 1]?._id ?? null;
    }
    if (!bId) {
      set({ tab: 'compare', compareB: null, compareTrees: { loading: false, error: { message: 'Only one hit', plain: 'Compare needs two hits: run a query that finds more than one document.' } } });
      return;
    }
    set({ tab: 'compare', compareB: bId, compareTrees: { loading: true } });
    const treeOf = async (id: string): Promise<Ex | undefined> => result.hits.find((h) => h._id === id)?._explanation ?? (await bridge().invoke('search.explain', { index, id, query: ranQuery ?? { match_all: {} } })).explanation;
    try {
      const [a, b] = await Promise.all([treeOf(selectedId), treeOf(bId)]);
      set({ compareTrees: { a, b, loading: false } });
    } catch (err) {
      set({ compareTrees: { loading: false, error: toShownError(err) } });
    }
  },

  async similaritySwitch() {
    const { index, bodyText, indices } = get();
    if (!index) return;
    const info = indices?.find((i) => i.name === index);
    const isClassic = info?.similarity.type === 'classic';
    const other = isClassic ? 'BM25' : 'classic';
    const copy = `${index.replace(/-(classic|bm25)$/, '')}-${other.toLowerCase()}`;
    set({ similarity: { loading: true, copy, step: `Copying ${index} to ${copy} with index.similarity.default.type: ${other}…` }, tab: 'similarity' });
    try {
      const b = bridge();
      const existing = indices?.find((i) => i.name === copy);
      if (!existing || existing.docs !== info?.docs || existing.similarity.type !== other) {
        await b.invoke('search.copyIndex', { source: index, target: copy, similarity: other, replace: true });
        await get().refreshIndices();
      }
      set({ similarity: { loading: true, copy, step: 'Running the query on both…' } });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(bodyText) as Record<string, unknown>;
      } catch {
        throw new Error('The request body is not valid JSON: fix it in the editor first.');
      }
      const size = Math.max(10, Number(body.size ?? 10));
      const req = { ...body, size, from: 0 };
      const [mine, theirs] = await Promise.all([b.invoke('search.query', { index, body: req }), b.invoke('search.query', { index: copy, body: req })]);
      const bm25 = ((isClassic ? theirs : mine).hits as { hits: Hit[] }).hits;
      const classic = ((isClassic ? mine : theirs).hits as { hits: Hit[] }).hits;
      set({ similarity: { loading: false, copy, rows: rankChanges(bm25, classic) } });
    } catch (err) {
      set({ similarity: { loading: false, copy, error: toShownError(err) } });
    }
  },

  async loadSamples() {
    set({ loadError: null, cancelLoad: false });
    const b = bridge();
    const off = b.subscribe('search.loadProgress', (p) => set({ load: { ...p, what: `Indexing ${p.index}`, errors: [], finished: false } }));
    try {
      const existing = new Set((get().indices ?? []).map((i) => i.name));
      for (const dataset of ['access-logs', 'mails'] as const) {
        if (existing.has(dataset)) await b.invoke('search.deleteIndex', { index: dataset });
        set({ load: { index: dataset, done: 0, total: 0, rejected: 0, what: `Indexing ${dataset}`, errors: [], finished: false } });
        await b.invoke('search.indexSample', { dataset });
      }
      set({ load: null });
      await get().refreshIndices();
      get().selectIndex('access-logs');
      await get().run();
    } catch (err) {
      set({ load: null, loadError: toShownError(err) });
    } finally {
      off();
    }
  },

  async loadFile(file, index) {
    set({ loadError: null, cancelLoad: false, load: { index, done: 0, total: 0, rejected: 0, what: `Reading ${file.name}`, errors: [], finished: false } });
    try {
      const text = await file.text();
      const docs = parseDocuments(text);
      const BATCH = 1000;
      let rejected = 0;
      const errors: SearchBulkResult['errors'] = [];
      for (let i = 0; i < docs.length; i += BATCH) {
        if (get().cancelLoad) break;
        const batch = docs.slice(i, i + BATCH);
        const r = await bridge().invoke('search.bulk', { index, documents: batch, refresh: i + BATCH >= docs.length });
        rejected += r.rejected;
        errors.push(...r.errors.map((e) => ({ ...e, position: e.position + i })).slice(0, Math.max(0, 20 - errors.length)));
        set({ load: { index, done: Math.min(i + BATCH, docs.length), total: docs.length, rejected, what: `Indexing ${file.name} into ${index}`, errors, finished: false } });
      }
      const cancelled = get().cancelLoad;
      set({ load: { ...get().load!, finished: true, what: cancelled ? `Cancelled: ${get().load!.done} of ${docs.length} documents of ${file.name} sent to ${index}` : `Loaded ${file.name} into ${index}` } });
      await get().refreshIndices();
      get().selectIndex(index);
    } catch (err) {
      set({ load: null, loadError: toShownError(err) });
    }
  },

  cancel() {
    set({ cancelLoad: true });
  },

  async deleteIndex(name) {
    set({ busyIndex: true });
    try {
      await bridge().invoke('search.deleteIndex', { index: name });
      if (get().index === name) set({ index: null });
      await get().refreshIndices();
    } catch (err) {
      set({ indicesError: toShownError(err) });
    } finally {
      set({ busyIndex: false });
    }
  },
}));

/** field → text or value of the query's leaf clauses (match, multi_match, term, prefix, range). */
function clausesOf(query: unknown): { field: string; expr: string }[] {
  const out: { field: string; expr: string }[] = [];
  const walk = (q: unknown) => {
    if (!q || typeof q !== 'object') return;
    if (Array.isArray(q)) return q.forEach(walk);
    for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
      if (['match', 'term', 'prefix', 'range'].includes(k) && v && typeof v === 'object') {
        for (const [field, spec] of Object.entries(v as Record<string, unknown>)) {
          if (field === 'boost' || field === '_name') continue;
          const text = spec && typeof spec === 'object' ? ((spec as Record<string, unknown>).query ?? (spec as Record<string, unknown>).value ?? JSON.stringify(spec)) : spec;
          out.push({ field, expr: String(text) });
        }
      } else if (k === 'multi_match' && v && typeof v === 'object') {
        const mm = v as Record<string, unknown>;
        for (const f of (Array.isArray(mm.fields) ? mm.fields : []) as string[]) out.push({ field: String(f).replace(/\^.*$/, ''), expr: String(mm.query) });
      } else walk(v);
    }
  };
  walk(query);
  return out;
}

function tokens(list: SearchToken[]): string[] {
  return list.map((t) => t.token);
}

/** The text a match/multi_match clause of the query searches `field` with. */
function queryTextFor(query: unknown, field: string): string | undefined {
  if (!query || typeof query !== 'object') return undefined;
  if (Array.isArray(query)) {
    for (const q of query) {
      const t = queryTextFor(q, field);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  const o = query as Record<string, unknown>;
  const m = o.match as Record<string, unknown> | undefined;
  if (m && field in m) {
    const spec = m[field];
    return typeof spec === 'object' && spec !== null ? String((spec as Record<string, unknown>).query) : String(spec);
  }
  const mm = o.multi_match as Record<string, unknown> | undefined;
  if (mm && Array.isArray(mm.fields) && mm.fields.some((f) => String(f).replace(/\^.*$/, '') === field)) return String(mm.query);
  for (const v of Object.values(o)) {
    const t = queryTextFor(v, field);
    if (t !== undefined) return t;
  }
  return undefined;
}

/** NDJSON (one document a line, bulk action lines skipped) or a JSON array / object. */
export function parseDocuments(text: string): Record<string, unknown>[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return (JSON.parse(trimmed) as unknown[]).filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d));
  const out: Record<string, unknown>[] = [];
  const lines = trimmed.split(/\r?\n/);
  if (lines.length === 1 || !lines.every((l) => l.trim() === '' || l.trim().startsWith('{'))) {
    try {
      const one = JSON.parse(trimmed) as unknown;
      if (one && typeof one === 'object' && !Array.isArray(one)) return [one as Record<string, unknown>];
    } catch {
      // fall through to lines
    }
  }
  let pendingId: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      out.push({ __unparsable__: line.slice(0, 200) });
      continue;
    }
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
      const keys = Object.keys(doc);
      // A _bulk action line ({"index":{"_id":"1"}}) gives the next document its id.
      if (keys.length === 1 && ['index', 'create'].includes(keys[0]!) && typeof (doc as Record<string, unknown>)[keys[0]!] === 'object') {
        const meta = (doc as Record<string, Record<string, unknown>>)[keys[0]!]!;
        pendingId = meta._id === undefined ? undefined : String(meta._id);
        continue;
      }
      out.push(pendingId === undefined ? (doc as Record<string, unknown>) : { _id: pendingId, ...(doc as Record<string, unknown>) });
      pendingId = undefined;
    }
  }
  return out;
}

export function rankChanges(bm25: Hit[], classic: Hit[]): RankRow[] {
  const cRank = new Map(classic.map((h, i) => [h._id, i + 1]));
  const bRank = new Map(bm25.map((h, i) => [h._id, i + 1]));
  const rows: RankRow[] = bm25.map((h, i) => {
    const c = cRank.get(h._id);
    const ch = c === undefined ? undefined : classic[c - 1];
    return {
      id: h._id,
      bm25Rank: i + 1,
      bm25Score: h._score ?? undefined,
      ...(c !== undefined ? { classicRank: c, classicScore: ch?._score ?? undefined } : {}),
      move: c === undefined ? 'gone' : c < i + 1 ? 'up' : c > i + 1 ? 'down' : 'same',
    };
  });
  classic.forEach((h, i) => {
    if (!bRank.has(h._id)) rows.push({ id: h._id, classicRank: i + 1, classicScore: h._score ?? undefined, move: 'new' });
  });
  return rows;
}

/** The first text-ish fields of the mapping, as the hits table's first columns. */
export function defaultColumns(info: SearchIndexInfo | undefined): string[] {
  if (!info) return [];
  const preferred = ['subject', 'message', 'from', 'http.response.bytes', 'http.response.status_code', 'date', '@timestamp', 'title', 'name'];
  const paths = info.fields.filter((f) => !f.multiFieldOf).map((f) => f.path);
  const picked = preferred.filter((p) => paths.includes(p)).slice(0, 3);
  for (const p of paths) if (picked.length < 3 && !picked.includes(p)) picked.push(p);
  return picked;
}
