/**
 * 64-bit integers through the whole variant-1 pipeline: a MySQL BIGINT beyond 2^53 (a
 * snowflake-style id) written to the embedded source reaches the seed's ClickHouse target table
 * with every digit, in the snapshot and streamed, through the seed configs POSTed unchanged (but
 * the sink's port): source (a bigint) → Debezium INT64 → JsonConverter (its digits on the topic)
 * → sink's JsonConverter (a bigint again) → JSONEachRow → Int64.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CDC_ASSETS, useClickHouseAndConnect } from './testing/clickhouse-fixture.test-util.js';

const fx = useClickHouseAndConnect('loupe-pipeline-bigint-');

async function post(url: string, body: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  expect(res.status, await res.clone().text()).toBe(201);
}

describe('the seed pipeline with BIGINT ids beyond 2^53', () => {
  it('carries 4611686018427387907 and the ends of the BIGINT range to the ClickHouse Int64 exactly', async () => {
    await fx.ch.api.query(readFileSync(path.join(CDC_ASSETS, 'target-table.sql'), 'utf8'));
    fx.connect.api.source.executeSync(
      'demo',
      "DROP TABLE customers; CREATE TABLE customers (created_at DATETIME DEFAULT CURRENT_TIMESTAMP, id BIGINT PRIMARY KEY, name VARCHAR(255)); INSERT INTO customers (id, name) VALUES (4611686018427387907, 'snapshot'), (7, 'small')",
    );
    await post(`${fx.connect.url}/connectors`, readFileSync(path.join(CDC_ASSETS, 'source-variant1.json'), 'utf8'));
    await post(`${fx.connect.url}/connectors`, readFileSync(path.join(CDC_ASSETS, 'sink-variant1.json'), 'utf8').replace('"port": "8123"', `"port": "${new URL(fx.ch.url).port}"`));
    // streamed: the range's ends, and an update of the snapshot's row
    fx.connect.api.source.executeSync('demo', "INSERT INTO customers (id, name) VALUES (9223372036854775807, 'max'), (-9223372036854775808, 'min')");
    fx.connect.api.source.executeSync('demo', "UPDATE customers SET name = 'updated' WHERE id = 4611686018427387907");

    const expected = [
      { id: '-9223372036854775808', name: 'min' },
      { id: '7', name: 'small' },
      { id: '4611686018427387907', name: 'updated' },
      { id: '9223372036854775807', name: 'max' },
    ];
    // toString: the ids as ClickHouse holds them, not as a double would read them
    const target = async () =>
      (await fx.ch.api.query('SELECT toString(id) AS exact_id, name FROM customers FINAL ORDER BY id'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { exact_id: string; name: string })
        .map((r) => ({ id: r.exact_id, name: r.name }));
    const deadline = Date.now() + 60_000;
    while (JSON.stringify(await target()) !== JSON.stringify(expected) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await target()).toEqual(expected);

    // the topic holds the digits, as a real Debezium's JsonConverter writes a long
    const records = await fx.connect.api.topicLog.fetch('customers', 0, 0, { maxRecords: 100, maxBytes: 1 << 20 });
    expect(records.map((r) => r.key)).toEqual(['{"id":4611686018427387907}', '{"id":7}', '{"id":9223372036854775807}', '{"id":-9223372036854775808}', '{"id":4611686018427387907}']);
    expect(records[0]!.value).toMatch(/^\{"created_at":\d+,"id":4611686018427387907,"name":"snapshot","__deleted":"false"\}$/);
  }, 90_000);
});
