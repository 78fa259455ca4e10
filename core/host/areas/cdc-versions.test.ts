import { describe, expect, it } from 'vitest';
import { diffByKey, engineColumns, groupVersions, linesOf, markRemoved } from './cdc-versions.js';

const cols = { key: 'id', version: 'created_at', deleted: '__deleted' };
const parts = [
  { name: 'all_1_1_0', rows: 2, minBlock: 1, active: true },
  { name: 'all_2_2_0', rows: 1, minBlock: 2, active: true },
  { name: 'all_3_3_0', rows: 2, minBlock: 3, active: true },
];

describe('reading versions as ReplacingMergeTree does', () => {
  it('the highest version wins; on a tie the last inserted; a deleted winner makes the id vanish', () => {
    const rows = [
      { _part: 'all_1_1_0', id: 1, created_at: '2024-01-01 00:00:02.000', name: 'a', __deleted: 0 },
      { _part: 'all_1_1_0', id: 2, created_at: '2024-01-01 00:00:01.000', name: 'b', __deleted: 0 },
      { _part: 'all_2_2_0', id: 1, created_at: '2024-01-01 00:00:01.000', name: 'a-backwards', __deleted: 0 },
      { _part: 'all_3_3_0', id: 2, created_at: '2024-01-01 00:00:01.000', name: 'b', __deleted: 1 },
      { _part: 'all_3_3_0', id: 10, created_at: '2024-01-01 00:00:05.000', name: 'ten', __deleted: 0 },
    ];
    const g = groupVersions(rows, parts, cols);
    expect(g.map((x) => [x.key, x.winner.part, x.winner.row.name, x.vanishes])).toEqual([
      ['1', 'all_1_1_0', 'a', false],
      ['2', 'all_3_3_0', 'b', true],
      ['10', 'all_3_3_0', 'ten', false],
    ]);
    expect(g[0]!.winner.why).toBe('highest version 2024-01-01 00:00:02.000');
    expect(g[1]!.winner.why).toBe('version 2024-01-01 00:00:01.000 ties; the last inserted (part all_3_3_0) wins; it is a delete, so the id vanishes');
    expect(g[2]!.winner.why).toBe('only version');
    expect(g[0]!.versions.map((v) => v.winner)).toEqual([true, false]);
    // the Raw view's lines: key order, each group's first line marked, the group's size on each
    expect(linesOf(g).map((l) => [l.key, l.part, l.first, l.count])).toEqual([
      ['1', 'all_1_1_0', true, 2],
      ['1', 'all_2_2_0', false, 2],
      ['2', 'all_1_1_0', true, 2],
      ['2', 'all_3_3_0', false, 2],
      ['10', 'all_3_3_0', true, 1],
    ]);
    expect(linesOf(g)[0]!.row).toEqual({ id: 1, created_at: '2024-01-01 00:00:02.000', name: 'a', __deleted: 0 });
  });

  it('lists the ids where the target differs from the source', () => {
    const source = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }];
    const target = [{ id: 1, name: 'a' }, { id: 2, name: 'B' }, { id: 4, name: 'd' }];
    expect(diffByKey(source, target, 'id', ['name'])).toEqual([
      { key: '2', kind: 'changed', column: 'name' },
      { key: '3', kind: 'missing' },
      { key: '4', kind: 'extra' },
    ]);
    expect(diffByKey(source, source, 'id', ['name'])).toEqual([]);
  });

  it('marks the versions a cleanup removed and names the ids that vanished; a version merged into a new part is kept', () => {
    const c = { key: 'id', version: 'v', deleted: '' };
    const before = linesOf(groupVersions([{ _part: 'all_1_1_0', id: 1, v: 1 }, { _part: 'all_2_2_0', id: 1, v: 2 }, { _part: 'all_2_2_0', id: 2, v: 1 }], [], c));
    const after = linesOf(groupVersions([{ _part: 'all_1_2_1', id: 1, v: 2 }], [], c));
    expect(markRemoved(before, after)).toEqual({ removed: 2, vanishedKeys: ['2'] });
    expect(before.map((l) => [l.part, l.key, l.gone])).toEqual([
      ['all_1_1_0', '1', true],
      ['all_2_2_0', '1', false],
      ['all_2_2_0', '2', true],
    ]);
  });

  it("reads ReplacingMergeTree's version and is_deleted columns from engine_full, Replicated or not", () => {
    expect(engineColumns('ReplacingMergeTree(created_at, __deleted) ORDER BY id SETTINGS index_granularity = 8192', 'id')).toEqual({ key: 'id', keyColumns: ['id'], version: 'created_at', deleted: '__deleted' });
    expect(engineColumns("ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/customers', '{replica}', created_at, __deleted) ORDER BY id", 'id')).toEqual({ key: 'id', keyColumns: ['id'], version: 'created_at', deleted: '__deleted' });
    expect(engineColumns('ReplacingMergeTree(ver) ORDER BY (tenant, id)', 'tenant, id')).toEqual({ key: 'tenant', keyColumns: ['tenant', 'id'], version: 'ver', deleted: '' });
    expect(engineColumns('ReplacingMergeTree ORDER BY id', 'id')).toEqual({ key: 'id', keyColumns: ['id'], version: '', deleted: '' });
    expect(engineColumns('MergeTree ORDER BY id', 'id')).toEqual({ key: 'id', keyColumns: ['id'], version: '', deleted: '' });
    // a composite key groups by all its columns
    const g = groupVersions([{ _part: 'a', tenant: 1, id: 1, ver: 1 }, { _part: 'a', tenant: 2, id: 1, ver: 1 }], [], engineColumns('ReplacingMergeTree(ver) ORDER BY (tenant, id)', 'tenant, id'));
    expect(g.map((x) => x.key)).toEqual(['1, 1', '2, 1']);
  });
});
