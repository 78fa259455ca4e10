import { describe, expect, it } from 'vitest';
import type { CdcPipelineStep } from '../../../core/host/contract.js';
import { collapsedInBlocks, collapsedText } from './collapsed.js';

const step = (id: number, op: 'c' | 'u' | 'd', token?: string): CdcPipelineStep => ({
  source: { file: 'binlog.000001', pos: 4, row: 0, gtid: '', ts: 0, database: 'demo', table: 'customers', op, key: { id }, image: { id } },
  messages: [],
  blocks: token ? [{ connector: 'sink', topic: 'customers', partition: 0, firstOffset: 0, lastOffset: 9, records: 10, token, at: 0 }] : [],
});

describe('changes collapsed inside one insert block', () => {
  it('names the ids with two or more changes in the same block, and only those', () => {
    const steps = [step(1, 'c', 'customers-0-0-9'), step(1, 'u', 'customers-0-0-9'), step(1, 'u', 'customers-0-0-9'), step(2, 'c', 'customers-0-0-9'), step(2, 'u', 'customers-0-10-10'), step(3, 'u'), step(3, 'u')];
    const c = collapsedInBlocks(steps);
    expect([...c.keys()]).toEqual(['1']);
    expect(c.get('1')).toEqual([{ key: '1', token: 'customers-0-0-9', ops: ['c', 'u', 'u'] }]);
    expect(collapsedText(c.get('1')![0]!)).toBe(
      '3 changes (insert, update, update) arrived in one insert block (customers-0-0-9); ClickHouse kept only the winner of them as it wrote the block (optimize_on_insert), so they were never separate versions here.',
    );
  });
});
