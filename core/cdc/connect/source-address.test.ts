/**
 * The embedded source's own address: the connect service holds it (LOUPE_SOURCE_PORT), a source
 * connector naming it captures the embedded source, and a connector naming any other address is
 * never captured from the embedded source: it is a real server, and one that is not there fails
 * the task with MySQL's own error. (Before, database.port was ignored: a connector pointed at a
 * MariaDB on 127.0.0.1:43306 ran and silently captured the embedded source.)
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { freePort } from '../../common/testing/free-port.js';
import { until } from '../testing/clickhouse-fixture.test-util.js';
import { startConnectService, type ConnectApi } from './service.js';

const handles: ServiceHandle<ConnectApi>[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(sourcePort: number): Promise<ServiceHandle<ConnectApi>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-source-address-'));
  dirs.push(dir);
  const h = await startConnectService({ host: '127.0.0.1', port: 0, sourcePort, dataDir: dir, log: silentLogger, peers: {} }, {});
  handles.push(h);
  return h;
}

const connector = (name: string, port: number) => ({
  name,
  config: {
    'connector.class': 'io.debezium.connector.mysql.MySqlConnector',
    'database.hostname': '127.0.0.1',
    'database.port': String(port),
    'database.user': 'debezium',
    'database.password': 'dbz',
    'database.server.id': '184054',
    'topic.prefix': name,
    'table.include.list': 'demo.customers',
  },
});

describe('the embedded source’s own address', () => {
  it('is held by the connect service and answers there: what it is, and SQL with digests', async () => {
    const port = await freePort();
    const h = await start(port);
    expect(h.extraUrls).toEqual({ source: `http://127.0.0.1:${port}` });
    expect(h.api.sourceAddress).toEqual({ host: '127.0.0.1', port });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).json()).toMatchObject({ name: 'loupe-embedded-source', address: `127.0.0.1:${port}` });
    const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ database: 'demo', sql: 'SELECT COUNT(*) FROM customers' }) });
    expect(await res.json()).toMatchObject({ results: [{ kind: 'rows', rows: [[3]], statement: { head: 'SELECT COUNT(*) FROM customers' } }] });
    const bad = await fetch(`http://127.0.0.1:${port}/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ database: 'demo', sql: 'SELECT * FROM nope' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { errno: 1146, text: "ERROR 1146 (42S02): Table 'demo.nope' doesn't exist" } });
  });

  it('a port in use stops the service with the setting to change', async () => {
    const taken = net.createServer();
    const port = await new Promise<number>((r) => taken.listen(0, '127.0.0.1', () => r((taken.address() as net.AddressInfo).port)));
    try {
      await expect(start(port)).rejects.toThrow(`the embedded CDC source: port ${port} on 127.0.0.1 is already in use. Set LOUPE_SOURCE_PORT or --port-base to use another port.`);
    } finally {
      taken.close();
    }
  });

  it('a connector naming it captures the embedded source', async () => {
    const port = await freePort();
    const h = await start(port);
    const r = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(connector('own', port)) });
    expect(r.status).toBe(201);
    const end = await until(async () => (await h.api.topicLog.describeTopic('own.demo.customers'))?.partitions[0]?.endOffset ?? 0, (n) => n >= 3);
    expect(end).toBe(3);
  });

  it('a connector naming another port on the same host is not captured from the embedded source: nothing there, MySQL’s error', async () => {
    const port = await freePort();
    const h = await start(port);
    const elsewhere = await freePort();
    const r = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(connector('other', elsewhere)) });
    expect(r.status).toBe(201);
    const status = await until(async () => (await (await fetch(`${h.url}/connectors/other/status`)).json()) as { tasks: { state: string; trace?: string }[] }, (s) => s.tasks[0]?.state === 'FAILED');
    expect(status.tasks[0]!.state).toBe('FAILED');
    expect(status.tasks[0]!.trace).toContain(`Can't connect to MySQL server on '127.0.0.1:${elsewhere}'`);
    expect(await h.api.topicLog.describeTopic('other.demo.customers')).toBeUndefined();
  });
});
