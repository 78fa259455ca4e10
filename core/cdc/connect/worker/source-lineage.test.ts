/**
 * The source runner's lineage for the pipeline view: traces of only as many records as the worker
 * keeps (LINEAGE_KEEP), the newest of a poll, each with the source offset of its own record.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../common/log.js';
import { EmbeddedLog } from '../../log/embedded-log.js';
import type { SourceConnectorPlugin, SourceRecord } from '../plugin.js';
import { OffsetStore } from './offset-store.js';
import { LINEAGE_KEEP } from './recent.js';
import { SourceRunner, type WriteTrace } from './task-runner.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('source runner lineage', () => {
  it('traces the newest LINEAGE_KEEP records of a larger poll, each with its own source offset', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-source-lineage-'));
    const log = await EmbeddedLog.open({ dir, retentionCheckMs: 0 });
    cleanup.push(async () => {
      await log.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const n = LINEAGE_KEEP + 500;
    const partition = { server: 'x' };
    const records: SourceRecord[] = Array.from({ length: n }, (_, i) => ({ sourcePartition: partition, sourceOffset: { pos: i }, topic: 't', keySchema: null, key: null, valueSchema: null, value: `v${i}`, timestamp: 0 }));
    let polled = false;
    const plugin = {
      class: 'test.ManySource',
      type: 'source',
      version: '1',
      configDefs: [],
      validate: () => ({}),
      taskConfigs: (c: Record<string, string>) => [c],
      createTask: () => ({
        start: async () => {},
        stop: async () => {},
        poll: async () => {
          if (polled) {
            await new Promise((r) => setTimeout(r, 20));
            return [];
          }
          polled = true;
          return records;
        },
      }),
    } as unknown as SourceConnectorPlugin;
    const config = { 'key.converter': 'org.apache.kafka.connect.storage.StringConverter', 'value.converter': 'org.apache.kafka.connect.storage.StringConverter' };
    const services = { log: silentLogger, dataDir: dir, peers: {}, now: () => Date.now(), resource: () => undefined };
    const traces: WriteTrace[][] = [];
    const runner = new SourceRunner('c', 0, config, log, services, { onState: () => {}, onProgress: () => {}, onTopic: () => {}, onWrite: (t) => traces.push(t) }, plugin, new OffsetStore(log), config);
    cleanup.push(() => runner.stop());
    runner.start(false);
    for (let i = 0; i < 500 && !traces.length; i++) await new Promise((r) => setTimeout(r, 10));

    expect(traces).toHaveLength(1);
    const kept = traces[0]!;
    expect(kept).toHaveLength(LINEAGE_KEEP);
    expect(kept[0]).toMatchObject({ connector: 'c', sourceOffset: { pos: 500 }, topic: 't', partition: 0, offset: 500 });
    expect(kept[kept.length - 1]).toMatchObject({ sourceOffset: { pos: n - 1 }, offset: n - 1 });
    expect(kept.every((t, j) => t.offset === 500 + j && (t.sourceOffset as { pos: number }).pos === t.offset)).toBe(true);
    expect((await log.offsets('t', 0)).end).toBe(n);
  });
});
