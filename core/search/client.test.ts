import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { silentLogger } from '../common/log.js';
import type { ServiceHandle } from '../common/service.js';
import { startSearchService, type SearchServiceApi } from './service.js';

// The official Elasticsearch client (v9) against the embedded server: it checks the product
// header and sends compatible-with media types, as it does against a real cluster.
let handle: ServiceHandle<SearchServiceApi>;
let client: Client;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loupe-search-client-'));
  handle = await startSearchService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} });
  client = new Client({ node: handle.url });
});

afterAll(async () => {
  await client?.close();
  await handle?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the official @elastic/elasticsearch client works against Loupe', () => {
  it('reads cluster info', async () => {
    const info = await client.info();
    expect(info.tagline).toBe('You Know, for Search');
  });

  it('creates an index, bulk-indexes, searches and explains', async () => {
    await client.indices.create({
      index: 'access',
      settings: { number_of_shards: 1 },
      mappings: { properties: { message: { type: 'text' }, 'http.response.bytes': { type: 'long' }, '@timestamp': { type: 'date' } } },
    });
    const docs = [
      { message: 'user login failed', http: { response: { bytes: 120 } }, '@timestamp': '2024-03-01T10:00:00Z' },
      { message: 'login succeeded', http: { response: { bytes: 5400 } }, '@timestamp': '2024-03-02T10:00:00Z' },
      { message: 'disk quota exceeded', http: { response: { bytes: 10 } }, '@timestamp': '2024-03-03T10:00:00Z' },
    ];
    const bulk = await client.bulk({ refresh: true, operations: docs.flatMap((d, i) => [{ index: { _index: 'access', _id: String(i + 1) } }, d]) });
    expect(bulk.errors).toBe(false);
    expect(bulk.items).toHaveLength(3);

    const res = await client.search({ index: 'access', query: { match: { message: 'login' } }, explain: true });
    expect(res.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(res.hits.hits.map((h) => h._id)).toEqual(['2', '1']);
    expect(res.hits.hits[0]!._explanation!.description).toBe('weight(message:login in 1) [PerFieldSimilarity], result of:');

    const filtered = await client.search({
      index: 'access',
      query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ range: { 'http.response.bytes': { gte: 1000 } } }] } },
    });
    expect(filtered.hits.hits.map((h) => [h._id, h._score])).toEqual([['2', res.hits.hits[0]!._score]]);

    const why = await client.explain({ index: 'access', id: '1', query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ range: { 'http.response.bytes': { gte: 1000 } } }] } } });
    expect(why.matched).toBe(false);
    expect(why.explanation!.details!.map((d) => d.description)).toContain('failure to match filter: http.response.bytes:[1000 TO *]');

    const count = await client.count({ index: 'access' });
    expect(count.count).toBe(3);
  });

  it('surfaces Elasticsearch errors as the client expects', async () => {
    await expect(client.search({ index: 'missing-index', query: { match_all: {} } })).rejects.toMatchObject({ meta: { statusCode: 404, body: { error: { type: 'index_not_found_exception' } } } });
  });
});
