/**
 * The sink's lean request path sends what @clickhouse/client sends: for a command and for an
 * insert with data, the same method, URL parameters (query_id aside, a fresh UUID each), headers
 * and body, seen by a plain HTTP server; and a server error comes back as the client's
 * ClickHouseError with ClickHouse's code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseError, createClient } from '@clickhouse/client';
import { LeanHttp } from './lean-http.js';

interface Seen {
  method: string;
  params: [string, string][];
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: http.Server;
let url: string;
const seen: Seen[] = [];
let failNext = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const u = new URL(req.url!, 'http://x');
      const headers = { ...req.headers };
      delete headers.host;
      seen.push({ method: req.method!, params: [...u.searchParams].map(([k, v]) => [k, k === 'query_id' ? (/^[0-9a-f-]{36}$/.test(v) ? 'uuid' : v) : v]), headers, body: Buffer.concat(parts).toString('utf8') });
      if (failNext) {
        failNext = false;
        res.statusCode = 500;
        res.setHeader('X-ClickHouse-Exception-Code', '252');
        res.end('Code: 252. DB::Exception: Too many parts (300). Merges are processing significantly slower than inserts. (TOO_MANY_PARTS) (version 25.8.1.1)\n');
        return;
      }
      res.setHeader('X-ClickHouse-Summary', '{}');
      res.end('');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the sink’s lean request path', () => {
  it('sends the request @clickhouse/client sends, for a command and for an insert with data', async () => {
    const client = createClient({ url, username: 'u', password: 'p w', database: 'shop', max_open_connections: 4 });
    const lean = new LeanHttp({ url, username: 'u', password: 'p w', database: 'shop', requestTimeoutMs: 30_000, maxOpenConnections: 4 });
    const settings = { receive_timeout: 1_000_000, insert_deduplication_token: 'customers-0-1-9', wait_end_of_query: 1 as const };
    try {
      seen.length = 0;
      await client.command({ query: "INSERT INTO `connect_state` SETTINGS wait_for_async_insert=1 VALUES ('customers-0', 1, 9, 'BEFORE_PROCESSING');" });
      await lean.command("INSERT INTO `connect_state` SETTINGS wait_for_async_insert=1 VALUES ('customers-0', 1, 9, 'BEFORE_PROCESSING');");
      const res = await client.exec({ query: 'INSERT INTO `shop`.`customers` FORMAT JSONEachRow', values: Readable.from([Buffer.from('{"id":1}\n{"id":2}\n')]), clickhouse_settings: settings });
      await finished(res.stream.resume());
      await lean.exec('INSERT INTO `shop`.`customers` FORMAT JSONEachRow', Buffer.from('{"id":1}\n{"id":2}\n'), settings);
      expect(seen).toHaveLength(4);
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[3]).toEqual(seen[2]);
      expect(seen[2]!.params.map(([k]) => k)).toEqual(['query_id', 'receive_timeout', 'insert_deduplication_token', 'wait_end_of_query', 'database', 'query']);
      expect(seen[0]!.headers['transfer-encoding']).toBe('chunked');
    } finally {
      lean.close();
      await client.close();
    }
  });

  it('answers a server error as the client does: a ClickHouseError with ClickHouse’s code', async () => {
    const lean = new LeanHttp({ url, username: 'default', password: '', database: 'default', requestTimeoutMs: 30_000, maxOpenConnections: 4 });
    try {
      failNext = true;
      const err = await lean.exec('INSERT INTO `default`.`t` FORMAT JSONEachRow', '{}\n').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClickHouseError);
      expect((err as ClickHouseError).code).toBe('252');
      expect((err as ClickHouseError).type).toBe('TOO_MANY_PARTS');
      // the connection is still good for the next request
      await lean.command('SELECT 1');
    } finally {
      lean.close();
    }
  });
});

describe('the sink’s lean connections', () => {
  it('closes a connection idle for longer than the client’s idle_socket_ttl, and opens a new one for the next request', async () => {
    const lean = new LeanHttp({ url, username: 'default', password: '', database: 'default', requestTimeoutMs: 30_000, maxOpenConnections: 4 });
    const opened: unknown[] = [];
    const onConnection = (s: unknown) => opened.push(s);
    server.on('connection', onConnection);
    try {
      await lean.command('SELECT 1');
      await lean.command('SELECT 1');
      expect(opened).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 3000));
      await lean.command('SELECT 1');
      expect(opened).toHaveLength(2);
    } finally {
      server.off('connection', onConnection);
      lean.close();
    }
  });
});

describe('a slow answer', () => {
  it('is waited for past the idle time, up to the request timeout', async () => {
    const slow = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end(''), 3200));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const lean = new LeanHttp({ url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`, username: 'default', password: '', database: 'default', requestTimeoutMs: 30_000, maxOpenConnections: 4 });
    try {
      await lean.exec('INSERT INTO `default`.`t` FORMAT JSONEachRow', '{}\n');
      await lean.exec('INSERT INTO `default`.`t` FORMAT JSONEachRow', '{}\n');
    } finally {
      lean.close();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  }, 15_000);
});
