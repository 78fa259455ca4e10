import { describe, expect, it } from 'vitest';
import { diffByKey, groupVersions, vanished } from './versions.js';

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
    expect(g[0]!.why).toBe('highest version 2024-01-01 00:00:02.000');
    expect(g[1]!.why).toBe('version 2024-01-01 00:00:01.000 ties; the last inserted (part all_3_3_0) wins; it is a delete, so the id vanishes');
    expect(g[2]!.why).toBe('only version');
    expect(g[0]!.versions.map((v) => v.winner)).toEqual([true, false]);
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

  it('names the rows a cleanup removed, by part and id', () => {
    const before = [
      { _part: 'all_1_1_0', id: 1, v: 1 },
      { _part: 'all_2_2_0', id: 1, v: 2 },
      { _part: 'all_2_2_0', id: 2, v: 1 },
    ];
    const after = [{ _part: 'all_1_2_1', id: 1, v: 2 }];
    expect([...vanished(before, after, 'id')].sort()).toEqual(['all_1_1_0|1', 'all_2_2_0|2']);
  });
});
