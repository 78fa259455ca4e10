import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CDC_ASSETS, useClickHouseAndLog, type ClickHouseFixture } from '../../../testing/clickhouse-fixture.test-util.js';
import { Killed, runSinkUntilCaughtUp } from './harness.test-util.js';
import { validateSinkConfig } from './config.js';
import { epochForColumn } from './convert.js';
import type { SinkStep } from './task.js';

const ASSETS = CDC_ASSETS;
const fx = useClickHouseAndLog('loupe-sink-');
let dir: string;
let ch: ClickHouseFixture['ch'];
let client: ClickHouseFixture['client'];
let log: ClickHouseFixture['log'];
beforeAll(() => void ({ dir, ch, client, log } = fx));

/** The seed's sink config (assets/cdc/sink-variant1.json) pointed at this test's server and topic. */
function sinkConfig(topic: string, extra: Record<string, string> = {}): Record<string, string> {
  const seed = JSON.parse(readFileSync(path.join(ASSETS, 'sink-variant1.json'), 'utf8')) as { config: Record<string, string> };
  const port = new URL(ch.url).port;
  return { ...seed.config, port, topics: topic, ...extra };
}

/** The seed's target DDL (cluster, Replicated) under another table name. */
async function createTarget(table: string, engine?: string): Promise<void> {
  let ddl = readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8').replace('default.customers', `default.${table}`);
  if (engine) ddl = ddl.replace(/ENGINE = .*\n/, `ENGINE = ${engine}\n`).replace(/SETTINGS .*$/s, '');
  await client.command({ query: ddl });
}

const unwrapRow = (id: number, name: string | null, createdAtMs: number, deleted: boolean) => ({ created_at: createdAtMs, id, name, __deleted: deleted ? 'true' : 'false' });

describe('ClickHouse sink connector', () => {
  it('validates the seed config and reports bad keys the way Kafka Connect does', () => {
    expect(validateSinkConfig(sinkConfig('t'))).toEqual({});
    const errs = validateSinkConfig({ topics: 't', port: 'abc', exactlyOnce: 'yes', 'errors.tolerance': 'some' });
    expect(errs.hostname).toEqual(['Missing required configuration "hostname" which has no default value.']);
    expect(errs.port).toEqual(['Invalid value abc for configuration port: Not a number of type INT']);
    expect(errs.exactlyOnce).toEqual(['Invalid value yes for configuration exactlyOnce: Expected value to be either true or false']);
    expect(errs['errors.tolerance']![0]).toContain('NONE, ALL');
  });

  it('converts epoch milliseconds exactly for DateTime and DateTime64 columns of any precision', () => {
    expect(epochForColumn(1_700_000_000_123, 0)).toBe(1_700_000_000);
    expect(epochForColumn(1_700_000_000_123, 3)).toBe(1_700_000_000_123); // DateTime64(3) reads integers as milliseconds
    expect(epochForColumn(1_700_000_000_123, 6)).toBe('1700000000.123000');
    expect(epochForColumn(1_700_000_000_123, 9)).toBe('1700000000.123000000');
    expect(epochForColumn(-1, 6)).toBe('-1.999000'); // 1 ms before the epoch
  });

  it('inserts unwrapped change messages: DateTime from epoch millis, __deleted "true"/"false" into UInt8', async () => {
    await client.command({ query: 'CREATE TABLE default.dt_kinds (created_at DateTime, c64 DateTime64(6), id Int64, name Nullable(String), __deleted UInt8) ENGINE = MergeTree ORDER BY id' });
    await log.createTopic('dt_kinds');
    await log.produce('dt_kinds', [
      { key: '{"id":1}', value: JSON.stringify({ created_at: 1_700_000_000_123, c64: 1_700_000_000_123, id: 1, name: 'Ada', __deleted: 'false', extra: 'ignored' }) },
      { key: '{"id":2}', value: JSON.stringify({ created_at: 1_700_000_001_000, c64: 1_700_000_001_000, id: 2, name: null, __deleted: 'true' }) },
    ]);
    expect(await runSinkUntilCaughtUp(log, sinkConfig('dt_kinds', { exactlyOnce: 'false' }), { group: 'connect-dt', dataDir: dir })).toBe('done');
    const rows = await (await client.query({ query: 'SELECT * FROM default.dt_kinds ORDER BY id', format: 'JSONEachRow' })).json();
    expect(rows).toEqual([
      { created_at: '2023-11-14 22:13:20', c64: '2023-11-14 22:13:20.123000', id: 1, name: 'Ada', __deleted: 0 },
      { created_at: '2023-11-14 22:13:21', c64: '2023-11-14 22:13:21.000000', id: 2, name: null, __deleted: 1 },
    ]);
    expect(await log.committedOffsets('connect-dt')).toEqual([{ topic: 'dt_kinds', partition: 0, offset: 2 }]);
  });

  it('maps topics to tables with topic2TableMap and fails clearly when the table is missing', async () => {
    await createTarget('mapped_target');
    await log.produce('some.topic', [{ key: null, value: JSON.stringify(unwrapRow(5, 'x', 1_700_000_000_000, false)) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('some.topic', { topic2TableMap: 'some.topic=mapped_target' }), { group: 'g-map', dataDir: dir });
    expect(await (await client.query({ query: 'SELECT id FROM mapped_target', format: 'JSONEachRow' })).json()).toEqual([{ id: 5 }]);
    await log.produce('no_table_topic', [{ key: null, value: '{"id":1}' }]);
    await expect(runSinkUntilCaughtUp(log, sinkConfig('no_table_topic'), { group: 'g-none', dataDir: dir })).rejects.toThrow(/Table \[no_table_topic\] does not exist/);
  });

  it('creates its exactly-once state table (KeeperMap, translated to EmbeddedRocksDB) and records AFTER_PROCESSING', async () => {
    await createTarget('eo_state');
    await log.produce('eo_state', [{ key: null, value: JSON.stringify(unwrapRow(1, 'a', 1_700_000_000_000, false)) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('eo_state'), { group: 'g-eo', dataDir: dir });
    expect(await (await client.query({ query: "SELECT engine FROM system.tables WHERE name = 'connect_state'", format: 'JSONEachRow' })).json()).toEqual([{ engine: 'EmbeddedRocksDB' }]);
    expect(ch.api.translations().some((t) => t.original.includes("KeeperMap('connect_state')") && t.translated.includes('EmbeddedRocksDB'))).toBe(true);
    expect(await (await client.query({ query: "SELECT * FROM connect_state WHERE key = 'eo_state-0'", format: 'JSONEachRow' })).json()).toEqual([{ key: 'eo_state-0', minOffset: 0, maxOffset: 0, state: 'AFTER_PROCESSING' }]);
  });

  const steps: SinkStep[] = ['after-before-state', 'after-insert', 'after-after-state'];
  for (const step of steps) {
    for (const crashBlock of [1, 3]) {
      it(`a sink killed ${step} of block ${crashBlock} and restarted loses and duplicates nothing`, async () => {
        const topic = `eo_${step.replace(/-/g, '_')}_${crashBlock}`;
        // MergeTree (not replacing) so every delivered message stays visible as its own row.
        await createTarget(topic, "ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}')");
        const n = 2300;
        await log.produce(topic, Array.from({ length: n }, (_, i) => ({ key: `{"id":${i}}`, value: JSON.stringify(unwrapRow(i, `n${i}`, 1_700_000_000_000 + i * 1000, false)) })));
        const cfg = sinkConfig(topic, { 'consumer.override.max.poll.records': '500' });
        let seen = 0;
        const first = await runSinkUntilCaughtUp(log, cfg, {
          group: `g-${topic}`,
          dataDir: dir,
          hooks: {
            step: (s) => {
              if (s === step && ++seen === crashBlock) throw new Killed(`killed ${s}`);
            },
          },
        });
        expect(first).toBe('killed');
        // A second kill while the unfinished block is being redone.
        let redoSeen = 0;
        const second = await runSinkUntilCaughtUp(log, cfg, {
          group: `g-${topic}`,
          dataDir: dir,
          hooks: { step: (s) => { if (s === 'after-insert' && ++redoSeen === 1) throw new Killed('killed again'); } },
        });
        expect(second).toBe('killed');
        expect(await runSinkUntilCaughtUp(log, cfg, { group: `g-${topic}`, dataDir: dir })).toBe('done');
        const res = await (await client.query({ query: `SELECT count() AS c, uniqExact(id) AS u, min(id) AS lo, max(id) AS hi FROM default.${topic}`, format: 'JSONEachRow' })).json();
        expect(res).toEqual([{ c: n, u: n, lo: 0, hi: n - 1 }]);
      });
    }
  }

  it('randomized inserts, updates and deletes end as the source: FINAL, then OPTIMIZE FINAL CLEANUP', async () => {
    const topic = 'random_customers';
    await createTarget(topic);
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const source = new Map<number, { created_at: number; name: string }>();
    const messages: { key: string; value: string }[] = [];
    let clock = 1_700_000_000_000;
    let nextId = 1;
    for (let i = 0; i < 6000; i++) {
      const r = rand();
      const ids = [...source.keys()];
      if (r < 0.5 || ids.length < 5) {
        // insert: a new id, or re-insert of a deleted one
        const id = rand() < 0.1 && nextId > 2 ? 1 + Math.floor(rand() * (nextId - 1)) : nextId++;
        if (source.has(id)) continue;
        clock += 1000;
        source.set(id, { created_at: clock, name: `n${i}` });
        messages.push({ key: `{"id":${id}}`, value: JSON.stringify(unwrapRow(id, `n${i}`, clock, false)) });
      } else if (r < 0.85) {
        // update (often the same hot id again and again)
        const id = rand() < 0.3 ? ids[0]! : ids[Math.floor(rand() * ids.length)]!;
        const row = source.get(id)!;
        row.name = `u${i}`;
        messages.push({ key: `{"id":${id}}`, value: JSON.stringify(unwrapRow(id, row.name, row.created_at, false)) });
      } else {
        const id = ids[Math.floor(rand() * ids.length)]!;
        const row = source.get(id)!;
        source.delete(id);
        messages.push({ key: `{"id":${id}}`, value: JSON.stringify(unwrapRow(id, row.name, row.created_at, true)) });
      }
    }
    await log.produce(topic, messages);
    await runSinkUntilCaughtUp(log, sinkConfig(topic, { 'consumer.override.max.poll.records': '700' }), { group: 'g-rand', dataDir: dir });
    const expected = [...source].sort((a, b) => a[0] - b[0]).map(([id, r]) => ({ id, name: r.name, created_at: new Date(r.created_at).toISOString().replace('T', ' ').replace('Z', '') }));
    const q = async (sql: string) => (await client.query({ query: sql, format: 'JSONEachRow' })).json<{ id: number; name: string; created_at: string }>();
    const raw = await q(`SELECT count() AS c FROM ${topic}`);
    expect((raw[0] as unknown as { c: number }).c).toBeGreaterThan(expected.length); // versions and deleted rows before merging
    expect(await q(`SELECT id, name, created_at FROM ${topic} FINAL ORDER BY id`)).toEqual(expected);
    await client.command({ query: `OPTIMIZE TABLE ${topic} FINAL CLEANUP` });
    expect(await q(`SELECT id, name, created_at FROM ${topic} ORDER BY id`)).toEqual(expected);
    expect(await q(`SELECT count() AS c FROM ${topic} WHERE __deleted = 1`)).toEqual([{ c: 0 }]);
  });
});
