import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { startSearchService, type SearchServiceApi } from '../../search/service.js';
import type { HostRuntime } from '../area.js';
import { searchArea } from './search.js';

// The relevance workbench's calls against the real embedded search service over HTTP.
let handle: ServiceHandle<SearchServiceApi>;
let dir: string;
const events: Array<[string, unknown]> = [];
let rt: HostRuntime;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loupe-search-area-'));
  handle = await startSearchService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} });
  rt = {
    handle: <Api>() => handle as unknown as ServiceHandle<Api>,
    urlOf: () => handle.url,
    emit: (e, p) => void events.push([e, p]),
    dataDir: dir,
    log: silentLogger,
  };
});
afterAll(async () => {
  await handle?.close();
  rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are checked as JSON
type Json = any;
const call = <M extends keyof typeof searchArea>(m: M, p: unknown) => (searchArea[m].handler as (p: unknown, rt: HostRuntime) => Promise<Json>)(searchArea[m].params.parse(p), rt);

describe('the relevance workbench calls', () => {
  it('indexes the access-log sample and lists it with fields and similarity', async () => {
    const r = await call('search.indexSample', { dataset: 'access-logs', index: 'weblogs' });
    expect(r).toEqual({ index: 'weblogs', indexed: 300, errors: 0 });
    const list = await call('search.indices', {});
    const idx = list.find((i: Json) => i.name === 'weblogs');
    expect(idx.docs).toBe(300);
    expect(idx.similarity).toEqual({ type: 'BM25', k1: 1.2, b: 0.75 });
    expect(idx.fields).toContainEqual({ path: 'message', type: 'text', analyzer: 'standard', searchAnalyzer: 'standard' });
    expect(idx.fields).toContainEqual({ path: 'message.keyword', type: 'keyword', multiFieldOf: 'message' });
    expect(events.at(-1)).toEqual(['search.indicesChanged', { indices: ['weblogs'] }]);
  });

  it('runs a query, explains a hit and says why another document does not match', async () => {
    const query = { bool: { must: [{ match: { message: 'login failed' } }], filter: [{ range: { 'http.response.bytes': { gte: 1000 } } }] } };
    const res = await call('search.query', { index: 'weblogs', body: { query: { match: { message: 'login failed' } } } });
    const top = res.hits.hits[0];
    const ex = await call('search.explain', { index: 'weblogs', id: top._id, query: { match: { message: 'login failed' } } });
    expect(ex.matched).toBe(true);
    expect(ex.explanation.value).toBe(top._score);
    const why = await call('search.whyNot', { index: 'weblogs', id: top._id, query });
    expect(why.matched).toBe(false);
    expect(why.failures).toEqual(['failure to match filter: http.response.bytes:[1000 TO *]', expect.stringContaining("doesn't match id")]);
    const missing = await call('search.whyNot', { index: 'weblogs', id: 'nope', query });
    expect(missing).toMatchObject({ found: false, matched: false, failures: ['document [nope] does not exist in index [weblogs]'] });
  });

  it('analyzes text with a field analyzer and reports Elasticsearch errors with their JSON', async () => {
    const a = await call('search.analyze', { index: 'weblogs', field: 'message', text: 'GET /Login FAILED' });
    expect(a.tokens.map((t: Json) => t.token)).toEqual(['get', 'login', 'failed']);
    await expect(call('search.query', { index: 'missing', body: {} })).rejects.toMatchObject({ message: 'index_not_found_exception: no such index [missing]', detail: { status: 404 } });
    expect(await call('search.createIndex', { index: 'notes', body: { settings: { 'index.similarity.default.type': 'classic' } } })).toEqual({ acknowledged: true, index: 'notes' });
    expect(await call('search.indexDocument', { index: 'notes', id: 'n1', document: { text: 'Hello world' } })).toMatchObject({ _id: 'n1', result: 'created' });
    expect(await call('search.getDocument', { index: 'notes', id: 'n1' })).toEqual({ found: true, id: 'n1', version: 1, source: { text: 'Hello world' } });
    expect(await call('search.getDocument', { index: 'notes', id: 'zz' })).toEqual({ found: false, id: 'zz' });
    expect((await call('search.indices', {})).find((i: Json) => i.name === 'notes').similarity).toEqual({ type: 'classic' });
    await expect(call('search.createIndex', { index: 'notes' })).rejects.toMatchObject({ detail: { error: { type: 'resource_already_exists_exception' } } });
    expect(await call('search.deleteIndex', { index: 'notes' })).toEqual({ acknowledged: true });
    expect(await call('search.deleteIndex', { index: 'weblogs' })).toEqual({ acknowledged: true });
    expect(await call('search.indices', {})).toEqual([]);
  });
});
