import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { silentLogger } from '../common/log.js';
import type { ServiceHandle } from '../common/service.js';
import { startSearchService, type SearchServiceApi } from './service.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Elasticsearch JSON freely
type Json = Record<string, any>;

const handles: ServiceHandle<SearchServiceApi>[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'loupe-search-'));
  if (!dataDir) dirs.push(dir);
  const h = await startSearchService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} });
  handles.push(h);
  return { h, dir, url: h.url };
}

/** A raw HTTP call (fetch refuses GET bodies, which Elasticsearch clients send). */
function call(base: string, method: string, p: string, body?: unknown, contentType = 'application/json') {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise<{ status: number; headers: Headers; text: string; json?: Json }>((resolve, reject) => {
    const u = new URL(base);
    const req = http.request({ host: u.hostname, port: u.port, method, path: p, headers: payload === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const headers = new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
        resolve({ status: res.statusCode!, headers, text, json: text && headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Json) : undefined });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the Elasticsearch REST API', () => {
  it('refuses what a web page can send without a preflight: text/plain, no type, another Origin, a rebound Host', async () => {
    const { url } = await start();
    await call(url, 'PUT', '/guarded', {});
    const doc = JSON.stringify({ a: 'from a page' });
    // Elasticsearch's strict content-type check (6.0 on)
    expect((await call(url, 'POST', '/guarded/_doc?refresh=true', doc, 'text/plain')).json).toEqual({ error: 'Content-Type header [text/plain] is not supported', status: 406 });
    const untyped = await new Promise<number>((resolve, reject) => {
      const u = new URL(url);
      const r = http.request({ host: u.hostname, port: u.port, method: 'POST', path: '/guarded/_doc?refresh=true', headers: { 'content-length': Buffer.byteLength(doc) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      r.on('error', reject);
      r.end(doc);
    });
    expect(untyped).toBe(406);
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; json: Json }>((resolve, reject) => {
        const u = new URL(url);
        const r = http.request({ host: u.hostname, port: u.port, method: 'POST', path: '/guarded/_doc?refresh=true', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(doc), ...headers } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) as Json }));
        });
        r.on('error', reject);
        r.end(doc);
      });
    const cross = await raw({ origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.json.error.type).toBe('security_exception');
    expect(cross.json.error.reason).toMatch(/^Requests from origin https:\/\/evil\.example are refused/);
    expect((await raw({ host: 'evil.example:9200' })).status).toBe(403);
    expect((await call(url, 'GET', '/guarded/_count')).json!.count).toBe(0);
  });

  it('answers GET / with version and tagline and the product header', async () => {
    const { url } = await start();
    const r = await call(url, 'GET', '/');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(r.json!.tagline).toBe('You Know, for Search');
    expect(r.json!.version.number).toMatch(/^8\./);
    expect((await call(url, 'GET', '/_cluster/health')).json!.status).toBe('green');
  });

  it('creates, shows and deletes an index with Elasticsearch error shapes', async () => {
    const { url } = await start();
    const created = await call(url, 'PUT', '/logs', { settings: { number_of_shards: 1, 'index.similarity.default.type': 'BM25' }, mappings: { properties: { message: { type: 'text' } } } });
    expect(created.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'logs' });
    const again = await call(url, 'PUT', '/logs', {});
    expect(again.status).toBe(400);
    expect(again.json!.error.type).toBe('resource_already_exists_exception');
    expect(again.json!.error.root_cause[0].reason).toMatch(/^index \[logs\/.+\] already exists$/);
    expect((await call(url, 'HEAD', '/logs')).status).toBe(200);
    expect((await call(url, 'HEAD', '/nope')).status).toBe(404);
    const info = await call(url, 'GET', '/logs');
    expect(info.json!.logs.settings.index.number_of_shards).toBe('1');
    expect(info.json!.logs.mappings).toEqual({ properties: { message: { type: 'text' } } });
    const missing = await call(url, 'GET', '/nope/_search');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      error: {
        root_cause: [{ type: 'index_not_found_exception', reason: 'no such index [nope]', 'resource.type': 'index_or_alias', 'resource.id': 'nope', index_uuid: '_na_', index: 'nope' }],
        type: 'index_not_found_exception',
        reason: 'no such index [nope]',
        'resource.type': 'index_or_alias',
        'resource.id': 'nope',
        index_uuid: '_na_',
        index: 'nope',
      },
      status: 404,
    });
    const bad = await call(url, 'PUT', '/Upper', {});
    expect(bad.json!.error.type).toBe('invalid_index_name_exception');
    expect((await call(url, 'DELETE', '/log*')).json!.error.reason).toBe('Wildcard expressions or all indices are not allowed');
    expect((await call(url, 'DELETE', '/logs')).json).toEqual({ acknowledged: true });
    const cat = await call(url, 'GET', '/_cat/indices?format=json');
    expect(cat.json).toEqual([]);
  });

  it('maps new fields dynamically as Elasticsearch does', async () => {
    const { url } = await start();
    await call(url, 'PUT', '/dyn/_doc/1?refresh=true', { message: 'hello', '@timestamp': '2024-03-01T10:00:00Z', bytes: 12, ratio: 0.5, ok: true, http: { status: 200 } });
    const m = await call(url, 'GET', '/dyn/_mapping');
    expect(m.json).toEqual({
      dyn: {
        mappings: {
          properties: {
            message: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
            '@timestamp': { type: 'date' },
            bytes: { type: 'long' },
            ratio: { type: 'float' },
            ok: { type: 'boolean' },
            http: { properties: { status: { type: 'long' } } },
          },
        },
      },
    });
  });

  it('rejects a value that does not fit the mapping with mapper_parsing_exception', async () => {
    const { url } = await start();
    await call(url, 'PUT', '/typed', { mappings: { properties: { bytes: { type: 'long' } } } });
    const r = await call(url, 'PUT', '/typed/_doc/1', { bytes: 'lots' });
    expect(r.status).toBe(400);
    expect(r.json!.error.type).toBe('mapper_parsing_exception');
    expect(r.json!.error.reason).toBe("failed to parse field [bytes] of type [long] in document with id '1'. Preview of field's value: 'lots'");
    expect(r.json!.error.caused_by).toEqual({ type: 'number_format_exception', reason: 'For input string: "lots"' });
  });

  it('indexes, gets, deletes documents and runs _bulk with per-item results', async () => {
    const { url } = await start();
    const put = await call(url, 'PUT', '/docs/_doc/1', { m: 'one' });
    expect(put.status).toBe(201);
    expect(put.json).toMatchObject({ _index: 'docs', _id: '1', _version: 1, result: 'created' });
    const upd = await call(url, 'PUT', '/docs/_doc/1', { m: 'uno' });
    expect(upd.json).toMatchObject({ _version: 2, result: 'updated' });
    expect((await call(url, 'GET', '/docs/_doc/1')).json).toMatchObject({ found: true, _version: 2, _source: { m: 'uno' } });
    const auto = await call(url, 'POST', '/docs/_doc', { m: 'auto' });
    expect(auto.json!._id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const nd = [
      JSON.stringify({ index: { _index: 'docs', _id: '2' } }),
      JSON.stringify({ m: 'two' }),
      JSON.stringify({ create: { _index: 'docs', _id: '2' } }),
      JSON.stringify({ m: 'dup' }),
      JSON.stringify({ update: { _index: 'docs', _id: '1' } }),
      JSON.stringify({ doc: { extra: true } }),
      JSON.stringify({ delete: { _index: 'docs', _id: '404' } }),
      '',
    ].join('\n');
    const bulk = await call(url, 'POST', '/_bulk?refresh=true', nd, 'application/x-ndjson');
    expect(bulk.json!.errors).toBe(true);
    expect(bulk.json!.items.map((i: Json) => Object.entries(i).map(([k, v]) => `${k}:${(v as Json).status}`)[0])).toEqual(['index:201', 'create:409', 'update:200', 'delete:404']);
    expect(bulk.json!.items[1].create.error.type).toBe('version_conflict_engine_exception');
    const search = await call(url, 'POST', '/docs/_search', { query: { match_all: {} } });
    expect(search.json!.hits.total).toEqual({ value: 3, relation: 'eq' });
    expect((await call(url, 'DELETE', '/docs/_doc/2')).json!.result).toBe('deleted');
    expect((await call(url, 'GET', '/docs/_doc/2')).status).toBe(404);
  });

  it('prints scores and explanations as Elasticsearch does', async () => {
    const { url } = await start();
    const docs = ['login ok', 'user login failed', 'disk full on host', 'login', 'nothing to see here today'];
    await call(url, 'POST', '/logs/_bulk?refresh=true', docs.map((m, i) => `{"index":{"_id":"${i}"}}\n${JSON.stringify({ message: m })}\n`).join(''), 'application/x-ndjson');
    const r = await call(url, 'GET', '/logs/_search?explain=true', { query: { match: { message: 'login' } } });
    expect(r.text).toContain('"description":"boost","details":[]');
    expect(r.text).toMatch(/"_score":\d\.\d+/);
    const hit = r.json!.hits.hits[0];
    expect(Object.keys(hit)).toEqual(['_shard', '_node', '_index', '_type', '_id', '_score', '_source', '_explanation']);
    const ex = await call(url, 'GET', '/logs/_doc/3/_explain', { query: { match: { message: 'login' } } });
    expect(ex.json!.matched).toBe(true);
    expect(ex.json!.explanation.value).toBe(hit._score);
    const missing = await call(url, 'GET', '/logs/_explain/999', { query: { match: { message: 'login' } } });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ _index: 'logs', _type: '_doc', _id: '999', matched: false });
    const count = await call(url, 'GET', '/logs/_count', { query: { match: { message: 'login' } } });
    expect(count.json!.count).toBe(3);
    const an = await call(url, 'POST', '/logs/_analyze', { field: 'message', text: 'User LOGIN' });
    expect(an.json!.tokens.map((t: Json) => [t.token, t.position])).toEqual([
      ['user', 0],
      ['login', 1],
    ]);
  });

  it('prints the explain tree of the Elasticsearch 8 documentation byte for byte', async () => {
    // Elasticsearch reference, Explain API example: one of five documents has the term, dl 3, avgdl 5.4.
    const { url } = await start();
    const docs = ['elasticsearch is great', 'one two three four five six', 'seven eight nine ten eleven twelve', 'a b c d e f', 'g h i j k l'];
    await call(url, 'POST', '/my-index-000001/_bulk?refresh=true', docs.map((m, i) => `{"index":{"_id":"${i}"}}\n${JSON.stringify({ message: m })}\n`).join(''), 'application/x-ndjson');
    const r = await call(url, 'GET', '/my-index-000001/_explain/0', { query: { match: { message: 'elasticsearch' } } });
    const published =
      '"explanation":{"value":1.6943598,"description":"weight(message:elasticsearch in 0) [PerFieldSimilarity], result of:","details":[{"value":1.6943598,"description":"score(freq=1.0), computed as boost * idf * tf from:","details":[' +
      '{"value":2.2,"description":"boost","details":[]},' +
      '{"value":1.3862944,"description":"idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:","details":[{"value":1,"description":"n, number of documents containing term","details":[]},{"value":5,"description":"N, total number of documents with field","details":[]}]},' +
      '{"value":0.5555556,"description":"tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:","details":[{"value":1.0,"description":"freq, occurrences of term within document","details":[]},{"value":1.2,"description":"k1, term saturation parameter","details":[]},{"value":0.75,"description":"b, length normalization parameter","details":[]},{"value":3.0,"description":"dl, length of field","details":[]},{"value":5.4,"description":"avgdl, average length of field","details":[]}]}]}]}';
    expect(r.text).toBe('{"_index":"my-index-000001","_type":"_doc","_id":"0","matched":true,' + published + '}');
  });

  it('reports malformed bodies as parsing_exception with line and col', async () => {
    const { url } = await start();
    await call(url, 'PUT', '/p', {});
    const r = await call(url, 'POST', '/p/_search', '{\n  "query": { "match_all": {} ,}\n}');
    expect(r.status).toBe(400);
    expect(r.json!.error.type).toBe('parsing_exception');
    expect(r.json!.error.line).toBe(2);
    expect(typeof r.json!.error.col).toBe('number');
    const unknown = await call(url, 'POST', '/p/_search', '{"query":{"fuzzy_thing":{}}}');
    expect(unknown.json!.error).toMatchObject({ type: 'parsing_exception', reason: 'unknown query [fuzzy_thing]', line: 1 });
    const method = await call(url, 'PUT', '/_cat/indices', {});
    expect(method.status).toBe(405);
  });

  it('caches often used filters and shows hits and misses in _stats', async () => {
    const { url } = await start();
    await call(url, 'PUT', '/c', { settings: { 'index.queries.cache.everything': true }, mappings: { properties: { n: { type: 'long' }, m: { type: 'text' } } } });
    await call(url, 'POST', '/c/_bulk?refresh=true', Array.from({ length: 20 }, (_, i) => `{"index":{}}\n{"n":${i},"m":"x"}\n`).join(''), 'application/x-ndjson');
    const q = { query: { bool: { must: [{ match: { m: 'x' } }], filter: [{ range: { n: { gte: 10 } } }] } } };
    for (let i = 0; i < 3; i++) expect((await call(url, 'POST', '/c/_search', q)).json!.hits.total.value).toBe(10);
    const stats = await call(url, 'GET', '/c/_stats');
    expect(stats.json!.indices.c.primaries.query_cache).toMatchObject({ hit_count: 2, miss_count: 1, cache_size: 1 });
    await call(url, 'PUT', '/c/_doc/new?refresh=true', { n: 50, m: 'x' });
    await call(url, 'POST', '/c/_search', q);
    expect((await call(url, 'GET', '/c/_stats')).json!.indices.c.primaries.query_cache.miss_count).toBe(2);
  });

  it('keeps indexes, documents and statistics across a restart', async () => {
    const { h, dir, url } = await start();
    await call(url, 'PUT', '/keep', { mappings: { properties: { m: { type: 'text' } } } });
    await call(url, 'POST', '/keep/_bulk?refresh=true', '{"index":{"_id":"a"}}\n{"m":"alpha beta"}\n{"index":{"_id":"b"}}\n{"m":"alpha"}\n{"index":{}}\n{"m":"gamma","dyn":5}\n', 'application/x-ndjson');
    await call(url, 'DELETE', '/keep/_doc/b?refresh=true');
    const before = await call(url, 'POST', '/keep/_search', { query: { match: { m: 'alpha' } }, explain: true });
    await h.close();
    const second = await start(dir);
    const after = await call(second.url, 'POST', '/keep/_search', { query: { match: { m: 'alpha' } }, explain: true });
    expect(after.json!.hits).toEqual(before.json!.hits.hits.length ? { ...before.json!.hits, hits: before.json!.hits.hits.map((x: Json) => ({ ...x, _node: after.json!.hits.hits[0]._node })) } : before.json!.hits);
    expect((await call(second.url, 'GET', '/keep/_mapping')).json!.keep.mappings.properties.dyn).toEqual({ type: 'long' });
    expect((await call(second.url, 'GET', '/keep/_count')).json!.count).toBe(2);
  });

  it('answers _source with the bytes it was sent (1.0 stays 1.0, spacing stays), also after a restart; filtered or ?pretty sources are written anew', async () => {
    const { h, dir, url } = await start();
    const raw = '{ "price": 1.0,\n  "tags": [ "a" ],  "n": 1e2 }';
    expect((await call(url, 'PUT', '/raw/_doc/1?refresh=true', raw)).status).toBe(201);
    await call(url, 'POST', '/raw/_bulk?refresh=true', '{"index":{"_id":"2"}}\n{"price" : 2.50}\n', 'application/x-ndjson');
    const got = (await call(url, 'GET', '/raw/_doc/1')).text;
    expect(got).toBe(`{"_index":"raw","_id":"1","_version":1,"_seq_no":0,"_primary_term":1,"found":true,"_source":${raw}}`);
    const hits = (await call(url, 'POST', '/raw/_search', { sort: [{ price: 'asc' }] })).text;
    expect(hits).toContain(`"_id":"1","_score":null,"_source":${raw},"sort":`);
    expect(hits).toContain('"_source":{"price" : 2.50}');
    expect((await call(url, 'POST', '/raw/_search', { _source: ['price'], query: { ids: { values: ['1'] } } })).text).toContain('"_source":{"price":1}');
    expect((await call(url, 'GET', '/raw/_doc/1?pretty')).text).toContain('"_source" : {\n    "price" : 1,');
    await h.close();
    const second = await start(dir);
    expect((await call(second.url, 'GET', '/raw/_doc/1')).text).toBe(got);
  });

  it('answers the specification\'s requests sent with curl', async () => {
    const { url } = await start();
    // async: the server answers in this same process
    const run = promisify(execFile);
    const curl = async (...args: string[]) => JSON.parse((await run('curl', ['-s', ...args], { encoding: 'utf8' })).stdout);
    const H = ['-H', 'Content-Type: application/json'];
    await curl('-XPUT', `${url}/logs`, ...H, '-d', JSON.stringify({ mappings: { properties: { '@timestamp': { type: 'date' }, message: { type: 'text' }, http: { properties: { response: { properties: { bytes: { type: 'long' } } } } } } } }));
    const docs = [
      { '@timestamp': '2024-03-01T10:00:00Z', message: 'User login failed', http: { response: { bytes: 120 } } },
      { '@timestamp': '2024-03-02T10:00:00Z', message: 'login ok', http: { response: { bytes: 4000 } } },
    ];
    for (const [i, d] of docs.entries()) await curl('-XPUT', `${url}/logs/_doc/${i + 1}?refresh=true`, ...H, '-d', JSON.stringify(d));
    const q = { query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ range: { '@timestamp': { gte: '2024-03-02' } } }] } } };
    const r = await curl('-XGET', `${url}/logs/_search`, ...H, '-d', JSON.stringify(q));
    expect(r.hits.hits.map((h: Json) => h._id)).toEqual(['2']);
    const all = await curl('-XGET', `${url}/_search?explain`, ...H, '-d', JSON.stringify({ query: { match: { message: 'login' } } }));
    expect(all.hits.hits.every((h: Json) => h._explanation.description.startsWith('weight(message:login in '))).toBe(true);
    const why = await curl('-XGET', `${url}/logs/_doc/1/_explain`, ...H, '-d', JSON.stringify(q));
    expect(why.matched).toBe(false);
    expect(why.explanation.details.map((d: Json) => d.description)).toContain(`failure to match filter: @timestamp:[${Date.UTC(2024, 2, 2)} TO *]`);
    const upper = await curl('-XGET', `${url}/logs/_search`, ...H, '-d', JSON.stringify({ query: { term: { message: 'LOGIN' } } }));
    const lower = await curl('-XGET', `${url}/logs/_search`, ...H, '-d', JSON.stringify({ query: { term: { message: 'login' } } }));
    expect([upper.hits.total.value, lower.hits.total.value]).toEqual([0, 2]);
  });

  it('survives malformed requests of every kind', async () => {
    const { url } = await start();
    await call(url, 'PUT', '/f', { mappings: { properties: { n: { type: 'long' }, d: { type: 'date' } } } });
    const bodies = ['{', '[]', 'null', '"x"', '{"query":[]}', '{"query":{"bool":{"must":{"match":{}}}}}', '{"size":-1}', '{"from":"x"}', '{"query":{"range":{"d":{"gte":"not a date"}}}}', '{"query":{"term":{"n":"abc"}}}', '{"sort":[{"n":{"order":"up"}}]}', '\u0000\u0001', '{"query":{"match":{"a":{"query":"x","operator":"xor"}}}}', '{"query":{"terms":{"n":"x"}}}', '{"aggs":{"a":{"terms":{"field":"n"}}}}'];
    const paths = ['/f/_search', '/f/_count', '/f/_explain/1', '/f/_doc/1', '/f/_bulk', '/_bulk', '/f/_update/1', '/f/_analyze', '/%E0%A4%A', '/f/_doc/', '/_cat/indices/zz', '/f/_mapping', '/f/a/b/c/d'];
    for (const p of paths) {
      for (const b of bodies) {
        for (const method of ['POST', 'PUT', 'GET']) {
          const r = await call(url, method, p, b);
          expect(r.status, `${method} ${p} ${b}`).toBeGreaterThanOrEqual(200);
          expect(r.status, `${method} ${p} ${b} → ${r.text}`).toBeLessThan(500);
          if (r.status >= 400 && r.json) expect(r.json.error || r.json.found === false || r.json.matched === false).toBeTruthy();
        }
      }
    }
    expect((await call(url, 'GET', '/')).status).toBe(200);
  });
});
