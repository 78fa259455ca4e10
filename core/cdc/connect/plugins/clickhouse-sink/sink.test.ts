import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CDC_ASSETS, useClickHouseAndLog, type ClickHouseFixture } from '../../../testing/clickhouse-fixture.test-util.js';
import { Killed, runSinkUntilCaughtUp } from './harness.test-util.js';
import { parseSinkConfig, SINK_CONFIG_DEFS, validateSinkConfig } from './config.js';
import { epochForColumn } from './convert.js';
import { ClickHouseSinkTask, rangeState, type SinkStep } from './task.js';
import { silentLogger, type Logger } from '../../../../common/log.js';
import type { SinkRecord, SinkTaskContext } from '../../plugin.js';

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
    const errs = validateSinkConfig({ topics: 't', port: 'abc', exactlyOnce: 'yes' });
    expect(errs.hostname).toEqual(['Missing required configuration "hostname" which has no default value.']);
    expect(errs.port).toEqual(['Invalid value abc for configuration port: Not a number of type INT']);
    expect(errs.exactlyOnce).toEqual(['Invalid value yes for configuration exactlyOnce: Expected value to be either true or false']);
  });

  it('converts epoch milliseconds exactly for DateTime and DateTime64 columns of any precision', () => {
    expect(epochForColumn(1_700_000_000_123, 0)).toBe(1_700_000_000);
    expect(epochForColumn(1_700_000_000_123, 3)).toBe(1_700_000_000_123); // DateTime64(3) reads integers as milliseconds
    expect(epochForColumn(1_700_000_000_123, 6)).toBe('1700000000.123000');
    expect(epochForColumn(1_700_000_000_123, 9)).toBe('1700000000.123000000');
    expect(epochForColumn(-1, 6)).toBe('-1.999000'); // 1 ms before the epoch
    // io.debezium.time.NanoTimestamp values are beyond 2^53: bigints
    expect(epochForColumn(1_700_000_000_123_456_789n, 9, 1_000_000_000n)).toBe('1700000000.123456789');
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

  it('inserts a Decimal of a record with a schema as its value, not as the base64 of its bytes (the connector hands ClickHouse the BigDecimal)', async () => {
    await client.command({ query: 'CREATE TABLE default.dec_kinds (id Int64, price Decimal(38, 2), small Nullable(Decimal(10, 8))) ENGINE = MergeTree ORDER BY id' });
    await log.createTopic('dec_kinds');
    const decimal = (scale: number, optional: boolean, field: string) => ({ type: 'bytes', optional, name: 'org.apache.kafka.connect.data.Decimal', version: 1, parameters: { scale: String(scale) }, field });
    const schema = { type: 'struct', optional: false, fields: [{ type: 'int64', optional: false, field: 'id' }, decimal(2, false, 'price'), decimal(8, true, 'small')] };
    const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
    await log.produce('dec_kinds', [
      // 2^70 + 1 hundredths, -12.50, and 1E-7 with scale 8
      { key: null, value: JSON.stringify({ schema, payload: { id: 1, price: b64('400000000000000001'), small: b64('0a') } }) },
      { key: null, value: JSON.stringify({ schema, payload: { id: 2, price: b64('fb1e'), small: null } }) },
    ]);
    const config = sinkConfig('dec_kinds', { exactlyOnce: 'false', 'value.converter.schemas.enable': 'true' });
    expect(await runSinkUntilCaughtUp(log, config, { group: 'connect-dec', dataDir: dir })).toBe('done');
    const rows = await (await client.query({ query: 'SELECT id, toString(price) AS price, toString(small) AS small FROM default.dec_kinds ORDER BY id', format: 'JSONEachRow' })).json();
    expect(rows).toEqual([
      { id: 1, price: '11805916207174113034.25', small: '0.0000001' },
      { id: 2, price: '-12.5', small: null },
    ]);
  });

  it('inserts Int64/UInt64 values beyond 2^53 exact: bigints handed to put, and the digits a real Debezium wrote on the topic', async () => {
    await client.command({ query: 'CREATE TABLE default.big_ints (id Int64, u UInt64, wide Int128, maybe Nullable(Int64), name String) ENGINE = MergeTree ORDER BY id' });
    // toString: the test's own client would read the numbers as doubles
    const exact = async () => (await (await client.query({ query: 'SELECT toString(id) AS id, toString(u) AS u, toString(wide) AS wide, toString(maybe) AS maybe, name FROM default.big_ints ORDER BY id', format: 'JSONEachRow' })).json()) as Record<string, string>[];
    const task = await startTask(sinkConfig('big_ints', { exactlyOnce: 'false' }));
    try {
      await task.put([rec('big_ints', 0, { id: 4611686018427387907n, u: 18446744073709551615n, wide: -(2n ** 100n), maybe: -9223372036854775808n, name: 'bigints' })]);
    } finally {
      await task.stop();
    }
    expect(await exact()).toEqual([{ id: '4611686018427387907', u: '18446744073709551615', wide: '-1267650600228229401496703205376', maybe: '-9223372036854775808', name: 'bigints' }]);

    // JSON texts as Debezium's JsonConverter writes them, read by the sink's converter: schemaless
    // (the seed's config) and with a schema
    await log.produce('big_ints', [{ key: '{"id":1152921504606846977}', value: '{"id":1152921504606846977,"u":9223372036854775809,"wide":170141183460469231731687303715884105727,"maybe":null,"name":"schemaless"}' }]);
    expect(await runSinkUntilCaughtUp(log, sinkConfig('big_ints', { exactlyOnce: 'false' }), { group: 'g-big', dataDir: dir })).toBe('done');
    await log.createTopic('big_ints_schema');
    const schema = '{"type":"struct","fields":[{"type":"int64","optional":false,"field":"id"},{"type":"int64","optional":false,"field":"u"},{"type":"int64","optional":true,"field":"maybe"},{"type":"string","optional":true,"field":"name"}],"optional":false,"name":"dbserver1.demo.big_ints.Value"}';
    await log.produce('big_ints_schema', [{ key: null, value: `{"schema":${schema},"payload":{"id":4611686018427387909,"u":9223372036854775807,"maybe":-4611686018427387907,"name":"with schema"}}` }]);
    const withSchema = sinkConfig('big_ints_schema', { exactlyOnce: 'false', topic2TableMap: 'big_ints_schema=big_ints', 'value.converter.schemas.enable': 'true' });
    expect(await runSinkUntilCaughtUp(log, withSchema, { group: 'g-big-schema', dataDir: dir })).toBe('done');
    expect(await exact()).toEqual([
      { id: '1152921504606846977', u: '9223372036854775809', wide: '170141183460469231731687303715884105727', maybe: null, name: 'schemaless' },
      { id: '4611686018427387907', u: '18446744073709551615', wide: '-1267650600228229401496703205376', maybe: '-9223372036854775808', name: 'bigints' },
      { id: '4611686018427387909', u: '9223372036854775807', wide: '0', maybe: '-4611686018427387907', name: 'with schema' },
    ]);
  });

  it('maps topics to tables with topic2TableMap and fails clearly when the table is missing', async () => {
    await createTarget('mapped_target');
    await log.produce('some.topic', [{ key: null, value: JSON.stringify(unwrapRow(5, 'x', 1_700_000_000_000, false)) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('some.topic', { topic2TableMap: 'some.topic=mapped_target' }), { group: 'g-map', dataDir: dir });
    expect(await (await client.query({ query: 'SELECT id FROM mapped_target', format: 'JSONEachRow' })).json()).toEqual([{ id: 5 }]);
    await log.produce('no_table_topic', [{ key: null, value: '{"id":1}' }]);
    await expect(runSinkUntilCaughtUp(log, sinkConfig('no_table_topic'), { group: 'g-none', dataDir: dir })).rejects.toThrow(/^Table `default`.`no_table_topic` does not exist$/);
  });

  it('creates its exactly-once state table (KeeperMap, translated to EmbeddedRocksDB) and records AFTER_PROCESSING', async () => {
    await createTarget('eo_state');
    await log.produce('eo_state', [{ key: null, value: JSON.stringify(unwrapRow(1, 'a', 1_700_000_000_000, false)) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('eo_state'), { group: 'g-eo', dataDir: dir });
    expect(await (await client.query({ query: "SELECT engine FROM system.tables WHERE name = 'connect_state'", format: 'JSONEachRow' })).json()).toEqual([{ engine: 'EmbeddedRocksDB' }]);
    expect(ch.api.translations().some((t) => t.original.includes("ENGINE=KeeperMap('/kafka-connect')") && t.translated.includes('EmbeddedRocksDB'))).toBe(true);
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

/** A task started on its own: put is called directly, and seeks on open are not followed (as a consumer reset would not be). */
async function startTask(config: Record<string, string>, logger: Logger = silentLogger): Promise<ClickHouseSinkTask> {
  const topics = config.topics!.split(',');
  const ctx: SinkTaskContext = {
    services: { log: logger, dataDir: dir, peers: {}, now: () => Date.now(), resource: () => undefined },
    connector: 'sink',
    taskId: 0,
    assignment: () => topics.map((topic) => ({ topic, partition: 0 })),
    offset: () => {},
    committedOffsets: async () => [],
    requestCommit: () => {},
    topicLog: log,
  };
  const task = new ClickHouseSinkTask();
  await task.start(config, ctx);
  return task;
}

const rec = (topic: string, offset: number, value: unknown, partition = 0): SinkRecord => ({
  topic,
  kafkaPartition: partition,
  kafkaOffset: offset,
  originalTopic: topic,
  keySchema: null,
  key: null,
  valueSchema: null,
  value,
  timestamp: 0,
  timestampType: 'CreateTime',
  headers: [],
});
const range = (topic: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => rec(topic, from + i, { id: from + i }));
const ids = async (table: string) => ((await (await client.query({ query: `SELECT id FROM ${table} ORDER BY id`, format: 'JSONEachRow' })).json()) as { id: number }[]).map((r) => r.id);

describe('ClickHouse sink as the connector v1.3.4 source has it', () => {
  it('defines every ClickHouseSinkConfig key with its ConfigDef default', () => {
    const defaults = Object.fromEntries(SINK_CONFIG_DEFS.map((d) => [d.name, d.default_value]));
    expect(defaults).toMatchObject({ hostname: null, port: '8443', username: '', ssl: 'true', timeoutSeconds: '30', retryCount: '3', tableRefreshInterval: '0', zkPath: '/kafka-connect', zkDatabase: 'connect_state', dbTopicSplitChar: '', insertFormat: 'none', client_version: '', proxyPort: '-1' });
    for (const k of ['jdbcConnectionProperties', 'suppressTableExistenceException', 'customInsertFormat', 'proxyType', 'proxyHost', 'enableDbTopicSplit', 'bypassRowBinary', 'dateTimeFormats', 'tolerateStateMismatch', 'bypassSchemaValidation', 'bypassFieldCleanup', 'ignorePartitionsWhenBatching']) expect(defaults).toHaveProperty([k]);
    expect(SINK_CONFIG_DEFS.find((d) => d.name === 'topic2TableMap')!.type).toBe('LIST');
  });

  it('validates as ConfigDef does: NonEmptyString, Range and ZKPathValidator; framework keys and list values are not its business', () => {
    expect(validateSinkConfig({ hostname: ' ', retryCount: '2', timeoutSeconds: '601', tableRefreshInterval: 'x', zkPath: 'kafka', proxyPort: '99999999999' })).toEqual({
      hostname: ['Invalid value  for configuration hostname: String must be non-empty'],
      retryCount: ['Invalid value 2 for configuration retryCount: Value must be at least 3'],
      timeoutSeconds: ['Invalid value 601 for configuration timeoutSeconds: Value must be no more than 600'],
      tableRefreshInterval: ['Invalid value x for configuration tableRefreshInterval: Not a number of type LONG'],
      zkPath: ['zkPath cannot be empty and must begin with a forward slash'],
      proxyPort: ['Invalid value 99999999999 for configuration proxyPort: Not a number of type INT'],
    });
    expect(validateSinkConfig({ hostname: 'h', clickhouseSettings: 'nonsense', topic2TableMap: 'a', 'errors.tolerance': 'some' })).toEqual({});
  });

  it('reads clickhouseSettings and topic2TableMap entries only when they split into exactly two parts, and adds its own settings unless set', () => {
    const c = parseSinkConfig({ clickhouseSettings: 'a=1, b=, c=d=e, async_insert=1', topic2TableMap: 't1=x,t2=y=z' });
    expect(c.clickhouseSettings).toEqual({ a: '1', async_insert: '1', input_format_skip_unknown_fields: '1', wait_end_of_query: '1', send_progress_in_http_headers: '1' });
    expect(c.topic2Table).toEqual({ t1: 'x' });
  });

  it('classifies ranges as RangeContainer.getOverLappingState', () => {
    const st = { minOffset: 10, maxOffset: 20 };
    expect(rangeState(st, 10, 20, 'AFTER_PROCESSING')).toBe('SAME');
    expect(rangeState(st, 5, 20, 'AFTER_PROCESSING')).toBe('SAME');
    expect(rangeState(st, 21, 30, 'AFTER_PROCESSING')).toBe('NEW');
    expect(rangeState(st, 12, 15, 'BEFORE_PROCESSING')).toBe('CONTAINS');
    expect(rangeState(st, 9, 30, 'BEFORE_PROCESSING')).toBe('OVER_LAPPING');
    expect(rangeState(st, 0, 5, 'BEFORE_PROCESSING')).toBe('ZERO');
    expect(rangeState(st, 5, 8, 'AFTER_PROCESSING')).toBe('PREVIOUS');
    expect(rangeState(st, 8, 19, 'BEFORE_PROCESSING')).toBe('ERROR');
  });

  it('creates the state table named by zkDatabase at the KeeperMap path zkPath', async () => {
    await createTarget('zk_t');
    await log.produce('zk_t', [{ key: null, value: JSON.stringify(unwrapRow(1, 'a', 1_700_000_000_000, false)) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('zk_t', { zkDatabase: 'my_state', zkPath: '/my/path' }), { group: 'g-zk', dataDir: dir });
    expect(ch.api.translations().some((t) => t.original.startsWith('CREATE TABLE IF NOT EXISTS `my_state` (`key` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=KeeperMap(\'/my/path\') PRIMARY KEY `key`'))).toBe(true);
    expect(await (await client.query({ query: 'SELECT * FROM my_state', format: 'JSONEachRow' })).json()).toEqual([{ key: 'zk_t-0', minOffset: 0, maxOffset: 0, state: 'AFTER_PROCESSING' }]);
  });

  it('AFTER_PROCESSING: skips the same and contained ranges, inserts past an overlap, fails on an earlier range unless tolerateStateMismatch, resets at offset 0', async () => {
    await client.command({ query: 'CREATE TABLE default.sm_after (id Int64) ENGINE = MergeTree ORDER BY id' });
    const cfg = sinkConfig('sm_after', { 'errors.retry.timeout': '1' });
    const task = await startTask(cfg);
    try {
      await task.put(range('sm_after', 0, 4));
      await task.put(range('sm_after', 0, 4));
      await task.put(range('sm_after', 2, 3));
      await task.put(range('sm_after', 3, 7));
      expect(await ids('sm_after')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      await expect(task.put(range('sm_after', 1, 2))).rejects.toThrow(
        'AFTER_PROCESSING: State MISMATCH as batch already processed - skipping [2] records for topic: [sm_after], partition: [0], minOffset: [1], maxOffset: [2], storedMinOffset: [5], storedMaxOffset: [7]',
      );
      // The topic seems recreated: its records go in again.
      await task.put(range('sm_after', 0, 1));
      expect(await ids('sm_after')).toEqual([0, 0, 1, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await task.stop();
    }
    const tolerant = await startTask({ ...cfg, tolerateStateMismatch: 'true' });
    try {
      await tolerant.put(range('sm_after', 1, 1));
      expect(await ids('sm_after')).toHaveLength(10);
    } finally {
      await tolerant.stop();
    }
  });

  it('BEFORE_PROCESSING: a contained batch fails, an overlap whose first part differs from the stored range inserts only past it', async () => {
    await client.command({ query: 'CREATE TABLE default.sm_before (id Int64) ENGINE = MergeTree ORDER BY id' });
    await createTarget('sm_seed');
    // The state table exists once a sink with exactlyOnce has started.
    await log.produce('sm_seed', [{ key: null, value: JSON.stringify(unwrapRow(1, 'a', 1_700_000_000_000, false)) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('sm_seed'), { group: 'g-sm-seed', dataDir: dir });
    await client.command({ query: "INSERT INTO connect_state VALUES ('sm_before-0', 10, 20, 'BEFORE_PROCESSING')" });
    const task = await startTask(sinkConfig('sm_before'));
    try {
      await expect(task.put(range('sm_before', 12, 15))).rejects.toThrow('BEFORE_PROCESSING: State CONTAINS given [4] records for topic: [sm_before], partition: [0], minOffset: [12], maxOffset: [15]');
      await expect(task.put(range('sm_before', 8, 19))).rejects.toThrow(
        'BEFORE_PROCESSING: ERROR State given [12] records for topic: [sm_before], partition: [0], minOffset: [8], maxOffset: [19], expectedMinOffset: [10], expectedMaxOffset: [20]',
      );
      await task.put(range('sm_before', 12, 25));
      expect(await ids('sm_before')).toEqual([21, 22, 23, 24, 25]);
      expect(await (await client.query({ query: "SELECT minOffset, maxOffset, state FROM connect_state WHERE key = 'sm_before-0'", format: 'JSONEachRow' })).json()).toEqual([{ minOffset: 21, maxOffset: 25, state: 'AFTER_PROCESSING' }]);
    } finally {
      await task.stop();
    }
  });

  it('without exactlyOnce keeps the state in memory (a batch put twice lands once); ignorePartitionsWhenBatching inserts per topic, without a token or state', async () => {
    await client.command({ query: 'CREATE TABLE default.mem_state (id Int64) ENGINE = MergeTree ORDER BY id' });
    const cfg = sinkConfig('mem_state', { exactlyOnce: 'false' });
    const task = await startTask(cfg);
    try {
      await task.put(range('mem_state', 0, 2));
      await task.put(range('mem_state', 0, 2));
      expect(await ids('mem_state')).toEqual([0, 1, 2]);
    } finally {
      await task.stop();
    }
    // A replicated table drops a block whose token it has seen: without tokens, other records at the same offsets land.
    await createTarget('by_topic', "ReplicatedMergeTree('/clickhouse/tables/{shard}/bt', '{replica}')");
    const row = (id: number, p: number, o: number) => rec('by_topic', o, unwrapRow(id, 'x', 1_700_000_000_000, false), p);
    const byTopic = await startTask(sinkConfig('by_topic', { exactlyOnce: 'false', ignorePartitionsWhenBatching: 'true' }));
    try {
      await byTopic.put([row(1, 0, 0), row(2, 1, 0), row(3, 0, 1)]);
      await byTopic.put([row(11, 0, 0), row(12, 1, 0), row(13, 0, 1)]);
    } finally {
      await byTopic.stop();
    }
    expect(await ids('by_topic')).toEqual([1, 2, 3, 11, 12, 13]);
  });

  it('enableDbTopicSplit takes the database from the topic and keys the state by <database><char><topic>', async () => {
    await client.command({ query: 'CREATE DATABASE IF NOT EXISTS otherdb' });
    await client.command({ query: 'CREATE TABLE otherdb.split_t (id Int64) ENGINE = MergeTree ORDER BY id' });
    await log.produce('otherdb.split_t', [{ key: null, value: '{"id":7}' }]);
    await runSinkUntilCaughtUp(log, sinkConfig('otherdb.split_t', { enableDbTopicSplit: 'true', dbTopicSplitChar: '.' }), { group: 'g-split', dataDir: dir });
    expect(await ids('otherdb.split_t')).toEqual([7]);
    expect(await (await client.query({ query: "SELECT state FROM connect_state WHERE key = 'otherdb.split_t-0'", format: 'JSONEachRow' })).json()).toEqual([{ state: 'AFTER_PROCESSING' }]);
  });

  it('suppressTableExistenceException lets a batch for a missing table pass', async () => {
    await log.produce('no_table_2', [{ key: null, value: '{"id":1}' }]);
    expect(await runSinkUntilCaughtUp(log, sinkConfig('no_table_2', { suppressTableExistenceException: 'true' }), { group: 'g-suppress', dataDir: dir })).toBe('done');
  });

  it('leaves null fields out as Gson does (the column DEFAULT applies) and fields the table lacks when ClickHouse would not skip them', async () => {
    await client.command({ query: "CREATE TABLE default.nulls_t (id Int64, d String DEFAULT 'dflt', n Nullable(String) DEFAULT 'nd') ENGINE = MergeTree ORDER BY id" });
    await log.produce('nulls_t', [{ key: null, value: JSON.stringify({ id: 1, d: null, n: null, extra: 1 }) }]);
    await runSinkUntilCaughtUp(log, sinkConfig('nulls_t', { exactlyOnce: 'false', clickhouseSettings: 'input_format_skip_unknown_fields=0' }), { group: 'g-nulls', dataDir: dir });
    expect(await (await client.query({ query: 'SELECT * FROM nulls_t', format: 'JSONEachRow' })).json()).toEqual([{ id: 1, d: 'dflt', n: 'nd' }]);
  });

  it('sends a row as the JSON it was read as only when that says what the row says; other rows are written again', async () => {
    await client.command({ query: 'CREATE TABLE default.verbatim_t (id Int64, name String, big Int64, ok Bool) ENGINE = MergeTree ORDER BY id' });
    const texts = [
      '{"id":1,"name":"plain","big":4611686018427387907,"ok":true}',
      '{"id":2,"name":"a:b","big":0,"ok":false}', // a colon inside a string
      '{"id":3,"name":"first","id":4,"name":"last","big":1,"ok":true}', // keys given twice: JSON.parse keeps the last value, ClickHouse the first
      '{"id":5.0,"name":"float spelling","big":1e2,"ok":true}',
      '{ "id" : 6 ,\n "name" : "spaced", "big": -7, "ok": false }',
    ];
    await log.produce('verbatim_t', texts.map((value) => ({ key: null, value })));
    await runSinkUntilCaughtUp(log, sinkConfig('verbatim_t', { exactlyOnce: 'false' }), { group: 'g-verbatim', dataDir: dir });
    // a transform that replaced the value leaves the text of the old one behind: the new value is inserted
    const task = await startTask(sinkConfig('verbatim_t', { exactlyOnce: 'false' }));
    try {
      const stale = { id: 99, name: 'stale', big: 0, ok: false };
      await task.put([{ ...rec('verbatim_t', 10, { id: 7, name: 'replaced', big: 7, ok: true }), valueJson: { value: stale, text: JSON.stringify(stale) } }]);
    } finally {
      await task.stop();
    }
    expect(await (await client.query({ query: 'SELECT id, name, toString(big) AS big, ok FROM verbatim_t ORDER BY id', format: 'JSONEachRow' })).json()).toEqual([
      { id: 1, name: 'plain', big: '4611686018427387907', ok: true },
      { id: 2, name: 'a:b', big: '0', ok: false },
      { id: 4, name: 'last', big: '1', ok: true },
      { id: 5, name: 'float spelling', big: '100', ok: true },
      { id: 6, name: 'spaced', big: '-7', ok: false },
      { id: 7, name: 'replaced', big: '7', ok: true },
    ]);
  });

  it('builds the insert body of a batch ahead (prepare) and uses it only for the very block it was built for; a record that fails is met by put alone', async () => {
    await client.command({ query: 'CREATE TABLE default.ahead_t (id Int64, name String) ENGINE = MergeTree ORDER BY id' });
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (msg: string) => void warnings.push(msg), child: () => logger };
    const task = await startTask(sinkConfig('ahead_t', { 'errors.tolerance': 'all' }), logger);
    const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => rec('ahead_t', from + i, { id: from + i, name: `n${from + i}` }));
    try {
      await task.put(rows(0, 1)); // the table's columns are known from here on
      const build = vi.spyOn(task as unknown as { buildBody: (...a: unknown[]) => unknown }, 'buildBody');
      const b = rows(2, 5);
      task.prepare(b);
      expect(build).toHaveBeenCalledTimes(1);
      await task.put(b);
      expect(build).toHaveBeenCalledTimes(1); // the body built ahead went as it was
      // built for 6–9, but the put gets 6–7 (the same first record): that block is built again
      const c = rows(6, 9);
      task.prepare(c);
      await task.put(c.slice(0, 2));
      await task.put(c.slice(2));
      expect(build).toHaveBeenCalledTimes(4);
      expect(await ids('ahead_t')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // errors.tolerance=all: built ahead, a record that cannot be a row is skipped and said once, by put
      const d = [...rows(10, 11), rec('ahead_t', 12, ['not', 'a', 'row'])];
      task.prepare(d);
      expect(warnings).toEqual([]);
      await task.put(d);
      expect(warnings).toEqual([expect.stringMatching(/^skipping record ahead_t-0@12: Expected a struct or map value for a ClickHouse row, got an array/)]);
      expect(await ids('ahead_t')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    } finally {
      await task.stop();
    }
  });

  it('inserts string values (StringConverter) as they are, in insertFormat; insertFormat=none fails as the connector does', async () => {
    await client.command({ query: 'CREATE TABLE default.str_t (id Int64, s String) ENGINE = MergeTree ORDER BY id' });
    const task = await startTask(sinkConfig('str_t', { exactlyOnce: 'false' }));
    try {
      await task.put([rec('str_t', 0, '{"id":1,"s":"a"}'), rec('str_t', 1, '{"id":2,"s":"b"}')]);
    } finally {
      await task.stop();
    }
    const csv = await startTask(sinkConfig('str_t', { exactlyOnce: 'false', customInsertFormat: 'true', insertFormat: 'CSV' }));
    try {
      await csv.put([rec('str_t', 2, '3,c'), rec('str_t', 3, '4,d\n')]);
    } finally {
      await csv.stop();
    }
    expect(await (await client.query({ query: 'SELECT id, s FROM str_t ORDER BY id', format: 'JSONEachRow' })).json()).toEqual([
      { id: 1, s: 'a' },
      { id: 2, s: 'b' },
      { id: 3, s: 'c' },
      { id: 4, s: 'd' },
    ]);
    const none = await startTask(sinkConfig('str_t', { exactlyOnce: 'false', insertFormat: 'none' }));
    try {
      await expect(none.put([rec('str_t', 4, '{"id":5}')])).rejects.toThrow('using org.apache.kafka.connect.storage.StringConverter, but did not enable.');
    } finally {
      await none.stop();
    }
  });
});
