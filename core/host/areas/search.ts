/**
 * Host implementation of the search workbench's contract methods (see ../contract/search.ts).
 * Every call is plain HTTP to Elasticsearch's REST API at `rt.urlOf('search')`: the embedded
 * engine and a remote cluster differ only in that URL. Elasticsearch errors reach the UI with
 * their JSON as `detail`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { SearchExplanation, SearchFieldInfo, SearchIndexInfo, SearchMethods } from '../contract/search.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Elasticsearch responses are read field by field
type Json = Record<string, any>;

const noParams = z.object({}).strict() as unknown as z.ZodType<Record<string, never>>;
const indexName = z.string().min(1).max(255);
const jsonObject = z.record(z.string(), z.unknown());

async function es(rt: HostRuntime, method: string, p: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: Json }> {
  let res: Response;
  const base = rt.urlOf('search').replace(/\/+$/, '');
  try {
    res = await fetch(base + p, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': contentType, accept: 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  } catch (err) {
    throw new HostCallError(`The search service at ${base} could not be reached: ${(err as Error).message}`, undefined, 'unavailable');
  }
  const text = await res.text();
  let parsed: Json;
  try {
    parsed = text ? (JSON.parse(text) as Json) : {};
  } catch {
    throw new HostCallError(`The search service answered ${res.status} with a body that is not JSON`, text.slice(0, 500));
  }
  return { status: res.status, body: parsed };
}

/** Throws the Elasticsearch error (type: reason) with its JSON as detail. */
function orThrow(r: { status: number; body: Json }, allow: number[] = []): Json {
  if (r.status < 400 || allow.includes(r.status)) return r.body;
  const e = r.body.error;
  const message = typeof e === 'object' && e ? `${e.type}: ${e.reason}` : typeof e === 'string' ? e : `HTTP ${r.status}`;
  throw new HostCallError(message, r.body);
}

const enc = encodeURIComponent;

export function flattenFields(properties: Json | undefined, prefix = ''): SearchFieldInfo[] {
  const out: SearchFieldInfo[] = [];
  for (const [name, def] of Object.entries(properties ?? {}) as [string, Json][]) {
    const p = prefix ? `${prefix}.${name}` : name;
    if (def.properties) {
      out.push(...flattenFields(def.properties, p));
      continue;
    }
    out.push(fieldInfo(p, def));
    for (const [sub, subDef] of Object.entries((def.fields ?? {}) as Json) as [string, Json][]) out.push({ ...fieldInfo(`${p}.${sub}`, subDef), multiFieldOf: p });
  }
  return out;
}

function fieldInfo(p: string, def: Json): SearchFieldInfo {
  const info: SearchFieldInfo = { path: p, type: String(def.type ?? 'object') };
  if (def.type === 'text') {
    info.analyzer = def.analyzer ?? 'standard';
    info.searchAnalyzer = def.search_analyzer ?? info.analyzer;
  }
  if (def.similarity) info.similarity = def.similarity;
  return info;
}

function similarityOf(settings: Json): SearchIndexInfo['similarity'] {
  const sim = settings?.index?.similarity?.default;
  if (!sim) return { type: 'BM25', k1: 1.2, b: 0.75 };
  if (sim.type === 'BM25') return { type: 'BM25', k1: Number(sim.k1 ?? 1.2), b: Number(sim.b ?? 0.75) };
  return { type: String(sim.type) };
}

/** Descriptions of the nodes that explain why a document fails, outermost first. */
export function failuresOf(e: SearchExplanation | undefined): string[] {
  if (!e) return [];
  const out: string[] = [];
  const walk = (n: SearchExplanation) => {
    const d = n.description;
    if (d.startsWith('no match on required clause') || d.startsWith('failure to match filter') || d.startsWith('match on prohibited clause') || d.startsWith('Failure to match minimum number') || d === 'no matching term' || d.includes("doesn't match id")) out.push(d);
    for (const c of n.details ?? []) walk(c);
  };
  walk(e);
  return out;
}

function sampleFile(dataset: string): string {
  const candidates = [new URL(`../../../assets/samples/${dataset}.ndjson`, import.meta.url).pathname, path.join(process.cwd(), `assets/samples/${dataset}.ndjson`)];
  for (const c of candidates) {
    try {
      return readFileSync(c, 'utf8');
    } catch {
      // try the next location
    }
  }
  throw new HostCallError(`sample data set ${dataset} not found (looked in ${candidates.join(', ')})`);
}

const ACCESS_LOG_MAPPINGS = {
  properties: {
    '@timestamp': { type: 'date' },
    message: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
    http: {
      properties: {
        request: { properties: { method: { type: 'keyword' } } },
        response: { properties: { bytes: { type: 'long' }, status_code: { type: 'long' } } },
        version: { type: 'keyword' },
      },
    },
    source: { properties: { ip: { type: 'ip' } } },
    user: { properties: { id: { type: 'keyword' } } },
  },
};

async function listIndices(rt: HostRuntime): Promise<SearchIndexInfo[]> {
  const cat = orThrow(await es(rt, 'GET', '/_cat/indices?format=json')) as unknown as Json[];
  const out: SearchIndexInfo[] = [];
  for (const row of cat) {
    const name = String(row.index);
    const info = orThrow(await es(rt, 'GET', `/${enc(name)}`))[name] as Json;
    out.push({
      name,
      uuid: String(row.uuid ?? ''),
      health: String(row.health ?? ''),
      docs: Number(row['docs.count'] ?? 0),
      deletedDocs: Number(row['docs.deleted'] ?? 0),
      storeSize: String(row['store.size'] ?? ''),
      similarity: similarityOf(info?.settings),
      settings: info?.settings ?? {},
      mappings: info?.mappings ?? {},
      fields: flattenFields(info?.mappings?.properties),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export const searchArea: AreaMethods<keyof SearchMethods & string> = {
  'search.indices': {
    summary: 'List indexes with doc counts, similarity, settings, mappings and fields',
    params: noParams,
    handler: (_p, rt) => listIndices(rt),
  },
  'search.mapping': {
    summary: "Show one index's mapping as fields",
    params: z.object({ index: indexName }).strict(),
    async handler({ index }, rt) {
      const body = orThrow(await es(rt, 'GET', `/${enc(index)}/_mapping`));
      const mappings = (body[index]?.mappings ?? {}) as Json;
      return { index, mappings, fields: flattenFields(mappings.properties) };
    },
  },
  'search.query': {
    summary: 'Run an Elasticsearch search body against an index',
    params: z.object({ index: indexName, body: jsonObject, explain: z.boolean().optional() }).strict(),
    async handler({ index, body, explain }, rt) {
      return orThrow(await es(rt, 'POST', `/${enc(index)}/_search${explain ? '?explain=true' : ''}`, body));
    },
  },
  'search.explain': {
    summary: 'Explain the score of one document for a query',
    params: z.object({ index: indexName, id: z.string().min(1), query: jsonObject }).strict(),
    async handler({ index, id, query }, rt) {
      const r = await es(rt, 'POST', `/${enc(index)}/_explain/${enc(id)}`, { query });
      const body = orThrow(r, r.body.matched === false ? [404] : []);
      return { index, id, matched: body.matched === true, found: r.status !== 404, ...(body.explanation ? { explanation: body.explanation as SearchExplanation } : {}) };
    },
  },
  'search.whyNot': {
    summary: 'Explain why a document does not match a query',
    params: z.object({ index: indexName, id: z.string().min(1), query: jsonObject }).strict(),
    async handler({ index, id, query }, rt) {
      const r = await es(rt, 'POST', `/${enc(index)}/_explain/${enc(id)}`, { query });
      const body = orThrow(r, r.body.matched === false ? [404] : []);
      const explanation = body.explanation as SearchExplanation | undefined;
      const found = r.status !== 404;
      const failures = found ? failuresOf(explanation) : [`document [${id}] does not exist in index [${index}]`];
      return { index, id, found, matched: body.matched === true, ...(explanation ? { explanation } : {}), failures: body.matched === true ? [] : failures };
    },
  },
  'search.analyze': {
    summary: "Show the tokens a field's analyzer makes of a text",
    params: z.object({ text: z.string(), index: indexName.optional(), field: z.string().optional(), analyzer: z.string().optional() }).strict(),
    async handler({ text, index, field, analyzer }, rt) {
      const body: Json = { text };
      if (field) body.field = field;
      if (analyzer) body.analyzer = analyzer;
      const r = orThrow(await es(rt, 'POST', index ? `/${enc(index)}/_analyze` : '/_analyze', body));
      return { tokens: r.tokens ?? [] };
    },
  },
  'search.indexSample': {
    summary: 'Create an index from the bundled access-log sample',
    params: z.object({ dataset: z.literal('access-logs'), index: indexName.optional(), similarity: z.enum(['BM25', 'classic']).optional() }).strict(),
    async handler({ dataset, index, similarity }, rt) {
      const name = index ?? dataset;
      const lines = sampleFile(dataset).split('\n').filter((l) => l.trim() !== '');
      const settings: Json = { number_of_shards: 1 };
      if (similarity) settings['index.similarity.default.type'] = similarity;
      orThrow(await es(rt, 'PUT', `/${enc(name)}`, { settings, mappings: ACCESS_LOG_MAPPINGS }));
      const nd = lines.map((l) => `{"index":{}}\n${l}\n`).join('');
      const bulk = orThrow(await es(rt, 'POST', `/${enc(name)}/_bulk?refresh=true`, nd, 'application/x-ndjson'));
      const errors = ((bulk.items ?? []) as Json[]).filter((i) => Object.values(i)[0]?.error).length;
      rt.emit('search.indicesChanged', { indices: (await listIndices(rt)).map((i) => i.name) });
      return { index: name, indexed: lines.length - errors, errors };
    },
  },
  'search.createIndex': {
    summary: 'Create an index from an Elasticsearch create-index body',
    params: z.object({ index: indexName, body: jsonObject.optional() }).strict(),
    async handler({ index, body }, rt) {
      const r = orThrow(await es(rt, 'PUT', `/${enc(index)}`, body ?? {}));
      rt.emit('search.indicesChanged', { indices: (await listIndices(rt)).map((i) => i.name) });
      return { acknowledged: r.acknowledged === true, index: String(r.index ?? index) };
    },
  },
  'search.indexDocument': {
    summary: 'Index one document (refreshed)',
    params: z.object({ index: indexName, id: z.string().min(1).optional(), document: jsonObject }).strict(),
    async handler({ index, id, document }, rt) {
      const p = id === undefined ? `/${enc(index)}/_doc?refresh=true` : `/${enc(index)}/_doc/${enc(id)}?refresh=true`;
      return orThrow(await es(rt, id === undefined ? 'POST' : 'PUT', p, document));
    },
  },
  'search.getDocument': {
    summary: 'Read one stored document',
    params: z.object({ index: indexName, id: z.string().min(1) }).strict(),
    async handler({ index, id }, rt) {
      const r = await es(rt, 'GET', `/${enc(index)}/_doc/${enc(id)}`);
      const body = orThrow(r, r.body.found === false ? [404] : []);
      if (body.found !== true) return { found: false, id };
      return { found: true, id, version: Number(body._version), source: body._source as Record<string, unknown> };
    },
  },
  'search.deleteIndex': {
    summary: 'Delete an index',
    params: z.object({ index: indexName }).strict(),
    async handler({ index }, rt) {
      const r = orThrow(await es(rt, 'DELETE', `/${enc(index)}`));
      rt.emit('search.indicesChanged', { indices: (await listIndices(rt)).map((i) => i.name) });
      return { acknowledged: r.acknowledged === true };
    },
  },
};
