/**
 * The sink runner fetches and converts the next batch while put() runs. A record appended while
 * the put was in flight must still be delivered right after it, not after the idle wait.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../common/log.js';
import { EmbeddedLog } from '../../log/embedded-log.js';
import type { SinkConnectorPlugin, SinkRecord } from '../plugin.js';
import { SinkRunner } from './task-runner.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * A sink runner on a fresh embedded log with topic `t`, whose task's put() is `put` (given the
 * log, so it can append while a put is in flight). Everything is removed after the test.
 */
async function startSink(put: (records: SinkRecord[], log: EmbeddedLog) => Promise<void>, first: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sink-runner-'));
  const log = await EmbeddedLog.open({ dir, retentionCheckMs: 0 });
  cleanup.push(async () => {
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await log.createTopic('t');
  const plugin: SinkConnectorPlugin = {
    class: 'test.SlowSink',
    type: 'sink',
    version: '1',
    configDefs: [],
    validate: () => ({}),
    taskConfigs: (c: Record<string, string>) => [c],
    createTask: () => ({ start: async () => {}, stop: async () => {}, put: (records: SinkRecord[]) => put(records, log) }),
  } as unknown as SinkConnectorPlugin;
  const config = { topics: 't', 'key.converter.schemas.enable': 'false', 'value.converter.schemas.enable': 'false' };
  const services = { log: silentLogger, dataDir: dir, peers: {}, now: () => Date.now(), resource: () => undefined };
  const runner = new SinkRunner('c', 0, config, log, services, { onState: () => {}, onProgress: () => {}, onTopic: () => {} }, plugin, config, 1);
  cleanup.push(() => runner.stop());
  await log.produce('t', [{ key: null, value: first }]);
  runner.start(false);
}

describe('sink runner', () => {
  it('a record appended while a put is in flight is delivered right after it, without the idle wait', async () => {
    const delivered: { value: unknown; at: number }[] = [];
    let appendedAt = 0;
    await startSink(async (records, log) => {
      for (const r of records) delivered.push({ value: r.value, at: Date.now() });
      if (records.some((r) => (r.value as { n: number }).n === 1)) {
        // the runner prepares its next batch meanwhile: nothing to fetch yet
        await new Promise((r) => setTimeout(r, 50));
        await log.produce('t', [{ key: null, value: '{"n":2}' }]);
        appendedAt = Date.now();
        await new Promise((r) => setTimeout(r, 20));
      }
    }, '{"n":1}');
    for (let i = 0; i < 100 && delivered.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(delivered.map((d) => d.value)).toEqual([{ n: 1 }, { n: 2 }]);
    // the idle wait is 500 ms; the record goes as soon as the put returns
    expect(delivered[1]!.at - appendedAt).toBeLessThan(400);
  });
  it('records appended after the next batch was fetched ahead go in that batch, not one put later', async () => {
    const puts: unknown[][] = [];
    await startSink(async (records, log) => {
      if (!records.length) return;
      puts.push(records.map((r) => r.value));
      if ((records[0]!.value as { n: number }).n === 1) {
        // n=2 is there before the runner fetches ahead (it does so once put has started); n=3 comes after
        await log.produce('t', [{ key: null, value: '{"n":2}' }]);
        await new Promise((r) => setTimeout(r, 40));
        await log.produce('t', [{ key: null, value: '{"n":3}' }]);
        await new Promise((r) => setTimeout(r, 10));
      }
    }, '{"n":1}');
    for (let i = 0; i < 100 && puts.flat().length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(puts).toEqual([[{ n: 1 }], [{ n: 2 }, { n: 3 }]]);
  });
});
