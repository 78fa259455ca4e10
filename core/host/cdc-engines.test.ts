/**
 * The host with the real CDC engines: what joins two services (variant 2's queue feeders) and
 * what a user does from the status bar (restart ClickHouse) must keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createHost, type Host } from './host.js';
import { freePortBase } from '../common/testing/free-port.js';
import { silentLogger } from '../common/log.js';
import type { TopicLog } from '../cdc/log/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const asset = (name: string) => readFileSync(path.join(ROOT, 'assets', 'cdc', name), 'utf8');

let host: Host;
let ch: ClickHouseClient;

beforeAll(async () => {
  host = await createHost({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'loupe-cdc-host-')), portBase: await freePortBase(), env: {}, log: silentLogger });
  await host.startServices(['clickhouse', 'connect']);
  ch = createClient({ url: host.supervisor.urlOf('clickhouse') });
}, 120_000);
afterAll(async () => {
  await ch?.close();
  await host?.close();
});

async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('CDC variant 2 through the host', () => {
  it('the seed queue table and materialized view, unchanged, receive messages from the topic log in UTC', async () => {
    for (const file of ['target-table.sql', 'variant2-queue-table.sql', 'variant2-materialized-view.sql']) {
      await ch.command({ query: asset(file) });
    }
    await waitFor(async () => host.queues.feeders(), (f) => f.length === 1);
    expect(host.queues.feeders()[0]).toMatchObject({ table: 'default.customers_queue', group: 'clickhouse-customers' });

    const topicLog = host.supervisor.handle<{ topicLog: TopicLog }>('connect')!.api.topicLog;
    const message = (id: number, name: string, createdAt: number, deleted: boolean) => ({
      key: JSON.stringify({ id }),
      value: JSON.stringify({
        schema: { type: 'struct', optional: false, name: 'demo.customers.Value', fields: [] },
        payload: { created_at: createdAt, id, name, __deleted: String(deleted) },
      }),
    });
    // 2024-01-02T03:04:05Z in epoch milliseconds, as Debezium sends a DATETIME.
    const select = async () =>
      (await ch.query({ query: "SELECT id, name, toString(created_at, 'UTC') AS created_at, __deleted FROM default.customers ORDER BY id, created_at", format: 'JSONEachRow' })).json<Record<string, unknown>>();
    await topicLog.produce('demo.customers', [message(7, 'Grace', 1704164645000, false), message(8, 'Alan', 1704164646000, false)]);
    // The delete goes in a later insert block: within one block ReplacingMergeTree already keeps
    // only the newest version of a key (optimize_on_insert), and this test wants to see both.
    await waitFor(select, (r) => r.length === 2);
    await topicLog.produce('demo.customers', [message(8, 'Alan', 1704164700000, true)]);

    const rows = await waitFor(
      async () => (await ch.query({ query: 'SELECT id, name, toString(created_at, \'UTC\') AS created_at, __deleted FROM default.customers ORDER BY id, created_at', format: 'JSONEachRow' })).json<Record<string, unknown>>(),
      (r) => r.length === 3,
    );
    expect(rows).toEqual([
      { id: 7, name: 'Grace', created_at: '2024-01-02 03:04:05.000', __deleted: 0 },
      { id: 8, name: 'Alan', created_at: '2024-01-02 03:04:06.000', __deleted: 0 },
      { id: 8, name: 'Alan', created_at: '2024-01-02 03:05:00.000', __deleted: 1 },
    ]);
    const final = await (await ch.query({ query: 'SELECT id FROM default.customers FINAL ORDER BY id', format: 'JSONEachRow' })).json();
    expect(final).toEqual([{ id: 7 }]);
  }, 60_000);

  it('restarting ClickHouse keeps its tables, and the feeders follow the new service', async () => {
    const before = await (await ch.query({ query: 'SELECT count() AS n FROM default.customers', format: 'JSONEachRow' })).json<{ n: string }>();
    const status = await host.call('services.restart', { name: 'clickhouse' });
    expect(status).toMatchObject({ ok: true, result: { name: 'clickhouse', state: 'running' } });
    const after = await (await ch.query({ query: 'SELECT count() AS n FROM default.customers', format: 'JSONEachRow' })).json<{ n: string }>();
    expect(after).toEqual(before);
    // A message after the restart still reaches the target: the feeders were restarted with it.
    const topicLog = host.supervisor.handle<{ topicLog: TopicLog }>('connect')!.api.topicLog;
    await topicLog.produce('demo.customers', [{ key: '{"id":9}', value: JSON.stringify({ payload: { created_at: 1704164800000, id: 9, name: 'Edsger', __deleted: 'false' } }) }]);
    const rows = await waitFor(
      async () => (await ch.query({ query: 'SELECT name FROM default.customers WHERE id = 9', format: 'JSONEachRow' })).json(),
      (r) => r.length === 1,
    );
    expect(rows).toEqual([{ name: 'Edsger' }]);
  }, 60_000);

  it('stopping Connect stops the feeders', async () => {
    await host.supervisor.stop('connect');
    await waitFor(async () => host.queues.feeders(), (f) => f.length === 0, 5_000);
    expect(host.queues.feeders()).toEqual([]);
  }, 30_000);
});
