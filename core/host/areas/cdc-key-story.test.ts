/**
 * cdc.keyStory over the real embedded pipeline (source → connect → ClickHouse sink → chDB): three
 * updates of one id delivered in one sink batch land as one physical row, and the story says so
 * with the block's offsets and dedup token; an update in a block of its own stays a row of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdcRuntime, until, type CdcTestRuntime } from '../testing/cdc-runtime.js';
import { explain } from './cdc-key-story.js';

let env: CdcTestRuntime;
const call: CdcTestRuntime['call'] = (method, params) => env.call(method, params);
const versionsOf = async (id: number) => (await call('cdc.targetView', { table: 'customers', view: 'raw', limit: 1000 })).lines.filter((l) => l.key === String(id));

beforeAll(async () => {
  env = await startCdcRuntime({ prefix: 'loupe-cdc-story-', sourcePort: 0 });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe('cdc.keyStory', () => {
  it('explains versions collapsed inside one insert block, and keeps a version in a block of its own', async () => {
    const v1 = await call('cdc.pipelineTemplate', { variant: 1 });
    await call('cdc.targetSql', { sql: v1.statements[0]!.sql });
    await call('cdc.merges', { table: 'customers', stopped: true });
    await call('cdc.createConnector', v1.source);
    await call('cdc.createConnector', v1.sink!);
    await call('cdc.sql', { sql: "INSERT INTO customers (created_at, id, name) VALUES ('2024-01-01 00:00:01', 60, 'v1')" });
    await until('id 60 in the target', async () => (await versionsOf(60)).length === 1);
    // the sink paused: three updates wait on the topic and go out in one batch, one insert block
    await call('cdc.connectorAction', { name: v1.sink!.name, action: 'pause' });
    for (let v = 2; v <= 4; v++) await call('cdc.sql', { sql: `UPDATE customers SET name = 'v${v}', created_at = '2024-01-01 00:00:0${v}' WHERE id = 60` });
    await call('cdc.connectorAction', { name: v1.sink!.name, action: 'resume' });
    await until('version 4 of id 60', async () => (await versionsOf(60)).some((l) => l.row.name === 'v4'));

    const lines = await versionsOf(60);
    expect(lines.map((l) => l.row.name)).toEqual(['v1', 'v4']);
    const story = await call('cdc.keyStory', { key: '60', table: 'customers' });
    expect(story.changes.map((c) => [c.op, c.version, c.name])).toEqual([
      ['c', '2024-01-01 00:00:01', 'v1'],
      ['u', '2024-01-01 00:00:02', 'v2'],
      ['u', '2024-01-01 00:00:03', 'v3'],
      ['u', '2024-01-01 00:00:04', 'v4'],
    ]);
    const [, ...batched] = story.changes;
    expect(new Set(batched.map((c) => c.block?.token)).size).toBe(1);
    expect(story.changes[0]!.block!.token).not.toBe(batched[0]!.block!.token);
    expect(story.physical.map((r) => [r.version, r.deleted])).toEqual([
      ['2024-01-01 00:00:01', false],
      ['2024-01-01 00:00:04', false],
    ]);
    expect(story.explanations).toHaveLength(1);
    expect(story.explanations[0]).toMatch(/^3 changes of this id \(versions 2024-01-01 00:00:02, 2024-01-01 00:00:03, 2024-01-01 00:00:04\) arrived in one insert block \(offsets \d+–\d+, \d+ rows, dedup token customers-0-\d+-\d+\)\. ClickHouse collapses equal keys inside an insert block as it writes it \(optimize_on_insert\), so only version 2024-01-01 00:00:04 was written as a row/);
  }, 120_000);

  it('a key the source never changed says so', async () => {
    const story = await call('cdc.keyStory', { key: '999999', table: 'customers' });
    expect(story).toMatchObject({ key: '999999', changes: [], physical: [] });
    expect(story.explanations[0]).toMatch(/holds no change of this id/);
  });
});

describe('explain', () => {
  const change = (version: string, token?: string, op: 'c' | 'u' | 'd' = 'u') => ({ file: 'binlog.000001', pos: 4, op, version, ...(token ? { block: { firstOffset: 0, lastOffset: 9, records: 10, token } } : {}) });

  it('names versions merged away after landing in blocks of their own', () => {
    const out = explain([change('1', 't-0-0-0', 'c'), change('2', 't-0-1-1')], [{ part: 'all_1_2_1', level: 1, version: '2', deleted: false }]);
    expect(out).toEqual(['Version 1 was written in its own block and is gone now: a merge (background or OPTIMIZE) combined the parts and kept only the winner (the part holding it is level 1).']);
  });

  it('does not claim a block for changes no sink block was traced for', () => {
    const out = explain([change('1', undefined, 'c'), change('2')], [{ part: 'all_1_2_1', level: 1, version: '2', deleted: false }]);
    expect(out).toEqual([expect.stringMatching(/^Version 1 is not a row now and no sink block was traced for it \(a queue table and view/)]);
  });

  it('says nothing collapsed when every change is its own row', () => {
    expect(explain([change('1', 'a'), change('2', 'b')], [{ part: 'all_1_1_0', level: 0, version: '1', deleted: false }, { part: 'all_2_2_0', level: 0, version: '2', deleted: false }])).toEqual([
      'Every one of the 2 changes of this id is its own physical row: nothing collapsed yet.',
    ]);
  });

  it('in one block, the delete wins over an equal version before it', () => {
    const out = explain([change('5', 'x'), change('5', 'x', 'd')], [{ part: 'all_3_3_0', level: 0, version: '5', deleted: true }]);
    expect(out[0]).toMatch(/versions 5, 5 delete\) arrived in one insert block .* only version 5 \(the delete\) was written as a row/);
  });
});
