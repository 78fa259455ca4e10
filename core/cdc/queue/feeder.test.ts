import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import { CDC_ASSETS, useClickHouseAndLog, type ClickHouseFixture } from '../testing/clickhouse-fixture.test-util.js';
import { startQueueFeeders } from './feeder.js';

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
