import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import { CDC_ASSETS, useClickHouseAndLog, type ClickHouseFixture } from '../testing/clickhouse-fixture.test-util.js';
import { QueueFeeder, startQueueFeeders } from './feeder.js';

const ASSETS = CDC_ASSETS;
const fx = useClickHouseAndLog('loupe-queue-');
let ch: ClickHouseFixture['ch'];
let client: ClickHouseFixture['client'];
let log: ClickHouseFixture['log'];
beforeAll(() => void ({ ch, client, log } = fx));

/** A Debezium change message with schemas enabled, after unwrap (rewrite): the row under payload. */
function schemaMessage(id: number, name: string, createdAtMs: number, deleted: boolean): string {
  return JSON.stringify({
    schema: {
      type: 'struct',
      optional: false,
      name: 'dbserver1.demo.customers.Value',
      fields: [
        { type: 'int64', optional: true, name: 'io.debezium.time.Timestamp', version: 1, field: 'created_at' },
        { type: 'int32', optional: false, field: 'id' },
        { type: 'string', optional: true, field: 'name' },
        { type: 'string', optional: true, field: '__deleted' },
      ],
    },
    payload: { created_at: createdAtMs, id, name, __deleted: deleted ? 'true' : 'false' },
  });
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('variant 2: queue table + the seed materialized view, fed from the topic log', () => {
  it('runs the seed DDL translated (Kafka -> Null, with a notice) and lands schema-enabled messages converted to UTC', async () => {
    await client.command({ query: readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8') });
    const queueRes = await fetch(ch.url, { method: 'POST', body: readFileSync(path.join(ASSETS, 'variant2-queue-table.sql'), 'utf8') });
    expect(queueRes.status).toBe(200);
    expect(queueRes.headers.get('x-loupe-notice')).toMatch(/Kafka\('127\.0\.0\.1:9092', 'demo\.customers', 'clickhouse-customers', 'JSONAsString'\) -> Null/);
    await client.command({ query: readFileSync(path.join(ASSETS, 'variant2-materialized-view.sql'), 'utf8') });
    expect(await (await client.query({ query: "SELECT engine FROM system.tables WHERE name = 'customers_queue'", format: 'JSONEachRow' })).json()).toEqual([{ engine: 'Null' }]);
    expect(ch.api.queueTables()).toEqual([
      expect.objectContaining({ database: 'default', table: 'customers_queue', topics: ['demo.customers'], group: 'clickhouse-customers', format: 'JSONAsString', brokerList: '127.0.0.1:9092' }),
    ]);

    const feeders = startQueueFeeders({ log, clickhouseUrl: ch.url, tables: ch.api, logger: silentLogger });
    try {
      const t0 = Date.UTC(2024, 0, 2, 3, 4, 5); // 2024-01-02 03:04:05 UTC
      await log.produce('demo.customers', [
        { key: '{"id":1}', value: schemaMessage(1, 'Ada', t0, false) },
        { key: '{"id":2}', value: schemaMessage(2, 'Alan', t0 + 1000, false) },
        { key: '{"id":2}', value: schemaMessage(2, 'Alan T.', t0 + 1000, false) },
        { key: '{"id":1}', value: schemaMessage(1, 'Ada', t0, true) },
        { key: '{"id":1}', value: null },
      ]);
      const final = await until(
        async () => (await client.query({ query: 'SELECT id, name, toString(created_at) AS created_at, __deleted FROM customers FINAL ORDER BY id', format: 'JSONEachRow' })).json(),
        (rows) => rows.length === 1 && (rows[0] as { name: string }).name === 'Alan T.',
      );
      expect(final).toEqual([{ id: 2, name: 'Alan T.', created_at: '2024-01-02 03:04:06.000', __deleted: 0 }]);
      const raw = await (await client.query({ query: 'SELECT id, __deleted FROM customers ORDER BY id, __deleted', format: 'JSONEachRow' })).json();
      expect(raw.length).toBeGreaterThanOrEqual(2);
      expect(await log.committedOffsets('clickhouse-customers')).toEqual([{ topic: 'demo.customers', partition: 0, offset: 5 }]);
      expect(feeders.feeders()[0]!.insertedMessages).toBe(4);
      await client.command({ query: 'OPTIMIZE TABLE customers FINAL CLEANUP' });
      expect(await (await client.query({ query: 'SELECT id, name FROM customers ORDER BY id', format: 'JSONEachRow' })).json()).toEqual([{ id: 2, name: 'Alan T.' }]);
    } finally {
      await feeders.close();
    }
  });
});

describe('the Kafka engine, as materialized views and queries see it', () => {
  /** Creates a queue table (translated) and returns a feeder for it that the test polls by hand. */
  async function queue(ddl: string): Promise<QueueFeeder> {
    await client.command({ query: ddl });
    const table = /CREATE TABLE (\w+)/.exec(ddl)![1]!;
    const spec = ch.api.queueTables().find((q) => q.table === table)!;
    return new QueueFeeder({ log, clickhouseUrl: ch.url, spec, logger: silentLogger });
  }
  const rows = async (query: string) => (await client.query({ query, format: 'JSONEachRow' })).json();

  it('fills the virtual columns with their ClickHouse types; SELECT * and a view\'s SELECT * leave them out', async () => {
    const f = await queue("CREATE TABLE vq (msg String) ENGINE = Kafka('k:9092', 'virt', 'gv', 'JSONAsString')");
    await client.command({ query: 'CREATE TABLE vt (topic String, off UInt64, key String, part UInt64, ts Nullable(DateTime), ts_ms Nullable(DateTime64(3)), hn Array(String), hv Array(String), msg String) ENGINE = MergeTree ORDER BY off' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW vmv TO vt AS SELECT _topic AS topic, _offset AS off, _key AS key, _partition AS part, _timestamp AS ts, _timestamp_ms AS ts_ms, `_headers.name` AS hn, `_headers.value` AS hv, msg FROM vq' });
    await client.command({ query: "CREATE TABLE vstar (msg String, _topic String DEFAULT 'not passed on') ENGINE = MergeTree ORDER BY msg" });
    await client.command({ query: 'CREATE MATERIALIZED VIEW vstar_mv TO vstar AS SELECT * FROM vq' });
    const ts = Date.UTC(2024, 4, 6, 7, 8, 9, 123);
    await log.produce('virt', [
      { key: 'k1', value: '{"a":1}', timestamp: ts, headers: [{ key: 'h', value: 'v' }, { key: 'empty', value: null }] },
      { key: null, value: '{"a":2}', timestamp: ts + 1000 },
    ]);
    expect(await f.pollOnce()).toBe(true);
    expect(await rows("SELECT topic, off, key, part, toString(ts, 'UTC') AS ts, toString(ts_ms, 'UTC') AS ts_ms, hn, hv, msg FROM vt ORDER BY off")).toEqual([
      { topic: 'virt', off: 0, key: 'k1', part: 0, ts: '2024-05-06 07:08:09', ts_ms: '2024-05-06 07:08:09.123', hn: ['h', 'empty'], hv: ['v', ''], msg: '{"a":1}' },
      { topic: 'virt', off: 1, key: '', part: 0, ts: '2024-05-06 07:08:10', ts_ms: '2024-05-06 07:08:10.123', hn: [], hv: [], msg: '{"a":2}' },
    ]);
    expect(await rows('SELECT msg, _topic FROM vstar ORDER BY msg')).toEqual([
      { msg: '{"a":1}', _topic: 'not passed on' },
      { msg: '{"a":2}', _topic: 'not passed on' },
    ]);
    const described = (await rows("SELECT name, type FROM system.columns WHERE table = 'vq' AND name LIKE '\\_%'")) as { name: string; type: string }[];
    expect(Object.fromEntries(described.map((c) => [c.name, c.type]))).toEqual({
      _topic: 'LowCardinality(String)', _key: 'String', _offset: 'UInt64', _partition: 'UInt64', _timestamp: 'Nullable(DateTime)', _timestamp_ms: 'Nullable(DateTime64(3))', '_headers.name': 'Array(String)', '_headers.value': 'Array(String)',
    });
    const star = await client.query({ query: 'SELECT * FROM vq', format: 'JSONCompactEachRowWithNames' });
    expect((await star.text()).split('\n')[0]).toBe('["msg"]');
    await f.stop();
  });

  it('carries Int64/UInt64 values beyond 2^53 exact: the rows pass as JSON text, never through a JavaScript number', async () => {
    const f = await queue("CREATE TABLE biq (id Int64, u UInt64, msg String) ENGINE = Kafka('k:9092', 'bigints', 'gbi', 'JSONEachRow')");
    await client.command({ query: 'CREATE TABLE bit (id Int64, u UInt64, msg String, from_json Int64) ENGINE = MergeTree ORDER BY id' });
    await client.command({ query: "CREATE MATERIALIZED VIEW bimv TO bit AS SELECT id, u, msg, JSONExtractInt(msg, 'payload', 'id') AS from_json FROM biq" });
    const msg = '{"payload":{"id":4611686018427387907}}';
    await log.produce('bigints', [{ key: null, value: JSON.stringify({ id: 0, u: 0, msg }).replace('"id":0,"u":0', '"id":4611686018427387907,"u":18446744073709551615') }]);
    expect(await f.pollOnce()).toBe(true);
    expect(await rows('SELECT toString(id) AS id, toString(u) AS u, toString(from_json) AS from_json FROM bit')).toEqual([{ id: '4611686018427387907', u: '18446744073709551615', from_json: '4611686018427387907' }]);
    await f.stop();
  });

  it('consumes nothing until a materialized view is attached, so earlier messages still reach it', async () => {
    const f = await queue("CREATE TABLE wq (msg String) ENGINE = Kafka('k:9092', 'waiting', 'gw', 'JSONAsString')");
    await log.produce('waiting', [{ key: null, value: '{"early":true}' }]);
    expect(await f.pollOnce()).toBe(false);
    expect(await log.committedOffsets('gw')).toEqual([]);
    await client.command({ query: 'CREATE TABLE wt (msg String) ENGINE = MergeTree ORDER BY msg' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW wmv TO wt AS SELECT msg FROM wq' });
    expect(await f.pollOnce()).toBe(true);
    expect(await rows('SELECT msg FROM wt')).toEqual([{ msg: '{"early":true}' }]);
    await f.stop();
  });

  it('parses each message on its own: rows of one message share its virtual columns, RawBLOB keeps a message whole', async () => {
    const each = await queue("CREATE TABLE eq (a UInt32, b String) ENGINE = Kafka('k:9092', 'each', 'ge', 'JSONEachRow')");
    await client.command({ query: 'CREATE TABLE et (a UInt32, b String, off UInt64) ENGINE = MergeTree ORDER BY a' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW emv TO et AS SELECT a, b, _offset AS off FROM eq' });
    await log.produce('each', [{ key: null, value: '{"a":1,"b":"x"}\n{"a":2,"b":"y","unknown":1}' }, { key: null, value: '{"a":3}' }, { key: null, value: '' }, { key: null, value: '{"a":4,"b":"z"}' }]);
    expect(await each.pollOnce()).toBe(true);
    expect(await rows('SELECT a, b, off FROM et ORDER BY a')).toEqual([
      { a: 1, b: 'x', off: 0 },
      { a: 2, b: 'y', off: 0 },
      { a: 3, b: '', off: 1 },
      { a: 4, b: 'z', off: 3 },
    ]);
    expect(await log.committedOffsets('ge')).toEqual([{ topic: 'each', partition: 0, offset: 4 }]);

    const blob = await queue("CREATE TABLE bq (data String) ENGINE = Kafka('k:9092', 'blob', 'gb', 'RawBLOB')");
    await client.command({ query: 'CREATE TABLE bt (data String, off UInt64) ENGINE = MergeTree ORDER BY off' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW bmv TO bt AS SELECT data, _offset AS off FROM bq' });
    await log.produce('blob', [{ key: null, value: 'line 1\nline 2\n' }, { key: null, value: "it's \\ raw" }]);
    expect(await blob.pollOnce()).toBe(true);
    expect(await rows('SELECT data, off FROM bt ORDER BY off')).toEqual([
      { data: 'line 1\nline 2\n', off: 0 },
      { data: "it's \\ raw", off: 1 },
    ]);

    const csv = await queue("CREATE TABLE cq (n Int32, s String) ENGINE = Kafka('k:9092', 'csv', 'gc', 'CSV')");
    await client.command({ query: 'CREATE TABLE ct (n Int32, s String, off UInt64) ENGINE = MergeTree ORDER BY n' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW cmv TO ct AS SELECT n, s, _offset AS off FROM cq' });
    // ClickHouse closes an unclosed quote at the end of its message; concatenated, it would swallow the next one.
    await log.produce('csv', [{ key: null, value: '1,"multi\nline"' }, { key: null, value: '2,"open' }, { key: null, value: '3,c' }]);
    expect(await csv.pollOnce()).toBe(true);
    expect(await rows('SELECT n, s, off FROM ct ORDER BY n')).toEqual([
      { n: 1, s: 'multi\nline', off: 0 },
      { n: 2, s: 'open', off: 1 },
      { n: 3, s: 'c', off: 2 },
    ]);
    await Promise.all([each.stop(), blob.stop(), csv.stop()]);
  });

  it('fails the block on a broken message by default, skips up to kafka_skip_broken_messages per block', async () => {
    const strict = await queue("CREATE TABLE sq (a UInt32) ENGINE = Kafka('k:9092', 'broken', 'gs', 'JSONEachRow')");
    await client.command({ query: 'CREATE TABLE st (a UInt32) ENGINE = MergeTree ORDER BY a' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW smv TO st AS SELECT a FROM sq' });
    await log.produce('broken', [{ key: null, value: '{"a":1}' }, { key: null, value: 'not json' }, { key: null, value: '{"a":"x"}' }, { key: null, value: '{"a":4}' }]);
    await expect(strict.pollOnce()).rejects.toThrow(/while parsing Kafka message \(topic: broken, partition: 0, offset: 1\)/);
    expect(await rows('SELECT a FROM st')).toEqual([]);
    expect(await log.committedOffsets('gs')).toEqual([]);

    await client.command({ query: "CREATE TABLE sq1 (a UInt32) ENGINE = Kafka('k:9092', 'broken', 'gs1', 'JSONEachRow') SETTINGS kafka_skip_broken_messages = 1" });
    await client.command({ query: 'CREATE MATERIALIZED VIEW smv1 TO st AS SELECT a FROM sq1' });
    const one = new QueueFeeder({ log, clickhouseUrl: ch.url, spec: ch.api.queueTables().find((q) => q.table === 'sq1')!, logger: silentLogger });
    await expect(one.pollOnce()).rejects.toThrow(/offset: 2\).*more than kafka_skip_broken_messages = 1/);

    await client.command({ query: "CREATE TABLE sq2 (a UInt32) ENGINE = Kafka('k:9092', 'broken', 'gs2', 'JSONEachRow') SETTINGS kafka_skip_broken_messages = 2" });
    await client.command({ query: 'CREATE MATERIALIZED VIEW smv2 TO st AS SELECT a FROM sq2' });
    const two = new QueueFeeder({ log, clickhouseUrl: ch.url, spec: ch.api.queueTables().find((q) => q.table === 'sq2')!, logger: silentLogger });
    expect(await two.pollOnce()).toBe(true);
    expect(await rows('SELECT a FROM st ORDER BY a')).toEqual([{ a: 1 }, { a: 4 }]);
    expect(two.status()).toMatchObject({ insertedMessages: 4, skippedMessages: 2 });
    expect(await log.committedOffsets('gs2')).toEqual([{ topic: 'broken', partition: 0, offset: 4 }]);
    await Promise.all([strict.stop(), one.stop(), two.stop()]);
  });

  it("with kafka_handle_error_mode = 'stream' delivers a broken message as a row with _error and _raw_message", async () => {
    const f = await queue("CREATE TABLE xq (a UInt32, b String) ENGINE = Kafka SETTINGS kafka_broker_list = 'k:9092', kafka_topic_list = 'streamed', kafka_group_name = 'gx', kafka_format = 'JSONEachRow', kafka_handle_error_mode = 'stream'");
    await client.command({ query: 'CREATE TABLE xt (a UInt32, b String, off UInt64, raw String, err String) ENGINE = MergeTree ORDER BY off' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW xmv TO xt AS SELECT a, b, _offset AS off, _raw_message AS raw, _error AS err FROM xq' });
    await log.produce('streamed', [{ key: null, value: '{"a":1,"b":"ok"}' }, { key: null, value: '{"a":"nope","b":"lost"}' }]);
    expect(await f.pollOnce()).toBe(true);
    const got = (await rows('SELECT a, b, off, raw, err FROM xt ORDER BY off')) as { a: number; b: string; off: number; raw: string; err: string }[];
    expect(got[0]).toEqual({ a: 1, b: 'ok', off: 0, raw: '', err: '' });
    expect(got[1]).toMatchObject({ a: 0, b: '', off: 1, raw: '{"a":"nope","b":"lost"}' });
    expect(got[1]!.err).toMatch(/parse|UInt32/i);
    expect(got[1]!.err).not.toMatch(/^Code:/);
    await f.stop();
  });

  it('inserts blocks of kafka_max_block_size messages', async () => {
    const f = await queue("CREATE TABLE mq (msg String) ENGINE = Kafka('k:9092', 'blocks', 'gm', 'LineAsString') SETTINGS kafka_max_block_size = 2");
    await client.command({ query: 'CREATE TABLE mt (n UInt64, first UInt64) ENGINE = MergeTree ORDER BY first' });
    await client.command({ query: 'CREATE MATERIALIZED VIEW mmv TO mt AS SELECT count() AS n, min(_offset) AS first FROM mq' });
    await log.produce('blocks', ['a', 'b', 'c', 'd', 'e'].map((v) => ({ key: null, value: v })));
    while (await f.pollOnce());
    expect(await rows('SELECT n, first FROM mt ORDER BY first')).toEqual([
      { n: 2, first: 0 },
      { n: 2, first: 2 },
      { n: 1, first: 4 },
    ]);
    await f.stop();
  });
});
