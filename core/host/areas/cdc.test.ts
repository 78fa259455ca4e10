/**
 * The cdc contract methods over a real pipeline: embedded source → Debezium-style source
 * connector → topic log → ClickHouse sink → embedded ClickHouse (chDB), driven as the UI would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@clickhouse/client';
import type { ServiceHandle } from '../../common/service.js';
import type { ConnectApi } from '../../cdc/connect/service.js';
import { HostCallError } from '../area.js';
import type { CdcProgressEvent } from '../contract.js';
import { startCdcRuntime, until, type CdcTestRuntime } from '../testing/cdc-runtime.js';

const ASSETS = path.resolve(__dirname, '../../../assets/cdc');
let env: CdcTestRuntime;
let connect: ServiceHandle<ConnectApi>;
let ch: ServiceHandle<unknown>;
const progress: CdcProgressEvent[] = [];

beforeAll(async () => {
  env = await startCdcRuntime({
    prefix: 'loupe-cdc-area-',
    emit: (event, payload) => {
      if (event === 'cdc.progress') progress.push(payload as CdcProgressEvent);
    },
  });
  ({ connect, ch } = env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const call: CdcTestRuntime['call'] = (method, params) => env.call(method, params);

describe('cdc contract over the embedded pipeline', () => {
  it('shows the source, runs SQL with MySQL errors, and lists the change log with positions', async () => {
    const src = await call('cdc.source', {});
    const customers = src.databases.find((d) => d.name === 'demo')!.tables.find((t) => t.name === 'customers')!;
    expect(customers.columns.map((c) => [c.name, c.type, c.key])).toEqual([
      ['created_at', 'datetime', ''],
      ['id', 'int', 'PRI'],
      ['name', 'varchar(255)', ''],
    ]);
    await call('cdc.sql', { sql: "DELETE FROM customers; INSERT INTO customers (created_at, id, name) VALUES ('2024-01-01 00:00:00', 1, 'a'), ('2024-01-01 00:00:00', 2, 'b')" });
    try {
      await call('cdc.sql', { sql: 'SELECT * FROM nope' });
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(HostCallError);
      expect((err as HostCallError).detail).toEqual({ errno: 1146, sqlState: '42S02', message: "Table 'demo.nope' doesn't exist", text: "ERROR 1146 (42S02): Table 'demo.nope' doesn't exist" });
    }
    // A real MySQL through mysql2: nothing listens on port 1, so the mysql client's 2003.
    await expect(call('cdc.remoteSql', { connection: { host: '127.0.0.1', port: 1, user: 'root' }, sql: 'SELECT 1' })).rejects.toMatchObject({ detail: { errno: 2003, sqlState: 'HY000' } });
    const log = await call('cdc.changeLog', { last: 1 });
    expect(log.transactions[0]!.events.map((e) => [e.op, e.after?.id])).toEqual([
      ['c', 1],
      ['c', 2],
    ]);
    expect(log.transactions[0]!.nextPos).toBe(log.head.pos);
  });

  it('runs the seed pipeline (variant 1 source + sink) and follows each change to its topic offset, insert block and part', async () => {
    const client = createClient({ url: ch.url });
    await client.command({ query: fs.readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8').replace(/^--.*$/gm, '') });
    await client.close();
    await call('cdc.watch', {});
    const source = JSON.parse(fs.readFileSync(path.join(ASSETS, 'source-variant1.json'), 'utf8'));
    const sink = JSON.parse(fs.readFileSync(path.join(ASSETS, 'sink-variant1.json'), 'utf8'));
    await call('cdc.createConnector', source);
    await call('cdc.createConnector', { name: sink.name, config: { ...sink.config, port: new URL(ch.url).port } });
    // The snapshot (op r) comes first; changes after it stream from the binlog.
    await until('snapshot written', async () => (await call('cdc.messages', { topic: 'customers' }).catch(() => ({ end: 0 }))).end >= 2);
    await call('cdc.sql', { sql: "UPDATE customers SET name = 'a2', created_at = '2024-01-02 00:00:00' WHERE id = 1; DELETE FROM customers WHERE id = 2" });

    const final = await until('target FINAL shows the source', async () => {
      const r = await call('cdc.targetRows', { table: 'customers', final: true, orderBy: 'id' });
      return r.rows.length === 1 && r.rows[0]!.name === 'a2' ? r : undefined;
    });
    expect(final.rows.map((r) => [Number(r.id), r.name])).toEqual([[1, 'a2']]);
    const raw = await call('cdc.targetRows', { table: 'customers', orderBy: 'id' });
    expect(raw.rows.length).toBeGreaterThan(1);
    expect(raw.rows.every((r) => typeof r._part === 'string')).toBe(true);

    const msgs = await call('cdc.messages', { topic: 'customers', latestPerKey: true });
    expect(msgs.messages.map((m) => [m.key, (m.json as { name: string; __deleted: string }).__deleted])).toEqual([
      ['{"id":1}', 'false'],
      ['{"id":2}', 'true'],
    ]);

    const pipe = await call('cdc.pipeline', { table: 'customers', targetTable: 'customers' });
    const upd = pipe.steps.find((s) => s.source.op === 'u')!;
    expect(upd.messages).toHaveLength(1);
    expect(upd.messages[0]).toMatchObject({ connector: 'mysql-source-customers', topic: 'customers', partition: 0 });
    // each hop's moment: committed, written to the topic, inserted
    expect(upd.messages[0]!.at).toBeGreaterThanOrEqual(upd.source.ts);
    expect(upd.blocks[0]!.at).toBeGreaterThanOrEqual(upd.messages[0]!.at);
    expect(upd.blocks[0]!.token).toBe(`customers-0-${upd.blocks[0]!.firstOffset}-${upd.blocks[0]!.lastOffset}`);
    expect(upd.parts!.length).toBeGreaterThan(0);
    // the rows inserted before the connector existed reached the topic through its snapshot
    const seeded = pipe.steps.find((s) => s.source.op === 'c')!;
    expect(seeded.messages).toHaveLength(0);
    expect(seeded.note).toMatch(/^Committed before the source connector's initial snapshot \(taken at mysql-bin\.\d+:\d+\): the snapshot read this row/);

    const conns = await call('cdc.connectors', {});
    expect(conns.connectors.map((c) => [c.name, c.state, c.tasks.map((t) => t.state)])).toEqual([
      ['clickhouse-sink', 'RUNNING', ['RUNNING']],
      ['mysql-source-customers', 'RUNNING', ['RUNNING']],
    ]);
    expect(progress.some((p) => p.kind === 'sink' && p.connector === 'clickhouse-sink')).toBe(true);

    const opt = await call('cdc.optimizeFinalCleanup', { table: 'customers' });
    expect(opt.statement).toBe('OPTIMIZE TABLE `default`.`customers` FINAL CLEANUP');
    const after = await call('cdc.targetRows', { table: 'customers', orderBy: 'id' });
    expect(after.rows.map((r) => [Number(r.id), r.name])).toEqual([[1, 'a2']]);

    const restarted = await call('cdc.connectorAction', { name: 'mysql-source-customers', action: 'restart', includeTasks: true });
    expect(restarted.status).toBe(202);
    expect(restarted.connector!.name).toBe('mysql-source-customers');
  }, 120_000);

  it('gives a BIGINT beyond 2^53 exactly: SQL results, the change log and a topic message parsed', async () => {
    await call('cdc.sql', { sql: 'CREATE TABLE big_ids (id BIGINT PRIMARY KEY, n INT); INSERT INTO big_ids VALUES (4611686018427387907, 1)' });
    const r = await call('cdc.sql', { sql: 'SELECT id, n FROM big_ids' });
    expect(r.results.at(-1)!.rows).toEqual([[4611686018427387907n, 1]]);
    const log = await call('cdc.changeLog', { last: 1 });
    expect(log.transactions[0]!.events.map((e) => e.after)).toEqual([{ id: 4611686018427387907n, n: 1 }]);
    const topicLog = (connect.api as unknown as { topicLog: import('../../cdc/log/types.js').TopicLog }).topicLog;
    await topicLog.produce('big_ids', [{ key: '{"id":4611686018427387907}', value: '{"id":4611686018427387907,"n":1}' }]);
    const msgs = await call('cdc.messages', { topic: 'big_ids' });
    expect(msgs.messages.map((m) => m.json)).toEqual([{ id: 4611686018427387907n, n: 1 }]);
    // the target's rows: this ClickHouse writes 64-bit integers in JSON unquoted
    const client = createClient({ url: ch.url });
    await client.command({ query: 'CREATE TABLE big_target (id Int64, u UInt64) ENGINE = ReplacingMergeTree ORDER BY id' });
    await client.command({ query: 'INSERT INTO big_target VALUES (4611686018427387907, 18446744073709551615)' });
    await client.close();
    for (const final of [false, true]) {
      const target = await call('cdc.targetRows', { table: 'big_target', final });
      expect(target.rows.map(({ id, u }) => ({ id, u }))).toEqual([{ id: 4611686018427387907n, u: 18446744073709551615n }]);
    }
  });

  it('lists a failed connector first with its trace', async () => {
    const sink = JSON.parse(fs.readFileSync(path.join(ASSETS, 'sink-variant1.json'), 'utf8'));
    // A sink whose target table does not exist fails on its first batch.
    await call('cdc.createConnector', { name: 'broken-sink', config: { ...sink.config, name: 'broken-sink', port: new URL(ch.url).port, exactlyOnce: 'false', 'topic2TableMap': 'customers=no_such_table' } });
    const list = await until('broken sink failed', async () => {
      const r = await call('cdc.connectors', {});
      return r.connectors[0]?.failed ? r : undefined;
    });
    expect(list.connectors[0]!.name).toBe('broken-sink');
    expect(list.connectors[0]!.tasks[0]!.state).toBe('FAILED');
    expect(list.connectors[0]!.tasks[0]!.trace).toMatch(/^org\.apache\.kafka\.connect\.errors\.ConnectException: Exiting WorkerSinkTask due to unrecoverable exception\./);
  }, 60_000);
});
