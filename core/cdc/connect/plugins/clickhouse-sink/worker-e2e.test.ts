import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CDC_ASSETS, until, useClickHouseAndConnect } from '../../../testing/clickhouse-fixture.test-util.js';

const fx = useClickHouseAndConnect('loupe-sink-e2e-');

describe('the seed sink config POSTed with curl to the Connect worker', () => {
  it('runs the ClickHouse sink: change messages on the topic land in the seed target table, FINAL hides deletes', async () => {
    await fx.ch.api.query(readFileSync(path.join(CDC_ASSETS, 'target-table.sql'), 'utf8'));
    // The seed's config as a file; only the port differs (the test server's free port instead of 8123).
    const body = readFileSync(path.join(CDC_ASSETS, 'sink-variant1.json'), 'utf8').replace('"port": "8123"', `"port": "${new URL(fx.ch.url).port}"`);
    // async: the worker answers from this same process
    const { stdout: out } = await promisify(execFile)('curl', ['-s', '-w', '\n%{http_code}', '-X', 'POST', '-H', 'Content-Type: application/json', '--data', body, `${fx.connect.url}/connectors`], { encoding: 'utf8' });
    const [json, status] = [out.slice(0, out.lastIndexOf('\n')), out.slice(out.lastIndexOf('\n') + 1)];
    expect(status).toBe('201');
    expect(JSON.parse(json)).toMatchObject({ name: 'clickhouse-sink', type: 'sink', config: { 'connector.class': 'com.clickhouse.kafka.connect.ClickHouseSinkConnector', exactlyOnce: 'true' } });

    const t = Date.UTC(2024, 4, 1, 12, 0, 0);
    const row = (id: number, name: string, deleted: boolean) => JSON.stringify({ created_at: t + id * 1000, id, name, __deleted: deleted ? 'true' : 'false' });
    await fx.connect.api.topicLog.produce('customers', [
      { key: '{"id":1}', value: row(1, 'Ada', false) },
      { key: '{"id":2}', value: row(2, 'Alan', false) },
      { key: '{"id":1}', value: row(1, 'Ada L.', false) },
      { key: '{"id":2}', value: row(2, 'Alan', true) },
    ]);
    const final = await until(
      async () => fx.ch.api.query('SELECT id, name, toString(created_at) AS created_at FROM customers FINAL ORDER BY id'),
      (t) => t.includes('Ada L.') && !t.includes('Alan'),
    );
    expect(final).toBe('{"id":1,"name":"Ada L.","created_at":"2024-05-01 12:00:01.000"}\n');
    const status2 = await until(
      async () => (await (await fetch(`${fx.connect.url}/connectors/clickhouse-sink/status`)).json()) as { connector: { state: string }; tasks: { state: string }[] },
      (s) => s.tasks[0]?.state === 'RUNNING',
    );
    expect(status2.connector.state).toBe('RUNNING');
    expect(await fx.ch.api.query("SELECT state, maxOffset FROM connect_state WHERE key = 'customers-0'")).toBe('{"state":"AFTER_PROCESSING","maxOffset":3}\n');
  });
});
