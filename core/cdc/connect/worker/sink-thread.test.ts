/**
 * A sink task on a thread of its own (sink-thread.ts) is the same task as one on the worker's
 * event loop: the same rows land in ClickHouse, and a task restarted mid-stream, or a worker
 * closed and started again, leaves every record in the table exactly once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../common/log.js';
import { CDC_ASSETS, useClickHouseAndLog } from '../../testing/clickhouse-fixture.test-util.js';
import { CONNECTOR_PLUGINS } from '../plugins/index.js';
import { ThreadSinkRunner } from './sink-thread.js';
import { Worker } from './worker.js';

const fx = useClickHouseAndLog('loupe-sink-thread-');
const workers: Worker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.close();
  vi.restoreAllMocks();
});

async function startWorker(name: string, sinkThreads: boolean): Promise<Worker> {
  const w = await Worker.start({ dataDir: path.join(fx.dir, name), log: silentLogger, topicLog: fx.log, plugins: [...CONNECTOR_PLUGINS], workerId: name, peers: {}, resources: {}, sinkThreads });
  workers.push(w);
  return w;
}

function sinkConfig(topic: string, table: string): Record<string, string> {
  const seed = JSON.parse(readFileSync(path.join(CDC_ASSETS, 'sink-variant1.json'), 'utf8')) as { config: Record<string, string> };
  // small batches: many blocks, so the restarts land between the steps of some of them
  return { ...seed.config, port: new URL(fx.ch.url).port, topics: topic, topic2TableMap: `${topic}=${table}`, 'consumer.override.max.poll.records': '300' };
}

async function visibleEnd(topic: string): Promise<number> {
  const text = await fx.ch.api.query(`SELECT maxOffset FROM connect_state WHERE key = '${topic}-0' AND state = 'AFTER_PROCESSING'`);
  return text ? Number((JSON.parse(text) as { maxOffset: string | number }).maxOffset) + 1 : 0;
}

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a sink task on its own thread', () => {
  it('inserts the same rows as the task on the event loop, exactly once across task restarts and a worker restart', async () => {
    const ddl = readFileSync(path.join(CDC_ASSETS, 'target-table.sql'), 'utf8');
    for (const t of ['rows_threaded', 'rows_inline']) await fx.ch.api.query(ddl.replace('default.customers', `default.${t}`));
    await fx.log.createTopic('threaded');
    await fx.log.createTopic('inline');
    const started = vi.spyOn(ThreadSinkRunner.prototype, 'start');

    let threaded = await startWorker('threaded', true);
    const inline = await startWorker('inline', false);
    await threaded.putConnectorConfig('sink-threaded', sinkConfig('threaded', 'rows_threaded'), { allowReplace: false });
    await inline.putConnectorConfig('sink-inline', sinkConfig('inline', 'rows_inline'), { allowReplace: false });
    expect(started).toHaveBeenCalledTimes(1); // the inline worker's task is not on a thread

    // Distinct ids, so no merge collapses rows: the table's row count is the number of records inserted.
    const t0 = Date.UTC(2024, 4, 1);
    const total = 6000;
    const produceChunk = async (from: number, n: number) => {
      const recs = Array.from({ length: n }, (_, i) => {
        const id = from + i;
        return { key: JSON.stringify({ id }), value: JSON.stringify({ created_at: t0 + id, id, name: id % 7 ? `customer ${id} "quoted" \\ é` : null, __deleted: id % 10 === 9 ? 'true' : 'false' }) };
      });
      await fx.log.produce('threaded', recs);
      await fx.log.produce('inline', recs);
    };
    for (let i = 0; i < total / 2; i += 500) {
      await produceChunk(i, 500);
      if (i === 1000 || i === 2000) await threaded.restartTask('sink-threaded', 0);
      await new Promise((r) => setTimeout(r, 5));
    }
    // the worker goes away mid-stream and a new one takes the connector up from its stored config
    await until('some rows before the worker restart', async () => (await visibleEnd('threaded')) > 0);
    await threaded.close();
    workers.splice(workers.indexOf(threaded), 1);
    for (let i = total / 2; i < total; i += 500) await produceChunk(i, 500);
    threaded = await startWorker('threaded', true);
    expect(started.mock.calls.length).toBeGreaterThanOrEqual(4);

    await until('both sinks caught up', async () => (await visibleEnd('threaded')) === total && (await visibleEnd('inline')) === total);
    expect(threaded.status('sink-threaded').tasks[0]).toMatchObject({ state: 'RUNNING' });
    const rowsOf = (t: string) => fx.ch.api.query(`SELECT id, name, toString(created_at) AS at, __deleted FROM ${t} ORDER BY id`, 'JSONCompactEachRow');
    const a = await rowsOf('rows_threaded');
    expect(a.split('\n').filter(Boolean)).toHaveLength(total);
    expect(a).toBe(await rowsOf('rows_inline'));
    // offsets committed past the last record: a restart would not deliver anything again
    expect((await fx.log.committedOffsets('connect-sink-threaded')).find((o) => o.topic === 'threaded')?.offset).toBe(total);
  });
});
