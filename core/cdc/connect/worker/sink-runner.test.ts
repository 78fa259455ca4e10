/**
 * The sink runner fetches and converts the next batch while put() runs. A record appended while
 * the put was in flight must still be delivered right after it, not after the idle wait. It
 * commits a batch's offsets while the next one is put, and asks the log for its topics'
 * partitions only now and then, or when one it lacks gets records.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../common/log.js';
import { EmbeddedLog } from '../../log/embedded-log.js';
import type { TopicLog } from '../../log/types.js';
import type { SinkConnectorPlugin, SinkRecord } from '../plugin.js';
import { forEachRun, SinkRunner, type TaskState } from './task-runner.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * A sink runner on a fresh embedded log with topic `t`, whose task's put() is `put` (given the
 * log, so it can append while a put is in flight). Everything is removed after the test.
 */
async function startSink(
  put: (records: SinkRecord[], log: EmbeddedLog) => Promise<void>,
  first: string,
  opts: { wrap?: (log: EmbeddedLog) => TopicLog; config?: Record<string, string>; onState?: (s: TaskState, trace?: string) => void } = {},
): Promise<EmbeddedLog> {
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
  const config = { topics: 't', 'key.converter.schemas.enable': 'false', 'value.converter.schemas.enable': 'false', ...opts.config };
  const services = { log: silentLogger, dataDir: dir, peers: {}, now: () => Date.now(), resource: () => undefined };
  const runner = new SinkRunner('c', 0, config, opts.wrap ? opts.wrap(log) : log, services, { onState: opts.onState ?? (() => {}), onProgress: () => {}, onTopic: () => {} }, plugin, config, 1);
  cleanup.push(() => runner.stop());
  await log.produce('t', [{ key: null, value: first }]);
  runner.start(false);
  return log;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The log with some of its calls replaced. */
const withCalls = (log: EmbeddedLog, calls: Partial<TopicLog>): TopicLog => new Proxy(log, { get: (t, k) => (k in calls ? calls[k as keyof TopicLog] : Reflect.get(t, k, t)) }) as unknown as TopicLog;

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

  it("commits a batch's offsets while the next batch is put, one commit at a time and in order", async () => {
    const events: string[] = [];
    const log = await startSink(
      async (records, l) => {
        const n = (records[0]!.value as { n: number }).n;
        events.push(`put ${n}`);
        if (n === 1) await l.produce('t', [{ key: null, value: '{"n":2}' }]);
        if (n === 2) await l.produce('t', [{ key: null, value: '{"n":3}' }]);
      },
      '{"n":1}',
      {
        wrap: (l) =>
          withCalls(l, {
            async commitOffsets(group, offsets) {
              events.push(`commit ${offsets[0]!.offset} starts`);
              await sleep(100);
              await l.commitOffsets(group, offsets);
              events.push(`commit ${offsets[0]!.offset} done`);
            },
          }),
      },
    );
    for (let i = 0; i < 100 && !events.includes('commit 3 done'); i++) await sleep(20);
    await sleep(300);
    expect(events.slice(0, 3)).toEqual(['put 1', 'commit 1 starts', 'put 2']);
    const commits = events.filter((e) => e.startsWith('commit'));
    // never two at once, and offsets only grow; puts that finish while a commit runs share the next one
    expect(commits.length).toBeLessThan(6);
    for (let i = 0; i < commits.length; i += 2) expect(commits[i + 1]).toBe(commits[i]!.replace('starts', 'done'));
    const offsets = commits.filter((e) => e.endsWith('done')).map((e) => Number(e.split(' ')[1]));
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets.at(-1)).toBe(3);
    expect(await log.committedOffsets('connect-c')).toEqual([{ topic: 't', partition: 0, offset: 3 }]);
  });

  it('a commit that fails fails the task with its error, as a failed put does', async () => {
    const states: [TaskState, string | undefined][] = [];
    await startSink(async () => {}, '{"n":1}', {
      wrap: (l) => withCalls(l, { commitOffsets: () => Promise.reject(new Error('disk full')) }),
      onState: (s, trace) => states.push([s, trace]),
    });
    for (let i = 0; i < 100 && !states.some(([s]) => s === 'FAILED'); i++) await sleep(20);
    const failed = states.find(([s]) => s === 'FAILED');
    expect(failed?.[1]).toContain('Exiting WorkerSinkTask due to unrecoverable exception.');
    expect(failed?.[1]).toContain('disk full');
  });

  it('asks the log for its topics only now and then, and at once when a subscribed topic it lacks gets records', async () => {
    let described = 0;
    const delivered: { value: unknown; at: number }[] = [];
    const log = await startSink(
      async (records) => {
        for (const r of records) delivered.push({ value: r.value, at: Date.now() });
      },
      '{"n":1}',
      {
        config: { topics: '', 'topics.regex': 't.*' },
        wrap: (l) =>
          withCalls(l, {
            describeTopic: (name) => {
              described++;
              return l.describeTopic(name);
            },
          }),
      },
    );
    for (let n = 2; n <= 6; n++) {
      await log.produce('t', [{ key: null, value: JSON.stringify({ n }) }]);
      await sleep(30);
    }
    for (let i = 0; i < 100 && delivered.length < 6; i++) await sleep(20);
    expect(delivered.map((d) => (d.value as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6]);
    // six batches, one look at the topic (the refresh comes every second)
    expect(described).toBeLessThanOrEqual(2);
    await log.createTopic('t2');
    await log.produce('t2', [{ key: null, value: '{"n":7}' }]);
    const producedAt = Date.now();
    for (let i = 0; i < 100 && delivered.length < 7; i++) await sleep(20);
    expect(delivered[6]?.value).toEqual({ n: 7 });
    // well before the next refresh would have found it
    expect(delivered[6]!.at - producedAt).toBeLessThan(700);
  });
});

describe('forEachRun', () => {
  it('calls back once per run of consecutive records of one topic-partition', () => {
    const recs = [
      { topic: 'a', partition: 0 },
      { topic: 'a', partition: 0 },
      { topic: 'a', partition: 1 },
      { topic: 'b', partition: 1 },
      { topic: 'a', partition: 0 },
    ];
    const runs: [number, number][] = [];
    forEachRun(recs, (first, end) => runs.push([first, end]));
    expect(runs).toEqual([
      [0, 2],
      [2, 3],
      [3, 4],
      [4, 5],
    ]);
    forEachRun([], () => expect.unreachable());
  });
});
