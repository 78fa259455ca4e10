/**
 * One workload run on a real MariaDB (Debian's mariadbd with log-bin, binlog_format=ROW and a
 * server id, started by the test; skipped without it, failing under CI=true) and on the embedded
 * source, each captured by the same Debezium MySQL connector config through the Connect worker:
 * the messages (keys, envelopes with their schemas, op, before and after) must be the same. Only
 * what differs between two servers by nature is set aside: binlog file and position, server id,
 * GTID, thread and times. Also: the server's own error for a wrong password, and a binlog setting
 * that is not ROW named.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../common/log.js';
import type { ServiceHandle } from '../../../../common/service.js';
import { freePort } from '../../../../common/testing/free-port.js';
import { mariadbTests, startMariaDb, type MariaDbServer } from '../../../source/testing/mariadb-server.js';
import { startConnectService, type ConnectApi } from '../../service.js';
import { BinlogCaptureSource } from '../../../source/binlog-capture.js';

const mariadb = mariadbTests();

const SETUP = [
  'CREATE DATABASE shop',
  "CREATE TABLE shop.items (id INT NOT NULL PRIMARY KEY, name VARCHAR(100), price DECIMAL(8,2), added DATETIME, qty BIGINT, note TEXT)",
  "INSERT INTO shop.items VALUES (1, 'lamp', 19.90, '2024-05-01 12:00:00', 3, NULL), (2, 'desk', 250.00, '2024-05-02 08:30:15', 1, 'oak')",
];
const WORKLOAD = [
  "INSERT INTO shop.items VALUES (3, 'chair', 49.50, '2024-05-03 09:00:00', 4, NULL)",
  "UPDATE shop.items SET price = 17.50, note = 'sale' WHERE id = 1",
  'DELETE FROM shop.items WHERE id = 2',
  'ALTER TABLE shop.items ADD COLUMN color VARCHAR(20)',
  "INSERT INTO shop.items (id, name, price, added, qty, color) VALUES (4, 'shelf', 80.00, '2024-05-04 10:00:00', 9007199254740993, 'red')",
  "UPDATE shop.items SET id = 30 WHERE id = 3",
];

const config = (host: string, port: number, user: string, password: string) => ({
  'connector.class': 'io.debezium.connector.mysql.MySqlConnector',
  'database.hostname': host,
  'database.port': String(port),
  'database.user': user,
  'database.password': password,
  'database.server.id': '184054',
  'topic.prefix': 'dbserver1',
  'database.include.list': 'shop',
  'table.include.list': 'shop.items',
  'include.schema.changes': 'false',
  'key.converter': 'org.apache.kafka.connect.json.JsonConverter',
  'value.converter': 'org.apache.kafka.connect.json.JsonConverter',
  'key.converter.schemas.enable': 'true',
  'value.converter.schemas.enable': 'true',
});

/** A message without what two servers differ in by nature. */
function comparable(value: string | null): unknown {
  if (value === null) return null;
  const m = JSON.parse(value) as { schema: unknown; payload: Record<string, unknown> };
  const { source, ts_ms: _ts, ...rest } = m.payload;
  const { file: _f, pos: _p, server_id: _s, gtid: _g, thread: _t, ts_ms: _sts, row: _r, ...src } = source as Record<string, unknown>;
  return { schema: m.schema, payload: { ...rest, source: src } };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(mariadb.skip)(`a real MariaDB captured through its binlog gives the embedded source's messages${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  let server: MariaDbServer;
  let real: mysql.Connection;
  const services: ServiceHandle<ConnectApi>[] = [];
  const dirs: string[] = [];
  const startConnect = async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-real-vs-embedded-'));
    dirs.push(dir);
    const h = await startConnectService({ host: '127.0.0.1', port: 0, sourcePort: await freePort(), dataDir: dir, log: silentLogger, peers: {} }, {});
    services.push(h);
    return h;
  };

  beforeAll(async () => {
    server = await startMariaDb({ binlog: true });
    real = await mysql.createConnection({ host: server.host, port: server.port, user: server.user, password: server.password, multipleStatements: true });
  }, 120_000);
  afterAll(async () => {
    for (const h of services) await h.close();
    await real?.end();
    await server?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('snapshot, inserts, updates, deletes, a schema change and a key change: the same messages from both', async () => {
    const fromReal = await startConnect();
    const fromEmbedded = await startConnect();
    for (const s of SETUP) await real.query(s);
    for (const s of SETUP) await fromEmbedded.api.source.execute(null, s);

    const post = async (h: ServiceHandle<ConnectApi>, cfg: Record<string, string>) => {
      const r = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'shop-source', config: cfg }) });
      expect(r.status).toBe(201);
    };
    await post(fromReal, config(server.host, server.port, server.user, server.password));
    await post(fromEmbedded, config('127.0.0.1', fromEmbedded.api.sourceAddress.port, 'debezium', 'dbz'));
    const topic = 'dbserver1.shop.items';
    const count = (h: ServiceHandle<ConnectApi>) => async () => (await h.api.topicLog.describeTopic(topic))?.partitions[0]?.endOffset ?? 0;
    // the snapshot's two rows first
    expect(await until(count(fromReal), (n) => n >= 2)).toBe(2);
    expect(await until(count(fromEmbedded), (n) => n >= 2)).toBe(2);

    for (const s of WORKLOAD) await real.query(s);
    for (const s of WORKLOAD) await fromEmbedded.api.source.execute(null, s);
    // c, u, d + tombstone, c, d + tombstone + c (the key change)
    const expected = 2 + 1 + 1 + 2 + 1 + 3;
    expect(await until(count(fromReal), (n) => n >= expected)).toBe(expected);
    expect(await until(count(fromEmbedded), (n) => n >= expected)).toBe(expected);

    const messages = async (h: ServiceHandle<ConnectApi>) => (await h.api.topicLog.fetch(topic, 0, 0, { maxRecords: 100 })).map((r) => ({ key: r.key === null ? null : JSON.parse(r.key), value: comparable(r.value), headers: r.headers.map((x) => x.key) }));
    const a = await messages(fromReal);
    const b = await messages(fromEmbedded);
    expect(a.map((m) => (m.value as { payload?: { op?: string } } | null)?.payload?.op ?? 'tombstone')).toEqual(['r', 'r', 'c', 'u', 'd', 'tombstone', 'c', 'd', 'tombstone', 'c']);
    expect(a.length).toBe(b.length);
    for (let i = 0; i < b.length; i++) expect(a[i], `message ${i}`).toEqual(b[i]);
    if (process.env.SHOW) console.log(JSON.stringify([a[6], b[6]]));
    // the real one's positions are the server's binlog
    const last = JSON.parse((await fromReal.api.topicLog.fetch(topic, 0, expected - 1, { maxRecords: 1 }))[0]!.value!) as { payload: { source: { file: string; pos: number; server_id: number } } };
    expect(last.payload.source).toMatchObject({ file: 'mariadb-bin.000001', server_id: 1 });
    expect(last.payload.source.pos).toBeGreaterThan(4);
  }, 120_000);

  it('a wrong password is the server’s own error', async () => {
    await expect(BinlogCaptureSource.open({ host: server.host, port: server.port, user: server.user, password: 'wrong', serverId: 5, captured: () => true, databaseCaptured: () => true })).rejects.toThrow(
      new RegExp(`^Access denied for user '${server.user}'@'(localhost|127\\.0\\.0\\.1)' \\(using password: YES\\)$`),
    );
  });

  it('a binlog_format other than ROW is named with its value', async () => {
    await real.query("SET GLOBAL binlog_format = 'STATEMENT'");
    try {
      await expect(BinlogCaptureSource.open({ host: server.host, port: server.port, user: server.user, password: server.password, serverId: 5, captured: () => true, databaseCaptured: () => true })).rejects.toThrow(
        'The MySQL server is not configured to use a ROW binlog_format (binlog_format=STATEMENT), which is required for this connector to work properly. Change the MySQL configuration to use a binlog_format=ROW and restart the connector.',
      );
    } finally {
      await real.query("SET GLOBAL binlog_format = 'ROW'");
    }
  });
});
