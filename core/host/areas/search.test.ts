import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
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

describe('loading data, copying with another similarity, and the remote connection', () => {
  it('indexes the mail corpus in batches, reporting progress, and finds prose by relevance', async () => {
    events.length = 0;
    const r = await call('search.indexSample', { dataset: 'mails' });
    expect(r).toEqual({ index: 'mails', indexed: 3811, errors: 0 });
    const progress = events.filter(([e]) => e === 'search.loadProgress').map(([, p]) => p as Json);
    expect(progress[0]).toEqual({ index: 'mails', done: 0, total: 3811, rejected: 0 });
    expect(progress.at(-1)).toEqual({ index: 'mails', done: 3811, total: 3811, rejected: 0 });
    expect(progress.length).toBe(2 + Math.floor(3811 / 500));
    const res = await call('search.query', { index: 'mails', body: { query: { match: { subject: 'spamassassin' } }, size: 3 } });
    expect(res.hits.total.value).toBeGreaterThan(10);
    expect(res.hits.hits[0]._id).toMatch(/^(easy|hard)-ham-\d-\d{5}$/);
    expect(res.hits.hits[0]._source.subject.toLowerCase()).toContain('spamassassin');
  });

  it('sends the body as typed so that a parsing error names its line and column', async () => {
    const text = '{\n  "query": {\n    "mach": { "subject": "x" }\n  }\n}';
    await expect(call('search.query', { index: 'mails', text })).rejects.toMatchObject({
      message: 'parsing_exception: unknown query [mach]',
      detail: { error: { line: 3, col: 12 }, status: 400 },
    });
  });

  it('counts the documents Elasticsearch rejects in a bulk batch, with its reasons', async () => {
    await call('search.createIndex', { index: 'picked', body: { mappings: { properties: { n: { type: 'long' } } } } });
    const r = await call('search.bulk', { index: 'picked', documents: [{ _id: 'a', n: 1 }, { _id: 'b', n: 'not a number' }, { n: 3 }], refresh: true });
    expect(r.indexed).toBe(2);
    expect(r.rejected).toBe(1);
    expect(r.errors).toEqual([{ position: 1, id: 'b', type: 'mapper_parsing_exception', reason: expect.stringContaining('failed to parse field [n]') }]);
    expect((await call('search.getDocument', { index: 'picked', id: 'a' })).source).toEqual({ n: 1 });
    await call('search.deleteIndex', { index: 'picked' });
  });

  it('copies an index under classic TF/IDF, where the same query scores with the old formula', async () => {
    const r = await call('search.copyIndex', { source: 'mails', target: 'mails-classic', similarity: 'classic' });
    expect(r).toEqual({ index: 'mails-classic', copied: 3811 });
    const q = { query: { match: { subject: 'spamassassin' } }, size: 1 };
    const bm25 = await call('search.query', { index: 'mails', body: q });
    const classic = await call('search.query', { index: 'mails-classic', body: q });
    expect(classic.hits.total.value).toBe(bm25.hits.total.value);
    const ex = await call('search.explain', { index: 'mails-classic', id: classic.hits.hits[0]._id, query: q.query });
    expect(JSON.stringify(ex.explanation)).toContain('fieldWeight in');
    expect((await call('search.indices', {})).find((i: Json) => i.name === 'mails-classic').similarity).toEqual({ type: 'classic' });
    await call('search.deleteIndex', { index: 'mails-classic' });
  });

  it('stores remote credentials with mode 0600 and never gives the secret back', async () => {
    expect(await call('search.remoteAuth', {})).toEqual({ kind: 'none', secretSet: false });
    expect(await call('search.setRemoteAuth', { kind: 'basic', username: 'elastic', password: 's3cret' })).toEqual({ kind: 'basic', username: 'elastic', secretSet: true });
    const file = path.join(dir, 'search-remote-auth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(await call('search.remoteAuth', {}))).not.toContain('s3cret');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ kind: 'basic', username: 'elastic', password: 's3cret' });
    await call('search.setRemoteAuth', { kind: 'none' });
  });

  it('tests a connection: the embedded engine answers, a closed port and a 401 are explained', async () => {
    const ok = await call('search.testConnection', {});
    expect(ok).toMatchObject({ ok: true, distribution: 'loupe', version: expect.stringMatching(/^\d+\.\d+/) });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await call('search.testConnection', { url: `http://127.0.0.1:${closedPort}` });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('ECONNREFUSED'), hint: expect.stringContaining('Nothing listens') });
    // A server that wants credentials, answering as Elasticsearch's security does.
    let seen: string | undefined;
    const server = createServer((req, res) => {
      seen = req.headers.authorization;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="security"' });
      res.end(JSON.stringify({ error: { type: 'security_exception', reason: 'unable to authenticate user [elastic] for REST request [/]' }, status: 401 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const denied = await call('search.testConnection', { url: `http://127.0.0.1:${port}`, auth: { kind: 'apiKey', apiKey: 'abc==' } });
    server.close();
    expect(seen).toBe('ApiKey abc==');
    expect(denied).toMatchObject({ ok: false, status: 401, message: 'security_exception: unable to authenticate user [elastic] for REST request [/]', hint: expect.stringContaining('credentials') });
  });
});
