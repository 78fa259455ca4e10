/**
 * The target visualizer's host methods over the real embedded ClickHouse and source: windows of
 * the Raw view grouped by key with the winner and why, FINAL windows in key order, the cleanup's
 * before and after tables with what it removed, and the source-against-target check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostCallError } from '../area.js';
import { startCdcRuntime, type CdcTestRuntime } from '../testing/cdc-runtime.js';

let env: CdcTestRuntime;
const call: CdcTestRuntime['call'] = (method, params) => env.call(method, params);
const T = { table: 'versions_demo' };

beforeAll(async () => {
  env = await startCdcRuntime({ prefix: 'loupe-cdc-view-' });
  await call('cdc.targetSql', { sql: 'CREATE TABLE versions_demo (id Int64, name String, created_at DateTime64(3), __deleted UInt8) ENGINE = ReplacingMergeTree(created_at, __deleted) ORDER BY id SETTINGS allow_experimental_replacing_merge_with_cleanup = 1' });
  await call('cdc.merges', { ...T, stopped: true });
  // four insert blocks: four parts while merges are stopped
  const inserts = [
    "(1, 'Ada', '2030-01-01 00:00:01', 0), (2, 'Grace', '2030-01-01 00:00:01', 0), (3, 'Alan', '2030-01-01 00:00:01', 0)",
    "(1, 'Ada L.', '2030-01-01 00:00:02', 0)",
    "(2, 'Grace', '2030-01-01 00:00:03', 1)",
    "(3, 'Alan T.', '2030-01-01 00:00:01', 0)",
  ];
  for (const values of inserts) await call('cdc.targetSql', { sql: `INSERT INTO versions_demo VALUES ${values}` });
  await call('cdc.sql', { database: 'demo', sql: "CREATE TABLE versions_demo (id BIGINT PRIMARY KEY, name VARCHAR(100)); INSERT INTO versions_demo VALUES (1, 'Ada L.'), (3, 'Alan T.'), (4, 'Barbara')" });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe("the target's views, windowed by the host", () => {
  it('groups every physical version by id with its part, the winner and why, and pages through the lines', async () => {
    const raw = await call('cdc.targetView', { ...T, view: 'raw' });
    expect(raw.columns).toMatchObject({ key: 'id', version: 'created_at', deleted: '__deleted', all: ['id', 'name', 'created_at', '__deleted'] });
    expect(raw.total).toBe(6);
    expect(raw.keys).toBe(3);
    expect(raw.parts.filter((p) => p.active)).toHaveLength(4);
    expect(raw.lines.map((l) => [l.key, l.row.name, l.winner, l.first, l.count])).toEqual([
      ['1', 'Ada', false, true, 2],
      ['1', 'Ada L.', true, false, 2],
      ['2', 'Grace', false, true, 2],
      ['2', 'Grace', true, false, 2],
      ['3', 'Alan', false, true, 2],
      ['3', 'Alan T.', true, false, 2],
    ]);
    expect(raw.lines[1]!.why).toBe('highest version 2030-01-01 00:00:02.000');
    expect(raw.lines[3]!.why).toBe('highest version 2030-01-01 00:00:03.000; it is a delete, so the id vanishes');
    expect(raw.lines[5]!.why).toMatch(/^version 2030-01-01 00:00:01.000 ties; the last inserted \(part all_4_4_\d+\) wins$/);

    const page = await call('cdc.targetView', { ...T, view: 'raw', offset: 2, limit: 2 });
    expect(page.total).toBe(6);
    expect(page.offset).toBe(2);
    expect(page.lines.map((l) => [l.key, l.part])).toEqual([
      ['2', raw.lines[2]!.part],
      ['2', raw.lines[3]!.part],
    ]);
    // nothing changed: the same generation, so the page keeps its windows
    expect(page.generation).toBe(raw.generation);
  });

  it('reads FINAL in key order, a window at a time, with its total', async () => {
    const fin = await call('cdc.targetView', { ...T, view: 'final', offset: 1, limit: 5 });
    expect(fin.total).toBe(2);
    expect(fin.rows.map((r) => [String(r.id), r.name])).toEqual([['3', 'Alan T.']]);
    const none = await call('cdc.targetView', { ...T, view: 'final', limit: 0 });
    expect(none.rows).toEqual([]);
    expect(none.total).toBe(2);
  });

  it('lists the ids where FINAL differs from the source', async () => {
    const cmp = await call('cdc.targetCompare', { source: { database: 'demo', table: 'versions_demo' }, target: T, columns: ['name'] });
    expect(cmp).toMatchObject({ key: 'id', columns: ['name'], equal: false, sourceRows: 3, targetRows: 2, count: 1 });
    expect(cmp.differing).toEqual([{ key: '4', kind: 'missing' }]);
  });

  it('runs the cleanup with merges stopped (resumed for it), and keeps the tables before and after it with what it removed', async () => {
    const before = await call('cdc.targetView', { ...T, view: 'before' });
    expect(before).toMatchObject({ total: 0, generation: 'none' });
    const stopped = await call('cdc.optimizeFinalCleanup', T).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(HostCallError);
    expect((stopped as Error).message).toMatch(/Cancelled merging parts/);

    const r = await call('cdc.optimizeFinalCleanup', { ...T, resumeMerges: true });
    expect(r).toMatchObject({ statement: 'OPTIMIZE TABLE `default`.`versions_demo` FINAL CLEANUP', versionsBefore: 6, versionsAfter: 2, removed: 4, vanishedKeys: ['2'], vanishedCount: 1, mergesResumed: true });
    expect(r.before.filter((p) => p.active)).toHaveLength(4);
    expect(r.after.filter((p) => p.active)).toHaveLength(1);

    const b = await call('cdc.targetView', { ...T, view: 'before' });
    expect(b.lines.map((l) => [l.key, l.row.name, l.gone])).toEqual([
      ['1', 'Ada', true],
      ['1', 'Ada L.', false],
      ['2', 'Grace', true],
      ['2', 'Grace', true],
      ['3', 'Alan', true],
      ['3', 'Alan T.', false],
    ]);
    const a = await call('cdc.targetView', { ...T, view: 'after' });
    expect(a.lines.map((l) => [l.key, l.row.name, l.winner])).toEqual([
      ['1', 'Ada L.', true],
      ['3', 'Alan T.', true],
    ]);
    expect(a.generation).toBe(b.generation);
    // the Raw view now reads the merged table; merges are stopped again
    const raw = await call('cdc.targetView', { ...T, view: 'raw' });
    expect(raw.total).toBe(2);
    await call('cdc.targetSql', { sql: "INSERT INTO versions_demo VALUES (5, 'Edsger', '2030-01-01 00:00:01', 0)" });
    await call('cdc.targetSql', { sql: "INSERT INTO versions_demo VALUES (5, 'Edsger D.', '2030-01-01 00:00:02', 0)" });
    const later = await call('cdc.targetView', { ...T, view: 'raw' });
    expect(later.total).toBe(4);
    expect(later.generation).not.toBe(raw.generation);
  });

  it("counts the source's committed transactions and ClickHouse's inserted rows for the flow view", async () => {
    const before = await call('cdc.counters', {});
    await call('cdc.targetSql', { sql: "INSERT INTO versions_demo VALUES (6, 'Barbara', '2030-01-01 00:00:01', 0), (7, 'Frances', '2030-01-01 00:00:01', 0)" });
    await call('cdc.sql', { database: 'demo', sql: "INSERT INTO versions_demo VALUES (6, 'Barbara')" });
    const after = await call('cdc.counters', {});
    expect(after.insertedRows - before.insertedRows).toBe(2);
    expect(after.transactions! - before.transactions!).toBe(1);
  });

  it("answers ClickHouse's error for a table that does not exist", async () => {
    const err = await call('cdc.targetView', { table: 'nope', view: 'raw' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).message).toMatch(/^Code: 60\. DB::Exception: Table default\.nope does not exist/);
    expect((err as HostCallError).detail).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
  });
});
