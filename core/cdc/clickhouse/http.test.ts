import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { memoryLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { startClickHouseService, type ClickHouseApi } from './service.js';

let dir: string;
let ch: ServiceHandle<ClickHouseApi>;
let client: ClickHouseClient;
const lines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-ch-'));
  ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: dir, log: memoryLogger(lines), peers: {} });
  client = createClient({ url: ch.url, username: 'default', password: '' });
});
afterAll(async () => {
  await client?.close();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded ClickHouse over the HTTP interface', () => {
  it('answers /ping and GET / with Ok.', async () => {
    expect(await client.ping()).toEqual({ success: true });
    const ping = await fetch(`${ch.url}/ping`);
    expect(await ping.text()).toBe('Ok.\n');
    const root = await fetch(`${ch.url}/`);
    expect(root.status).toBe(200);
    expect(await root.text()).toBe('Ok.\n');
    expect(await (await fetch(`${ch.url}/replicas_status`)).text()).toBe('Ok.\n');
  });

  it('runs a query from the URL with the default TabSeparated format and the server headers', async () => {
    const res = await fetch(`${ch.url}/?query=${encodeURIComponent('SELECT 1 AS x, \'a\' AS y')}&query_id=q-1`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('1\ta\n');
    expect(res.headers.get('x-clickhouse-query-id')).toBe('q-1');
    expect(res.headers.get('x-clickhouse-format')).toBe('TabSeparated');
    expect(res.headers.get('x-clickhouse-timezone')).toBeTruthy();
    expect(res.headers.get('x-clickhouse-server-display-name')).toBeTruthy();
    const summary = JSON.parse(res.headers.get('x-clickhouse-summary')!) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(['read_rows', 'read_bytes', 'written_rows', 'written_bytes', 'total_rows_to_read', 'result_rows', 'result_bytes', 'elapsed_ns']);
    for (const v of Object.values(summary)) expect(typeof v).toBe('string');
    expect(summary.result_rows).toBe('1');
  });

  it('takes default_format, a FORMAT clause, and POST bodies appended to the query parameter', async () => {
    const a = await fetch(`${ch.url}/?default_format=JSONEachRow`, { method: 'POST', body: 'SELECT number FROM system.numbers LIMIT 2' });
    expect(a.headers.get('content-type')).toBe('application/x-ndjson; charset=UTF-8');
    // ClickHouse 25.8+ no longer quotes 64-bit integers in JSON (output_format_json_quote_64bit_integers=0)
    expect(await a.text()).toBe('{"number":0}\n{"number":1}\n');
    const b = await fetch(`${ch.url}/?query=${encodeURIComponent('SELECT 42 AS n')}`, { method: 'POST', body: ' FORMAT JSONCompact' });
    expect(b.headers.get('x-clickhouse-format')).toBe('JSONCompact');
    expect(((await b.json()) as { data: unknown[] }).data).toEqual([[42]]);
  });

  it('turns errors into the server\'s text with code header and mapped HTTP status', async () => {
    const unknownTable = await fetch(`${ch.url}/?query=${encodeURIComponent('SELECT * FROM no_such_table')}`);
    expect(unknownTable.status).toBe(404);
    expect(unknownTable.headers.get('x-clickhouse-exception-code')).toBe('60');
    expect(await unknownTable.text()).toMatch(/^Code: 60\. DB::Exception: .*no_such_table.*\. \(UNKNOWN_TABLE\) \(version 26\.\d+\.\d+\.\d+\)\n$/s);
    const syntax = await fetch(ch.url, { method: 'POST', body: 'SELEC 1' });
    expect(syntax.status).toBe(400);
    expect(syntax.headers.get('x-clickhouse-exception-code')).toBe('62');
    const multi = await fetch(ch.url, { method: 'POST', body: 'SELECT 1; SELECT 2' });
    expect(multi.status).toBe(400);
    expect(await multi.text()).toContain('Multi-statements are not allowed');
    // the server stays up after bad requests
    expect(await (await fetch(`${ch.url}/?query=SELECT%201`)).text()).toBe('1\n');
  });

  it('refuses writes over GET (readonly) and wrong passwords', async () => {
    const ro = await fetch(`${ch.url}/?query=${encodeURIComponent('CREATE TABLE t_ro (a Int8) ENGINE=Memory')}`);
    expect(ro.headers.get('x-clickhouse-exception-code')).toBe('164');
    // the parser runs first: a typo over GET is the syntax error a POST gets, not a readonly refusal
    const typoGet = await fetch(`${ch.url}/?query=${encodeURIComponent('SELEC 1')}`);
    const typoPost = await fetch(`${ch.url}/`, { method: 'POST', body: 'SELEC 1' });
    expect([typoGet.status, typoGet.headers.get('x-clickhouse-exception-code')]).toEqual([400, '62']);
    expect(await typoGet.text()).toBe(await typoPost.text());
    const bad = await fetch(`${ch.url}/?query=SELECT%201`, { headers: { 'X-ClickHouse-User': 'default', 'X-ClickHouse-Key': 'nope' } });
    expect(bad.status).toBe(403);
    expect(await bad.text()).toContain('(AUTHENTICATION_FAILED)');
    const basic = await fetch(`${ch.url}/?query=SELECT%201`, { headers: { Authorization: `Basic ${Buffer.from('default:').toString('base64')}` } });
    expect(await basic.text()).toBe('1\n');
  });

  it('works with @clickhouse/client: command, insert JSONEachRow, query in three JSON formats, parameters, exec', async () => {
    await client.command({ query: 'CREATE TABLE IF NOT EXISTS people (id Int64, name String, born DateTime) ENGINE = MergeTree ORDER BY id' });
    const ins = await client.insert({
      table: 'people',
      values: [
        { id: 1, name: 'Ada', born: '1815-12-10 00:00:00' },
        { id: 2, name: 'Alan', born: '1912-06-23 00:00:00' },
      ],
      format: 'JSONEachRow',
    });
    expect(ins.executed).toBe(true);
    expect(ins.summary?.written_rows).toBe('2');
    const eachRow = await (await client.query({ query: 'SELECT id, name FROM people ORDER BY id', format: 'JSONEachRow' })).json();
    expect(eachRow).toEqual([{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }]);
    const json = await (await client.query({ query: 'SELECT count() AS c FROM people', format: 'JSON' })).json<{ c: number }>();
    expect(json.data).toEqual([{ c: 2 }]);
    expect(json.meta).toEqual([{ name: 'c', type: 'UInt64' }]);
    const compact = await (await client.query({ query: 'SELECT id FROM people WHERE name = {n:String}', format: 'JSONCompact', query_params: { n: 'Alan' } })).json<unknown[]>();
    expect((compact as unknown as { data: unknown[] }).data).toEqual([[2]]);
    const ex = await client.exec({ query: 'SELECT 1 FORMAT TSV' });
    let text = '';
    for await (const c of ex.stream) text += c.toString();
    expect(text).toBe('1\n');
  });

  it('passes settings from the URL and raises ClickHouse errors through the client', async () => {
    const rs = await client.query({ query: "SELECT getSetting('max_threads') AS m", format: 'JSONEachRow', clickhouse_settings: { max_threads: 3 } });
    expect(await rs.json()).toEqual([{ m: 3 }]);
    // settings do not leak into the next (session-less) request
    const after = await (await client.query({ query: "SELECT toString(getSetting('max_threads')) AS m", format: 'JSONEachRow' })).json<{ m: string }>();
    expect(after[0]!.m).not.toBe('3');
    // one request's settings replace the last one's: dropped ones go back to their defaults, changed ones change
    const both = "SELECT toString(getSetting('max_threads')) AS m, toString(getSetting('max_block_size')) AS b";
    const defaults = (await (await client.query({ query: both, format: 'JSONEachRow' })).json<{ m: string; b: string }>())[0]!;
    expect(await (await client.query({ query: both, format: 'JSONEachRow', clickhouse_settings: { max_threads: 3, max_block_size: '1234' } })).json()).toEqual([{ m: '3', b: '1234' }]);
    expect(await (await client.query({ query: both, format: 'JSONEachRow', clickhouse_settings: { max_block_size: '999' } })).json()).toEqual([{ m: defaults.m, b: '999' }]);
    expect(await (await client.query({ query: both, format: 'JSONEachRow' })).json()).toEqual([defaults]);
    await expect(client.query({ query: 'SELECT * FROM missing_tbl', format: 'JSONEachRow' })).rejects.toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
    await expect(client.insert({ table: 'people', values: [{ id: 'x' }], format: 'JSONEachRow' })).rejects.toMatchObject({ type: expect.stringMatching(/CANNOT_PARSE|INCORRECT_DATA/) });
  });

  it('uses the database parameter and keeps SET inside a session only', async () => {
    const dbClient = createClient({ url: ch.url, database: 'shop' });
    await client.command({ query: 'CREATE DATABASE IF NOT EXISTS shop' });
    await dbClient.command({ query: 'CREATE TABLE IF NOT EXISTS orders (id UInt32) ENGINE = MergeTree ORDER BY id' });
    await dbClient.insert({ table: 'orders', values: [{ id: 7 }], format: 'JSONEachRow' });
    expect(await (await client.query({ query: 'SELECT id FROM shop.orders', format: 'JSONEachRow' })).json()).toEqual([{ id: 7 }]);
    await dbClient.close();
    const s = createClient({ url: ch.url, session_id: 'sess-1' });
    await s.command({ query: 'SET max_threads = 1' });
    expect(await (await s.query({ query: "SELECT toString(getSetting('max_threads')) AS m", format: 'JSONEachRow' })).json()).toEqual([{ m: '1' }]);
    await s.close();
  });

  it('accepts INSERT with inline data in the body, gzip request and response compression', async () => {
    await client.command({ query: 'CREATE TABLE IF NOT EXISTS inl (a UInt8) ENGINE = MergeTree ORDER BY a' });
    const r = await fetch(ch.url, { method: 'POST', body: 'INSERT INTO inl FORMAT JSONEachRow {"a":1}\n{"a":2}' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.headers.get('x-clickhouse-summary')!).written_rows).toBe('2');
    const vals = await fetch(`${ch.url}/?query=${encodeURIComponent('INSERT INTO inl VALUES')}`, { method: 'POST', body: '(3),(4)' });
    expect(vals.status).toBe(200);
    const gz = createClient({ url: ch.url, compression: { request: true, response: true } });
    await gz.insert({ table: 'inl', values: [{ a: 5 }], format: 'JSONEachRow' });
    expect(await (await gz.query({ query: 'SELECT groupArray(a) AS all FROM (SELECT a FROM inl ORDER BY a)', format: 'JSONEachRow' })).json()).toEqual([{ all: [1, 2, 3, 4, 5] }]);
    await gz.close();
  });

  it('translates cluster DDL with a notice header, a log line and both DDLs in the api', async () => {
    const ddl = `CREATE TABLE IF NOT EXISTS default.customers ON CLUSTER '{cluster}'
(created_at DateTime64, id Int64, name Nullable(String), __deleted UInt8)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/default/customers', '{replica}', created_at, __deleted)
ORDER BY id
SETTINGS allow_experimental_replacing_merge_with_cleanup = 1`;
    const res = await fetch(ch.url, { method: 'POST', body: ddl });
    expect(res.status).toBe(200);
    const notice = res.headers.get('x-loupe-notice')!;
    expect(notice).toContain("ON CLUSTER '{cluster}' removed");
    expect(notice).toContain('ReplacingMergeTree(created_at, __deleted)');
    expect(notice).toContain('non_replicated_deduplication_window');
    expect(lines.some((l) => l.includes('DDL translated') && l.includes('ReplacingMergeTree'))).toBe(true);
    const log = ch.api.translations();
    const last = log[log.length - 1]!;
    expect(last.original).toBe(ddl);
    expect(last.translated).toContain('ENGINE = ReplacingMergeTree(created_at, __deleted)');
    const engine = await ch.api.query("SELECT engine_full FROM system.tables WHERE database = 'default' AND name = 'customers'");
    expect(JSON.parse(engine).engine_full).toMatch(/^ReplacingMergeTree\(created_at, __deleted\) ORDER BY id SETTINGS non_replicated_deduplication_window = 10000, allow_experimental_replacing_merge_with_cleanup = 1/);
  });

  it('drops a repeated insert block with the same insert_deduplication_token on a translated table', async () => {
    const rows = [{ created_at: 1_700_000_000_000, id: 1, name: 'a', __deleted: 'false' }];
    const events: { table: string; database: string; dedupToken?: string }[] = [];
    const off = ch.api.onInsert((e) => events.push(e));
    for (let i = 0; i < 2; i++) {
      await client.insert({ table: 'customers', values: rows, format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: 'customers-0-0-0' } });
    }
    expect(await ch.api.query('SELECT count() AS c FROM customers')).toBe('{"c":1}\n');
    off();
    // both inserts finished (the second was dropped as a duplicate block), each reported with its token
    expect(events.map((e) => [e.database, e.table, e.dedupToken])).toEqual([
      ['default', 'customers', 'customers-0-0-0'],
      ['default', 'customers', 'customers-0-0-0'],
    ]);
  });

  it('answers Keeper-only commands with a clear error', async () => {
    const r = await fetch(ch.url, { method: 'POST', body: "SYSTEM DROP REPLICA 'r2' FROM TABLE default.customers" });
    expect(r.headers.get('x-clickhouse-exception-code')).toBe('999');
    expect(await r.text()).toMatch(/^Code: 999\. DB::Exception: SYSTEM DROP REPLICA needs ClickHouse Keeper/);
    const quorum = await fetch(`${ch.url}/?insert_quorum=2`, { method: 'POST', body: 'INSERT INTO inl VALUES (9)' });
    expect(quorum.headers.get('x-clickhouse-exception-code')).toBe('999');
    expect(await quorum.text()).toContain('Setting insert_quorum=2 needs ClickHouse Keeper');
  });

  it('keeps what was created across a restart', async () => {
    await ch.close();
    ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: dir, log: memoryLogger(), peers: {} });
    await client.close();
    client = createClient({ url: ch.url });
    expect(await (await client.query({ query: 'SELECT count() AS c FROM people', format: 'JSONEachRow' })).json()).toEqual([{ c: 2 }]);
  });
});
