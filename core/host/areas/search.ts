/**
 * Host implementation of the search workbench's contract methods (see ../contract/search.ts).
 * Every call is plain HTTP to Elasticsearch's REST API at `rt.urlOf('search')`: the embedded
 * engine and a remote cluster differ only in that URL. Elasticsearch errors reach the UI with
 * their JSON as `detail`.
 */
import { z } from 'zod';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { SearchBulkResult, SearchExplanation, SearchFieldInfo, SearchIndexInfo, SearchMethods } from '../contract/search.js';
import { enc, es, orThrow, target, type Json } from './search-http.js';
import { bulkBody, SAMPLE_MAPPINGS, sampleLines } from './search-samples.js';
import { readRemoteAuth, testConnection, viewOf, writeRemoteAuth } from './search-remote.js';

const noParams = z.object({}).strict() as unknown as z.ZodType<Record<string, never>>;
const indexName = z.string().min(1).max(255);
const jsonObject = z.record(z.string(), z.unknown());
const remoteAuth = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('basic'), username: z.string().min(1), password: z.string() }).strict(),
  z.object({ kind: z.literal('apiKey'), apiKey: z.string().min(1) }).strict(),
]);

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

/** Sends documents through `_bulk` and counts what Elasticsearch took and refused. */
async function bulkIndex(rt: HostRuntime, index: string, docs: Record<string, unknown>[], refresh: boolean, offset = 0): Promise<SearchBulkResult> {
  const res = orThrow(await es(rt, 'POST', `/${enc(index)}/_bulk${refresh ? '?refresh=true' : ''}`, bulkBody(docs), 'application/x-ndjson'));
  const errors: SearchBulkResult['errors'] = [];
  let rejected = 0;
  ((res.items ?? []) as Json[]).forEach((item, i) => {
    const r = Object.values(item)[0] as Json | undefined;
    if (!r?.error) return;
    rejected++;
    if (errors.length < 20) errors.push({ position: offset + i, ...(r._id ? { id: String(r._id) } : {}), type: String(r.error.type ?? 'error'), reason: String(r.error.reason ?? '') });
  });
  return { indexed: docs.length - rejected, rejected, errors };
}

async function emitIndices(rt: HostRuntime): Promise<void> {
  rt.emit('search.indicesChanged', { indices: (await listIndices(rt)).map((i) => i.name) });
}

/** Every document of an index, page by page (`_reindex` is the fast way where the server has it). */
async function* allDocuments(rt: HostRuntime, index: string): AsyncGenerator<Record<string, unknown>[]> {
  const PAGE = 1000;
  for (let from = 0; ; from += PAGE) {
    if (from + PAGE > 10000) throw new HostCallError(`index [${index}] has more than 10,000 documents: Loupe copies through from/size, which stops at 10,000 (index.max_result_window)`);
    const page = orThrow(await es(rt, 'POST', `/${enc(index)}/_search`, { query: { match_all: {} }, sort: ['_doc'], from, size: PAGE, track_total_hits: true }));
    const hits = (page.hits?.hits ?? []) as Json[];
    if (hits.length === 0) return;
    yield hits.map((h) => ({ _id: h._id, ...(h._source as Json) }));
    if (hits.length < PAGE) return;
  }
}

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
    params: z.object({ index: indexName, body: jsonObject.optional(), text: z.string().max(1_000_000).optional(), explain: z.boolean().optional() }).strict(),
    async handler({ index, body, text, explain }, rt) {
      return orThrow(await es(rt, 'POST', `/${enc(index)}/_search${explain ? '?explain=true' : ''}`, text ?? body ?? {}));
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
    summary: 'Create an index from a bundled sample (access logs, mails)',
    params: z.object({ dataset: z.enum(['access-logs', 'mails']), index: indexName.optional(), similarity: z.enum(['BM25', 'classic']).optional() }).strict(),
    async handler({ dataset, index, similarity }, rt) {
      const name = index ?? dataset;
      const docs = sampleLines(dataset).map((l) => JSON.parse(l) as Record<string, unknown>);
      const settings: Json = { number_of_shards: 1 };
      if (similarity) settings['index.similarity.default.type'] = similarity;
      orThrow(await es(rt, 'PUT', `/${enc(name)}`, { settings, mappings: SAMPLE_MAPPINGS[dataset] }));
      const BATCH = 500;
      let indexed = 0;
      let errors = 0;
      rt.emit('search.loadProgress', { index: name, done: 0, total: docs.length, rejected: 0 });
      for (let i = 0; i < docs.length; i += BATCH) {
        const r = await bulkIndex(rt, name, docs.slice(i, i + BATCH), i + BATCH >= docs.length, i);
        indexed += r.indexed;
        errors += r.rejected;
        rt.emit('search.loadProgress', { index: name, done: Math.min(i + BATCH, docs.length), total: docs.length, rejected: errors });
      }
      await emitIndices(rt);
      return { index: name, indexed, errors };
    },
  },
  'search.bulk': {
    summary: 'Index a batch of documents through _bulk',
    params: z.object({ index: indexName, documents: z.array(jsonObject).max(50_000), refresh: z.boolean().optional() }).strict(),
    async handler({ index, documents, refresh }, rt) {
      const r = await bulkIndex(rt, index, documents, refresh ?? false);
      if (refresh) await emitIndices(rt);
      return r;
    },
  },
  'search.copyIndex': {
    summary: 'Copy an index with another default similarity',
    params: z.object({ source: indexName, target: indexName, similarity: z.enum(['BM25', 'classic']), replace: z.boolean().optional() }).strict(),
    async handler({ source, target: name, similarity, replace }, rt) {
      if (source === name) throw new HostCallError('the copy needs a name of its own', undefined, 'bad_params', [{ path: 'target', message: 'must differ from source' }]);
      const src = orThrow(await es(rt, 'GET', `/${enc(source)}`))[source] as Json;
      if (replace) orThrow(await es(rt, 'DELETE', `/${enc(name)}`), [404]);
      orThrow(await es(rt, 'PUT', `/${enc(name)}`, { settings: { number_of_shards: 1, 'index.similarity.default.type': similarity }, mappings: src?.mappings ?? {} }));
      let copied = 0;
      const re = await es(rt, 'POST', '/_reindex?refresh=true', { source: { index: source }, dest: { index: name } });
      if (re.status < 400) copied = Number(re.body.created ?? 0) + Number(re.body.updated ?? 0);
      else {
        for await (const page of allDocuments(rt, source)) copied += (await bulkIndex(rt, name, page, false)).indexed;
        orThrow(await es(rt, 'POST', `/${enc(name)}/_refresh`));
      }
      await emitIndices(rt);
      return { index: name, copied };
    },
  },
  'search.remoteAuth': {
    summary: "Show the remote cluster's stored credentials (without secrets)",
    params: noParams,
    handler: (_p, rt) => viewOf(readRemoteAuth(rt.dataDir)),
  },
  'search.setRemoteAuth': {
    summary: "Store the remote cluster's credentials (0600)",
    params: remoteAuth,
    handler: (auth, rt) => writeRemoteAuth(rt.dataDir, auth),
  },
  'search.testConnection': {
    summary: 'Test the connection to the search server',
    params: z.object({ url: z.string().regex(/^https?:\/\/[^\s/]+/, 'must be an http:// or https:// URL').optional(), auth: remoteAuth.optional() }).strict(),
    async handler({ url, auth }, rt) {
      if (url) return testConnection(url, auth ?? readRemoteAuth(rt.dataDir));
      const t = target(rt);
      return testConnection(t.base, t.authorization === undefined ? { kind: 'none' } : readRemoteAuth(rt.dataDir));
    },
  },
  'search.createIndex': {
    summary: 'Create an index from an Elasticsearch create-index body',
    params: z.object({ index: indexName, body: jsonObject.optional() }).strict(),
    async handler({ index, body }, rt) {
      const r = orThrow(await es(rt, 'PUT', `/${enc(index)}`, body ?? {}));
      await emitIndices(rt);
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
      await emitIndices(rt);
      return { acknowledged: r.acknowledged === true };
    },
  },
};
