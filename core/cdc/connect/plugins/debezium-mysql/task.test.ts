/**
 * The Debezium MySQL source task against the real embedded source: the envelope exactly,
 * snapshot modes, include lists, delete + tombstone, and resuming from stored offsets (mid
 * snapshot and mid transaction).
 */
import { describe, expect, it, vi } from 'vitest';
import type { SourceRecord } from '../../plugin.js';
import { debeziumMySqlPlugin } from './plugin.js';
import { JsonConverter } from '../../converters/json-converter.js';
import { base, drain, source, task } from './task-harness.test-util.js';

describe('Debezium MySQL source task', () => {
  it('snapshot.mode=initial: rows as op r (last one "last"), then binlog changes as c/u/d with a tombstone after d', async () => {
    const src = await source();
    const t = await task(src, base);
    const snap = await drain(t);
    expect(snap.map((r) => [(r.value as { op: string }).op, (r.value as { source: { snapshot: string } }).source.snapshot])).toEqual([
      ['r', 'true'],
      ['r', 'last'],
    ]);
    src.executeSync('demo', "UPDATE customers SET name = 'Ada L.' WHERE id = 1; DELETE FROM customers WHERE id = 2");
    const stream = await drain(t);
    expect(stream.map((r) => (r.value === null ? 'tombstone' : (r.value as { op: string }).op))).toEqual(['u', 'd', 'tombstone']);
    const u = stream[0]!;
    const pos = src.readTransactions({ file: '', pos: 0 }, 100).at(-2)!;
    expect(u.topic).toBe('dbserver1.demo.customers');
    expect(u.key).toEqual({ id: 1 });
    expect(u.value).toEqual({
      before: { created_at: 1704164645000, id: 1, name: 'Ada' },
      after: { created_at: 1704164645000, id: 1, name: 'Ada L.' },
      source: {
        version: '1.9.8.Final',
        connector: 'mysql',
        name: 'dbserver1',
        ts_ms: Date.UTC(2026, 0, 1, 12, 0, 0), // binlog timestamps have second precision
        snapshot: 'false',
        db: 'demo',
        sequence: null,
        table: 'customers',
        server_id: 1,
        gtid: pos.gtid,
        file: 'mysql-bin.000001',
        pos: pos.pos,
        row: 0,
        thread: pos.thread,
        query: null,
      },
      op: 'u',
      ts_ms: 1767268800456,
      transaction: null,
    });
    expect(stream[2]).toMatchObject({ key: { id: 2 }, value: null, valueSchema: null });
    await t.stop();
  });

  it('snapshot.mode never reads the binlog from its start; schema_only from now; include lists filter tables', async () => {
    const src = await source();
    const never = await drain(await task(src, { ...base, 'snapshot.mode': 'never' }));
    // Everything since the source was created: the demo rows, their deletion, the test rows.
    const ops = never.map((r) => (r.value === null ? 'tombstone' : (r.value as { op: string }).op));
    expect(ops).toEqual(['c', 'c', 'c', 'd', 'tombstone', 'd', 'tombstone', 'd', 'tombstone', 'c', 'c']);
    const schemaOnly = await task(src, { ...base, 'snapshot.mode': 'schema_only' });
    expect(await drain(schemaOnly)).toEqual([]);
    src.executeSync(null, 'CREATE TABLE demo.other (id int primary key); INSERT INTO demo.other VALUES (1)');
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'x')");
    expect((await drain(schemaOnly)).map((r) => r.topic)).toEqual(['dbserver1.demo.customers']);
    const all = await task(src, { ...base, 'table.include.list': 'demo\\..*', 'snapshot.mode': 'initial_only' });
    expect(new Set((await drain(all)).map((r) => r.topic))).toEqual(new Set(['dbserver1.demo.customers', 'dbserver1.demo.other']));
  });

  it('goes on with an interrupted snapshot after its last stored row, at the position it had, and resumes a stream mid-transaction after the last stored event', async () => {
    const src = await source();
    const at = src.position();
    const first = await task(src, { ...base, 'max.batch.size': '1', 'include.schema.changes': 'false' });
    const [one] = await first.poll();
    expect((one!.value as { after: { id: number } }).after.id).toBe(1);
    // MySqlOffsetContext's keys, and Loupe's two that name the row
    expect(one!.sourceOffset).toEqual({ file: at.file, pos: at.pos, gtids: at.gtidSet, ts_sec: 1767268800, snapshot: true, snapshot_table: 'demo.customers', snapshot_rowid: 1 });
    // written after the interrupted snapshot began: streaming from its position replays it
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (4, 'Hedy')");
    const again = await task(src, { ...base, 'max.batch.size': '1' }, one!.sourceOffset);
    const rest = await drain(again);
    // row 1 is not sent again (Debezium 1.9 would take the snapshot again from its start), and
    // row 4, committed after the snapshot's position, is not in the snapshot: it comes once, as c
    expect(rest.map((r) => [(r.value as { op: string }).op, (r.value as { after: { id: number } }).after.id, (r.value as { source: { snapshot: string; pos: number } }).source.snapshot])).toEqual([
      ['r', 2, 'last'],
      ['c', 4, 'false'],
    ]);
    expect((rest[0]!.value as { source: { pos: number } }).source.pos).toEqual(at.pos);
    // the last snapshot record's offset is a streaming one: a restart after it takes no snapshot
    expect(rest[0]!.sourceOffset).toEqual({ file: at.file, pos: at.pos, gtids: at.gtidSet, ts_sec: 1767268800 });
    expect(await drain(await task(src, base, rest[0]!.sourceOffset))).toMatchObject([{ value: { op: 'c', after: { id: 4 } } }]);
    // stopped before any row was stored (only the position): the snapshot starts over
    const { snapshot_table: _t, snapshot_rowid: _r, ...beforeRows } = one!.sourceOffset;
    expect((await drain(await task(src, { ...base, 'include.schema.changes': 'false' }, beforeRows))).map((r) => (r.value as { after: { id: number } }).after.id)).toEqual([1, 2, 4]);
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (5, 'a'), (6, 'b'), (7, 'c')");
    const s1 = await task(src, base, rest.at(-1)!.sourceOffset);
    const all = await drain(s1);
    expect(all.map((r) => (r.value as { after: { id: number } }).after.id)).toEqual([5, 6, 7]);
    // Stored after the second event of that transaction: only the third comes again.
    const s2 = await task(src, base, all[1]!.sourceOffset);
    expect((await drain(s2)).map((r) => (r.value as { after: { id: number } }).after.id)).toEqual([7]);
  });

  it('max.batch.size: a large transaction is split over polls (offset row says how far), small ones fill one poll', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'snapshot.mode': 'schema_only', 'max.batch.size': '4', 'include.schema.changes': 'false' });
    expect(await drain(t)).toEqual([]);
    const values = Array.from({ length: 10 }, (_, i) => `(${100 + i}, 'r${i}')`).join(', ');
    src.executeSync('demo', `INSERT INTO customers (id, name) VALUES ${values}`);
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (200, 'x')");
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (201, 'y')");
    const polls: SourceRecord[][] = [];
    for (let i = 0; i < 5; i++) {
      const b = await t.poll();
      if (!b.length) break;
      polls.push(b);
    }
    const ids = (rs: SourceRecord[]) => rs.map((r) => (r.value as { after: { id: number } }).after.id);
    expect(polls.map(ids)).toEqual([[100, 101, 102, 103], [104, 105, 106, 107], [108, 109, 200, 201]]);
    expect(polls[0]!.at(-1)!.sourceOffset).toMatchObject({ row: 4 });
    // A restart from the offset stored after the first poll continues inside the transaction.
    const resumed = await task(src, { ...base, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false' }, polls[0]!.at(-1)!.sourceOffset);
    expect(ids(await drain(resumed))).toEqual([104, 105, 106, 107, 108, 109, 200, 201]);
  });

  it('a poll building a full batch gives the event loop a turn every millisecond, and its records are the same', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false' });
    expect(await drain(t)).toEqual([]);
    const values = Array.from({ length: 3000 }, (_, i) => `(${1000 + i}, 'r${i}')`).join(', ');
    src.executeSync('demo', `INSERT INTO customers (id, name) VALUES ${values}`);
    // A clock that moves two milliseconds per reading: every 256th record finds a turn due.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 2));
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const batch = await t.poll();
      ticking = false;
      expect(batch.map((r) => (r.value as { after: { id: number } }).after.id)).toEqual(Array.from({ length: 2048 }, (_, i) => 1000 + i));
      expect(batch.map((r) => (r.sourceOffset as { row: number }).row)).toEqual(Array.from({ length: 2048 }, (_, i) => i + 1));
      expect(turns).toBeGreaterThanOrEqual(Math.floor(2048 / 256) - 1);
    } finally {
      ticking = false;
      now.mockRestore();
    }
    // the rest of the transaction, from where the sliced poll stopped
    expect((await drain(t)).map((r) => (r.value as { after: { id: number } }).after.id)).toEqual(Array.from({ length: 3000 - 2048 }, (_, i) => 3048 + i));
  });

  it('an update of the primary key is a delete of the old key (its tombstone alike) and a create of the new, each naming the other key in a header', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false' });
    expect(await drain(t)).toEqual([]);
    src.executeSync('demo', "UPDATE customers SET id = 10 WHERE id = 1; UPDATE customers SET name = 'G' WHERE id = 2");
    const recs = await drain(t);
    expect(recs.map((r) => [r.key, r.value === null ? 'tombstone' : (r.value as { op: string }).op, r.headers ?? []])).toEqual([
      [{ id: 1 }, 'd', [{ key: '__debezium.newkey', value: '{"id":10}' }]],
      [{ id: 1 }, 'tombstone', [{ key: '__debezium.newkey', value: '{"id":10}' }]],
      [{ id: 10 }, 'c', [{ key: '__debezium.oldkey', value: '{"id":1}' }]],
      [{ id: 2 }, 'u', []],
    ]);
    const [d, , c] = recs as [SourceRecord, SourceRecord, SourceRecord];
    expect(d.value).toMatchObject({ before: { id: 1, name: 'Ada' }, after: null, op: 'd' });
    expect(c.value).toMatchObject({ before: null, after: { id: 10, name: 'Ada' }, op: 'c' });
    // both carry the update's position: a restart after either resumes after the whole event
    expect(c.sourceOffset).toEqual(d.sourceOffset);
  });

  it('schema change events: the snapshot DDL, then streamed DDL, to the topic named after the prefix', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'table.include.list': 'demo\\..*' });
    const snap = (await drain(t, 10, true)).filter((r) => r.topic === 'dbserver1');
    // MySqlSnapshotChangeEventSource.readTableStructure
    expect(snap.map((r) => (r.value as { ddl: string }).ddl.split('\n')[0])).toEqual([
      'SET character_set_server=utf8mb4, collation_server=utf8mb4_0900_ai_ci',
      'DROP TABLE IF EXISTS `demo`.`customers`',
      'DROP DATABASE IF EXISTS `demo`',
      'CREATE DATABASE `demo` CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci',
      'USE `demo`',
      'CREATE TABLE `customers` (',
    ]);
    expect(snap.map((r) => [(r.key as { databaseName: string }).databaseName, (r.value as { source: { table: string | null } }).source.table, (r.value as { tableChanges: unknown[] }).tableChanges.length])).toEqual([
      ['', null, 0],
      ['demo', 'customers', 0],
      ['demo', null, 0],
      ['demo', null, 0],
      ['demo', null, 0],
      ['demo', 'customers', 1],
    ]);
    expect((snap[5]!.value as { tableChanges: unknown[] }).tableChanges[0]).toMatchObject({
      type: 'CREATE',
      id: '"demo"."customers"',
      table: { primaryKeyColumnNames: ['id'], columns: [{ name: 'created_at', jdbcType: 93, typeName: 'DATETIME', position: 1, optional: true }, { name: 'id', jdbcType: 4 }, { name: 'name', jdbcType: 12, length: 255 }] },
    });
    src.executeSync('demo', 'CREATE TABLE audit (id int primary key, note text)');
    const [ddl] = (await drain(t, 10, true)).filter((r) => r.topic === 'dbserver1');
    expect(ddl!.value).toMatchObject({ databaseName: 'demo', ddl: 'CREATE TABLE audit (id int primary key, note text)', source: { snapshot: 'false', table: 'audit' } });
    // a DROP carries the table as it was, and the whole event serializes with its schema
    src.executeSync('demo', 'DROP TABLE audit');
    const [drop] = (await drain(t, 10, true)).filter((r) => r.topic === 'dbserver1');
    expect((drop!.value as { tableChanges: unknown[] }).tableChanges).toEqual([
      expect.objectContaining({ type: 'DROP', id: '"demo"."audit"', table: expect.objectContaining({ primaryKeyColumnNames: ['id'], columns: [expect.objectContaining({ name: 'id', comment: null }), expect.objectContaining({ name: 'note' })], comment: null }) }),
    ]);
    const json = JSON.parse(new JsonConverter({ 'schemas.enable': 'true' }).fromConnectData('dbserver1', drop!.valueSchema, drop!.value)!) as { schema: { fields: { field: string; optional: boolean }[] } };
    expect(json.schema.fields.map((f) => [f.field, f.optional])).toEqual([
      ['source', false],
      ['databaseName', true],
      ['schemaName', true],
      ['ddl', true],
      ['tableChanges', false],
    ]);
    const none = await task(src, { ...base, 'include.schema.changes': 'false' });
    expect((await drain(none, 10, true)).some((r) => r.topic === 'dbserver1')).toBe(false);
  });

  it('TRUNCATE sends no data records, only a schema change event without table changes, as Debezium 1.9 does', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'snapshot.mode': 'schema_only' });
    await drain(t, 10, true);
    src.executeSync('demo', 'TRUNCATE TABLE customers');
    const recs = await drain(t, 10, true);
    expect(recs.map((r) => r.topic)).toEqual(['dbserver1']);
    expect(recs[0]!.value).toMatchObject({ databaseName: 'demo', ddl: 'TRUNCATE TABLE customers', tableChanges: [] });
  });

  it('validates: missing keys, bad snapshot mode; another host is a real server, not an error', async () => {
    const errs = await debeziumMySqlPlugin.validate({ 'database.hostname': 'db.example.com', 'snapshot.mode': 'sometimes' }, undefined as never);
    expect(errs['database.hostname']).toBeUndefined();
    expect(errs['database.user']).toEqual(["The 'database.user' value is invalid: A value is required"]);
    expect(errs['snapshot.mode']![0]).toContain("The 'snapshot.mode' value 'sometimes' is invalid");
    expect(debeziumMySqlPlugin.taskConfigs({ 'tasks.max': '2' }, 2)).toHaveLength(1);
  });

  it('a task whose source was closed fails its poll instead of answering "nothing yet" forever', async () => {
    const src = await source();
    const t = await task(src, base);
    await drain(t, 20);
    await src.close();
    // An empty answer would make the runner poll again at once: a busy loop that starves every timer.
    await expect(t.poll()).rejects.toThrow('the embedded source is closed');
  });
});
