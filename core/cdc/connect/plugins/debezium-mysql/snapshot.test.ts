/**
 * The snapshot and the schema history against Debezium 1.9.8.Final: MySqlConnectorConfig.SnapshotMode,
 * MySqlConnectorTask (validateAndLoadDatabaseHistory, validateSnapshotFeasibility),
 * MySqlSnapshotChangeEventSource and RelationalSnapshotChangeEventSource (order of tables, source
 * block, offsets, schema change events), MySqlDatabaseSchema (which DDL is sent).
 */
import { describe, expect, it, vi } from 'vitest';
import type { SourceRecord } from '../../plugin.js';
import { debeziumMySqlPlugin } from './plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';

type Env = { op: string; after: Record<string, unknown> | null; source: Record<string, unknown> };
const env = (r: SourceRecord) => r.value as Env;
const ddl = (r: SourceRecord) => (r.value as { ddl: string }).ddl.split('\n')[0];
const schemaEvents = (rs: SourceRecord[]) => rs.filter((r) => r.topic === 'dbserver1');

describe('snapshot records', () => {
  it('tables in table.include.list order; source.ts_ms is the table read start in whole seconds, server_id 0, row 0, no thread', async () => {
    const src = await source();
    src.executeSync('demo', 'CREATE TABLE zeta (id int primary key); INSERT INTO zeta VALUES (9)');
    const at = src.position();
    const t = await task(src, { ...base, 'table.include.list': 'demo\\.zeta,demo\\.customers', 'include.schema.changes': 'false' });
    const recs = await drain(t);
    expect(recs.map((r) => r.topic)).toEqual(['dbserver1.demo.zeta', 'dbserver1.demo.customers', 'dbserver1.demo.customers']);
    expect(env(recs[0]!).source).toEqual({ version: '1.9.8.Final', connector: 'mysql', name: 'dbserver1', ts_ms: 1767268800000, snapshot: 'true', db: 'demo', sequence: null, table: 'zeta', server_id: 0, gtid: null, file: at.file, pos: at.pos, row: 0, thread: null, query: null });
    expect(env(recs[0]!)).toMatchObject({ op: 'r', ts_ms: 1767268800456 });
  });

  it('the last record is marked "last" even when the last table is empty, and its offset ends the snapshot', async () => {
    const src = await source();
    src.executeSync('demo', 'CREATE TABLE zeta (id int primary key)');
    const t = await task(src, { ...base, 'table.include.list': 'demo\\..*', 'include.schema.changes': 'false' });
    const recs = await drain(t);
    expect(recs.map((r) => [env(r).source.table, env(r).source.snapshot, 'snapshot' in r.sourceOffset])).toEqual([
      ['customers', 'true', true],
      ['customers', 'last', false],
    ]);
  });

  it('snapshot.fetch.size: rows per read of a table', async () => {
    const src = await source();
    const scan = vi.spyOn(src, 'scan');
    const t = await task(src, { ...base, 'snapshot.fetch.size': '1' });
    expect((await drain(t)).map((r) => env(r).after!.id)).toEqual([1, 2]);
    expect(scan.mock.calls.every((c) => c[3] === 1)).toBe(true);
  });
});

describe('snapshot.mode', () => {
  it('initial_only: after a completed snapshot a restart neither snapshots nor streams', async () => {
    const src = await source();
    const recs = await drain(await task(src, { ...base, 'snapshot.mode': 'initial_only', 'include.schema.changes': 'false' }));
    expect(recs).toHaveLength(2);
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'x')");
    const again = await task(src, { ...base, 'snapshot.mode': 'initial_only' }, recs[1]!.sourceOffset);
    expect(await again.poll()).toEqual([]);
  });

  it('never after an interrupted snapshot, and schema_only_recovery (recovery) without an offset, fail the task as Debezium does', async () => {
    const src = await source();
    const [first] = await (await task(src, { ...base, 'max.batch.size': '1', 'include.schema.changes': 'false' })).poll();
    await expect(task(src, { ...base, 'snapshot.mode': 'never' }, first!.sourceOffset)).rejects.toThrow('The connector previously stopped while taking a snapshot, but now the connector is configured to never allow snapshots');
    for (const mode of ['schema_only_recovery', 'recovery']) {
      await expect(task(src, { ...base, 'snapshot.mode': mode })).rejects.toThrow('Could not find existing binlog information while attempting schema only recovery snapshot');
    }
    // with an offset the schema history (the embedded source's catalogue) is there: streaming goes on
    const last = (await drain(await task(src, { ...base, 'include.schema.changes': 'false' }))).at(-1)!;
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'x')");
    expect((await drain(await task(src, { ...base, 'snapshot.mode': 'recovery' }, last.sourceOffset))).map((r) => env(r).op)).toEqual(['c']);
  });

  it('schema_only and no_data: the schema change events, the last one "last", then streaming from the snapshot position', async () => {
    const src = await source();
    for (const mode of ['schema_only', 'no_data']) {
      const t = await task(src, { ...base, 'snapshot.mode': mode });
      const snap = await drain(t, 10, true);
      expect(snap.map(ddl)).toEqual(['SET character_set_server=utf8mb4, collation_server=utf8mb4_0900_ai_ci', 'DROP TABLE IF EXISTS `demo`.`customers`', 'DROP DATABASE IF EXISTS `demo`', 'CREATE DATABASE `demo` CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci', 'USE `demo`', 'CREATE TABLE `customers` (']);
      expect(snap.map((r) => env(r).source.snapshot)).toEqual(['true', 'true', 'true', 'true', 'true', 'last']);
      expect(snap.at(-1)!.sourceOffset).not.toHaveProperty('snapshot');
      src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'x'); DELETE FROM customers WHERE id = 3");
      expect((await drain(t)).map((r) => (r.value ? env(r).op : 'tombstone'))).toEqual(['c', 'd', 'tombstone']);
    }
  });

  it('a stored position the source no longer has: when_needed snapshots again, the other modes fail the task', async () => {
    const src = await source();
    const gone = [
      { file: 'mysql-bin.000001', pos: 4, gtids: '3e11fa47-71ca-11e1-9e33-c80aa9429562:1-20', row: 0 },
      { file: 'mysql-bin.000001', pos: 4, gtids: `${src.info().serverUuid}:1-${src.position().seq + 5}`, row: 0 },
      { file: 'mysql-bin.000042', pos: 4, row: 0 },
    ];
    for (const offset of gone) {
      await expect(task(src, base, offset)).rejects.toThrow('but this is no longer available on the server. Reconfigure the connector to use a snapshot when needed.');
      const recs = await drain(await task(src, { ...base, 'snapshot.mode': 'when_needed', 'include.schema.changes': 'false' }, offset));
      expect(recs.map((r) => [env(r).op, env(r).source.snapshot])).toEqual([
        ['r', 'true'],
        ['r', 'last'],
      ]);
    }
    // a position it has streams as before
    const here = { file: src.position().file, pos: src.position().pos, gtids: src.position().gtidSet, row: 0 };
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'x')");
    expect((await drain(await task(src, { ...base, 'snapshot.mode': 'when_needed' }, here))).map((r) => env(r).op)).toEqual(['c']);
  });
});

describe('schema change events', () => {
  it('carry the DDL of tables outside table.include.list, in the snapshot and while streaming, unless store.only.captured.tables.ddl', async () => {
    const src = await source();
    src.executeSync('demo', 'CREATE TABLE other (id int primary key)');
    const all = await task(src, base);
    expect(schemaEvents(await drain(all, 10, true)).map(ddl)).toContain('CREATE TABLE `other` (');
    src.executeSync('demo', 'CREATE TABLE another (id int primary key)');
    const streamed = schemaEvents(await drain(all, 10, true));
    expect(streamed.map(ddl)).toEqual(['CREATE TABLE another (id int primary key)']);
    // MySqlStreamingChangeEventSource: parseStreamingDdl is given the connector's clock
    expect(env(streamed[0]!).source.ts_ms).toBe(1767268800456);
    for (const key of ['database.history.store.only.captured.tables.ddl', 'schema.history.internal.store.only.captured.tables.ddl']) {
      const only = await task(src, { ...base, [key]: 'true' });
      expect(schemaEvents(await drain(only, 10, true)).map(ddl)).toEqual(['SET character_set_server=utf8mb4, collation_server=utf8mb4_0900_ai_ci', 'DROP TABLE IF EXISTS `demo`.`customers`', 'DROP DATABASE IF EXISTS `demo`', 'CREATE DATABASE `demo` CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci', 'USE `demo`', 'CREATE TABLE `customers` (']);
      src.executeSync('demo', `ALTER TABLE another ADD COLUMN ${key.startsWith('database') ? 'note' : 'memo'} text`);
      expect(schemaEvents(await drain(only, 10, true))).toEqual([]);
    }
  });

  it('table.ignore.builtin: the mysql, sys, performance_schema and information_schema databases are left out unless it is false', async () => {
    const src = await source();
    src.executeSync(null, 'CREATE DATABASE sys; CREATE TABLE sys.t (id int primary key); INSERT INTO sys.t VALUES (1)');
    const cfg = { ...base, 'table.include.list': '.*' };
    const ignored = await drain(await task(src, cfg), 10, true);
    expect(ignored.filter((r) => r.topic === 'dbserver1.sys.t')).toEqual([]);
    expect(schemaEvents(ignored).some((r) => (r.key as { databaseName: string }).databaseName === 'sys')).toBe(false);
    const kept = await drain(await task(src, { ...cfg, 'table.ignore.builtin': 'false' }), 10, true);
    expect(kept.filter((r) => r.topic === 'dbserver1.sys.t').map((r) => env(r).after)).toEqual([{ id: 1 }]);
    expect(schemaEvents(kept).map(ddl)).toContain('CREATE DATABASE `sys` CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci');
  });

  it('a change after an ALTER carries the new schema', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'include.schema.changes': 'false' });
    await drain(t);
    src.executeSync('demo', "ALTER TABLE customers ADD COLUMN tier int; INSERT INTO customers (id, name, tier) VALUES (3, 'x', 7)");
    const [c] = await drain(t);
    expect(env(c!).after).toMatchObject({ id: 3, tier: 7 });
    expect(c!.valueSchema!.fields!.find((f) => f.field === 'after')!.fields!.map((f) => f.field)).toContain('tier');
  });
});

describe('snapshot options', () => {
  it('validates snapshot.locking.mode, snapshot.new.tables and snapshot.fetch.size as MySqlConnectorConfig does, and accepts their values', async () => {
    const errs = await debeziumMySqlPlugin.validate({ ...base, 'snapshot.locking.mode': 'total', 'snapshot.new.tables': 'now', 'snapshot.fetch.size': '-1' }, undefined as never);
    expect(errs['snapshot.locking.mode']![0]).toContain('Value must be one of extended, minimal, minimal_percona, none');
    expect(errs['snapshot.new.tables']![0]).toContain('Value must be one of off, parallel');
    expect(errs['snapshot.fetch.size']).toHaveLength(1);
    const ok = await debeziumMySqlPlugin.validate({ ...base, 'snapshot.locking.mode': 'none', 'snapshot.new.tables': 'parallel', 'snapshot.fetch.size': '100', 'table.ignore.builtin': 'true', 'database.history.skip.unparseable.ddl': 'true', 'snapshot.mode': 'no_data' }, undefined as never);
    expect(Object.values(ok).flat()).toEqual([]);
  });
});
