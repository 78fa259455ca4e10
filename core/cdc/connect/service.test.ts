/**
 * The connect service end to end over its wire protocol: the seed's source configurations POSTed
 * with curl exactly as the spec shows, snapshot then streaming, restart without loss or
 * duplicates, and Kafka Connect's error shapes.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import type { LogRecord } from '../log/types.js';
import { startConnectService, type ConnectApi } from './service.js';

const run = promisify(execFile);
const ASSETS = path.resolve(__dirname, '../../../assets/cdc');

const handles: ServiceHandle<ConnectApi>[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(dataDir?: string): Promise<{ h: ServiceHandle<ConnectApi>; dir: string }> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-connect-'));
  if (!dataDir) dirs.push(dir);
  const h = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} });
  handles.push(h);
  return { h, dir };
}

async function curl(args: string[]): Promise<{ status: number; body: string; headers: string }> {
  const { stdout } = await run('curl', ['-s', '-i', ...args]);
  const split = stdout.indexOf('\r\n\r\n');
  const head = stdout.slice(0, split);
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)![1]);
  return { status, headers: head, body: stdout.slice(split + 4) };
}

async function sql(h: ServiceHandle<ConnectApi>, statements: string): Promise<void> {
  const res = await fetch(`${h.url}/loupe/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ database: 'demo', sql: statements }) });
  expect(res.status).toBe(200);
}

async function waitForRecords(h: ServiceHandle<ConnectApi>, topic: string, n: number): Promise<LogRecord[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const d = await h.api.topicLog.describeTopic(topic);
    if (d && d.partitions[0]!.endOffset >= n) return h.api.topicLog.fetch(topic, 0, 0, { maxRecords: 10_000 });
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} records in ${topic} (have ${d?.partitions[0]?.endOffset ?? 0})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Kafka Connect REST with the Debezium MySQL source', () => {
  it('accepts the seed variant 1 config unchanged via curl and streams snapshot then changes as flat rows with __deleted', async () => {
    const { h } = await start();
    await sql(h, "DELETE FROM customers; INSERT INTO customers (created_at, id, name) VALUES ('2024-01-02 03:04:05', 1, 'Ada'), ('2024-01-02 03:04:06', 2, 'Grace')");
    const res = await curl(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', `@${ASSETS}/source-variant1.json`, `${h.url}/connectors`]);
    expect(res.status).toBe(201);
    expect(res.headers).toMatch(/location: http:\/\/127\.0\.0\.1:\d+\/connectors\/mysql-source-customers/i);
    const created = JSON.parse(res.body);
    const seed = JSON.parse(fs.readFileSync(`${ASSETS}/source-variant1.json`, 'utf8'));
    expect(created).toEqual({ name: 'mysql-source-customers', config: seed.config, tasks: [{ connector: 'mysql-source-customers', task: 0 }], type: 'source' });

    // Snapshot: existing rows, value is the flat `after` row (DATETIME as epoch millis, UTC).
    const snap = await waitForRecords(h, 'customers', 2);
    expect(snap.map((r) => [r.key, r.value])).toEqual([
      ['{"id":1}', '{"created_at":1704164645000,"id":1,"name":"Ada","__deleted":"false"}'],
      ['{"id":2}', '{"created_at":1704164646000,"id":2,"name":"Grace","__deleted":"false"}'],
    ]);

    await sql(h, "INSERT INTO customers (created_at, id, name) VALUES ('2024-02-01 00:00:00', 3, 'Edsger'); UPDATE customers SET name = 'Ada L.' WHERE id = 1; DELETE FROM customers WHERE id = 2");
    const all = await waitForRecords(h, 'customers', 5);
    // rewrite: the delete arrives as the before row with __deleted "true"; its tombstone is dropped.
    expect(all.slice(2).map((r) => [r.key, r.value])).toEqual([
      ['{"id":3}', '{"created_at":1706745600000,"id":3,"name":"Edsger","__deleted":"false"}'],
      ['{"id":1}', '{"created_at":1704164645000,"id":1,"name":"Ada L.","__deleted":"false"}'],
      ['{"id":2}', '{"created_at":1704164646000,"id":2,"name":"Grace","__deleted":"true"}'],
    ]);

    const status = await (await fetch(`${h.url}/connectors/mysql-source-customers/status`)).json();
    expect(status).toEqual({
      name: 'mysql-source-customers',
      connector: { state: 'RUNNING', worker_id: new URL(h.url).host },
      tasks: [{ id: 0, state: 'RUNNING', worker_id: new URL(h.url).host }],
      type: 'source',
    });
    expect(await (await fetch(`${h.url}/connectors/mysql-source-customers/topics`)).json()).toEqual({ 'mysql-source-customers': { topics: ['customers', 'dbserver1'] } });
  });

  it('accepts the seed variant 2 config unchanged via curl: schemas enabled, topic database.table', async () => {
    const { h } = await start();
    await sql(h, "DELETE FROM customers; INSERT INTO customers (created_at, id, name) VALUES ('2024-01-02 03:04:05', 7, 'Barbara')");
    const res = await curl(['-X', 'POST', '-H', 'Content-Type: application/json', '-d', `@${ASSETS}/source-variant2.json`, `${h.url}/connectors`]);
    expect(res.status).toBe(201);
    const [rec] = await waitForRecords(h, 'demo.customers', 1);
    // Golden shapes: Kafka's JsonConverter envelope; Debezium's Timestamp logical type on DATETIME.
    expect(JSON.parse(rec!.key!)).toEqual({
      schema: { type: 'struct', fields: [{ type: 'int32', optional: false, field: 'id' }], optional: false, name: 'dbserver2.demo.customers.Key' },
      payload: { id: 7 },
    });
    expect(JSON.parse(rec!.value!)).toEqual({
      schema: {
        type: 'struct',
        fields: [
          { type: 'int64', optional: true, name: 'io.debezium.time.Timestamp', version: 1, default: 0, field: 'created_at' },
          { type: 'int32', optional: false, field: 'id' },
          { type: 'string', optional: true, field: 'name' },
          { type: 'string', optional: true, field: '__deleted' },
        ],
        optional: false,
        name: 'dbserver2.demo.customers.Value',
      },
      payload: { created_at: 1704164645000, id: 7, name: 'Barbara', __deleted: 'false' },
    });
    // The key order inside the text is the schema's order, as Jackson writes it.
    expect(rec!.value!.indexOf('"schema"')).toBeLessThan(rec!.value!.indexOf('"payload"'));
  });

  it('after a restart resumes from the stored offsets: no change lost, none repeated, no second snapshot', async () => {
    const { h, dir } = await start();
    await sql(h, "DELETE FROM customers; INSERT INTO customers (id, name) VALUES (1, 'a')");
    await curl(['-X', 'POST', '-H', 'Content-Type: application/json', '--data', `@${ASSETS}/source-variant1.json`, `${h.url}/connectors`]);
    await waitForRecords(h, 'customers', 1);
    await sql(h, "INSERT INTO customers (id, name) VALUES (2, 'b')");
    await waitForRecords(h, 'customers', 2);
    await h.close();
    handles.splice(handles.indexOf(h), 1);

    const { h: h2 } = await start(dir);
    await sql(h2, "INSERT INTO customers (id, name) VALUES (3, 'c'); UPDATE customers SET name = 'b2' WHERE id = 2");
    const recs = await waitForRecords(h2, 'customers', 4);
    await new Promise((r) => setTimeout(r, 300)); // nothing more may arrive
    const again = await h2.api.topicLog.fetch('customers', 0, 0, { maxRecords: 100 });
    expect(again.length).toBe(4);
    expect(recs.map((r) => JSON.parse(r.value!).name)).toEqual(['a', 'b', 'c', 'b2']);
    const offsets = (await (await fetch(`${h2.url}/connectors/mysql-source-customers/offsets`)).json()) as { offsets: { partition: unknown; offset: unknown }[] };
    expect(offsets.offsets).toHaveLength(1);
    expect(offsets.offsets[0].partition).toEqual({ server: 'dbserver1' });
    expect(offsets.offsets[0].offset).toMatchObject({ file: 'mysql-bin.000001', row: 1 });
  });

  it('answers with Kafka Connect error shapes and texts', async () => {
    const { h } = await start();
    const get = async (p: string, init?: RequestInit) => {
      const r = await fetch(h.url + p, init);
      return { status: r.status, body: (r.status === 204 || r.status === 202 ? null : await r.json()) as { error_code: number; message: string } | null };
    };
    const json = (method: string, body: unknown) => ({ method, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    expect(await get('/connectors/nope')).toEqual({ status: 404, body: { error_code: 404, message: 'Connector nope not found' } });
    expect(await get('/nowhere')).toEqual({ status: 404, body: { error_code: 404, message: 'HTTP 404 Not Found' } });
    expect(await get('/connectors', { method: 'DELETE' })).toEqual({ status: 405, body: { error_code: 405, message: 'HTTP 405 Method Not Allowed' } });
    const seed = JSON.parse(fs.readFileSync(`${ASSETS}/source-variant1.json`, 'utf8'));
    expect((await get('/connectors', json('POST', { ...seed, config: { ...seed.config, 'snapshot.mode': 'never' } }))).status).toBe(201);
    expect(await get('/connectors', json('POST', seed))).toEqual({ status: 409, body: { error_code: 409, message: 'Connector mysql-source-customers already exists' } });
    expect(await get('/connectors/other/config', json('PUT', seed.config))).toEqual({
      status: 400,
      body: { error_code: 400, message: "Connector name configuration (mysql-source-customers) doesn't match connector name in the URL (other)" },
    });
    const bad = await get('/connectors', json('POST', '{"name": "x", "config": {"a": "b",}}'));
    expect(bad.status).toBe(500);
    expect(bad.body!.error_code).toBe(500);
    expect(bad.body!.message).toMatch(/^Unexpected character \('}' \(code 125\)\): was expecting double-quote to start field name\n at \[Source: REDACTED/);
    // Offsets can only change when the connector is STOPPED (Kafka Connect 3.6+).
    const patch = await get('/connectors/mysql-source-customers/offsets', json('PATCH', { offsets: [{ partition: { server: 'dbserver1' }, offset: null }] }));
    expect(patch.status).toBe(400);
    expect(patch.body!.message).toBe(
      "Connectors must be in the STOPPED state before their offsets can be modified. This can be done for the specified connector by issuing a 'PUT' request to the '/connectors/mysql-source-customers/stop' endpoint",
    );
    expect((await get('/connectors/mysql-source-customers/stop', { method: 'PUT' })).status).toBe(204);
    expect((await get('/connectors/mysql-source-customers/status')).body).toMatchObject({ connector: { state: 'STOPPED' }, tasks: [] });
    // Debezium 1.9.8 predates Connector.alterOffsets (Kafka 3.6): Worker.completeModifyOffsetsCallback's long text
    expect(await get('/connectors/mysql-source-customers/offsets', { method: 'DELETE' })).toEqual({
      status: 200,
      body: { message: 'The Connect framework-managed offsets for this connector have been reset successfully. However, if this connector manages offsets externally, they will need to be manually reset in the system that the connector uses.' },
    });
    expect((await get('/connectors/mysql-source-customers/resume', { method: 'PUT' })).status).toBe(202);
    expect((await get('/connectors/mysql-source-customers', { method: 'DELETE' })).status).toBe(204);
    expect(await get('/connectors')).toEqual({ status: 200, body: [] });
  });

  it('rejects bad configs with 400 and the validation messages (missing keys, bad regex); an unknown class is a 500, as Plugins.connectorClass throws a ConnectException', async () => {
    const { h } = await start();
    const post = async (config: Record<string, string>) => {
      const r = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bad', config }) });
      return { status: r.status, body: (await r.json()) as { error_code: number; message: string } };
    };
    const unknown = await post({ 'connector.class': 'com.example.Nope' });
    expect(unknown.status).toBe(500);
    expect(unknown.body.error_code).toBe(500);
    expect(unknown.body.message).toMatch(/^Failed to find any class that implements Connector and which name matches com\.example\.Nope, available connectors are: /);
    const noClass = await post({ 'tasks.max': '1' });
    expect(noClass.body).toEqual({ error_code: 400, message: 'Connector config {tasks.max=1, name=bad} contains no connector type' });
    const missing = await post({ 'connector.class': 'io.debezium.connector.mysql.MySqlConnector' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(
      [
        'Connector configuration is invalid and contains the following 3 error(s):',
        "The 'topic.prefix' value is invalid: A value is required (or the older 'database.server.name')",
        "The 'database.hostname' value is invalid: A value is required",
        "The 'database.user' value is invalid: A value is required",
        'You can also find the above list of errors at the endpoint `/connector-plugins/{connectorType}/config/validate`',
      ].join('\n'),
    );
    const seed = JSON.parse(fs.readFileSync(`${ASSETS}/source-variant1.json`, 'utf8')).config;
    const badRegex = await post({ ...seed, name: 'bad', 'transforms.addTopicPrefix.regex': '([^.]+' });
    expect(badRegex.status).toBe(400);
    expect(badRegex.body.message).toContain('Invalid value ([^.]+ for configuration transforms.addTopicPrefix.regex: Invalid regex: ');
    // another host is a real server, read through its binlog (source-address.test.ts), not a bad config
    // validate shows the same per key.
    const v = await fetch(`${h.url}/connector-plugins/MySqlConnector/config/validate`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...seed, 'transforms.unwrap.type': 'io.nope.Unwrap' }) });
    const infos = (await v.json()) as { name: string; error_count: number; configs: { value: { name: string; errors: string[] } }[] };
    expect(infos.name).toBe('io.debezium.connector.mysql.MySqlConnector');
    expect(infos.error_count).toBe(1);
    expect(infos.configs.find((c) => c.value.name === 'transforms.unwrap.type')!.value.errors).toEqual(['Invalid value io.nope.Unwrap for configuration transforms.unwrap.type: Class io.nope.Unwrap could not be found.']);
    expect(await (await fetch(`${h.url}/connectors`)).json()).toEqual([]);
  });

  it('a transform that validates but cannot be configured fails the task at start, as Worker.buildWorkerTask does', async () => {
    const { h } = await start();
    const seed = JSON.parse(fs.readFileSync(`${ASSETS}/source-variant1.json`, 'utf8')).config;
    // InsertField passes ConfigDef validation with no field named, then refuses to configure
    const config = { ...seed, name: 'insert', transforms: 'unwrap,insert', 'transforms.insert.type': 'org.apache.kafka.connect.transforms.InsertField$Value' };
    const r = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'insert', config }) });
    expect(r.status).toBe(201);
    const deadline = Date.now() + 10_000;
    let status: { tasks: { state: string; trace?: string }[] };
    for (;;) {
      status = (await (await fetch(`${h.url}/connectors/insert/status`)).json()) as typeof status;
      if (status.tasks[0]?.state === 'FAILED' || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(status.tasks[0]!.state).toBe('FAILED');
    expect(status.tasks[0]!.trace).toMatch(/^org\.apache\.kafka\.connect\.errors\.ConnectException: org\.apache\.kafka\.common\.config\.ConfigException: No field insertion configured/);
    // nothing reached the topic: the task never ran
    expect(await h.api.topicLog.describeTopic('customers')).toBeUndefined();
  });
});

describe('the embedded source over HTTP (POST /loupe/sql)', () => {
  it('answers a large statement with its digest, not the statement again', async () => {
    const { h } = await start();
    const insert = `INSERT INTO customers (id, name) VALUES ${Array.from({ length: 5000 }, (_, i) => `(${1000 + i}, '${'n'.repeat(200)}')`).join(', ')}`;
    const body = JSON.stringify({ database: 'demo', sql: `${insert}; SELECT COUNT(*) FROM customers WHERE id >= 1000` });
    expect(body.length).toBeGreaterThan(1_000_000);
    const res = await fetch(`${h.url}/loupe/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(2_000);
    const { results } = JSON.parse(text) as { results: Record<string, unknown>[] };
    expect(results.map((r) => 'sql' in r)).toEqual([false, false]);
    expect(results[0]).toMatchObject({
      kind: 'ok',
      affectedRows: 5000,
      statement: { bytes: Buffer.byteLength(insert), sha256: createHash('sha256').update(insert).digest('hex'), head: "INSERT INTO customers (id, name) VALUES (1000, 'nnnnnnnnnnnn…" },
    });
    expect(results[1]).toMatchObject({ kind: 'rows', rows: [[5000]], statement: { head: 'SELECT COUNT(*) FROM customers WHERE id >= 1000' } });
  });
});
