/**
 * Two ClickHouse sinks with exactlyOnce on one topic and one state table: the second writes
 * nothing, as the real connector does, and both connectors' task status and the worker's log say
 * so, naming the shared key and the setting that separates them. And a sink whose hostname does
 * not resolve fails at start naming the setting, as the real connector's start-up ping fails it.
 */
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../../common/log.js';
import { until, useClickHouseAndConnect } from '../../../testing/clickhouse-fixture.test-util.js';

const log = memoryLogger();
const fx = useClickHouseAndConnect('loupe-sink-shared-', { log });

type Status = { connector: { state: string }; tasks: { id: number; state: string; trace?: string }[] };
const status = async (name: string) => (await (await fetch(`${fx.connect.url}/connectors/${name}/status`)).json()) as Status;
const post = async (name: string, config: Record<string, string>) => {
  const r = await fetch(`${fx.connect.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, config }) });
  expect(r.status).toBe(201);
};
const sink = (table: string, extra: Record<string, string> = {}) => ({
  'connector.class': 'com.clickhouse.kafka.connect.ClickHouseSinkConnector',
  topics: 'events',
  hostname: '127.0.0.1',
  port: new URL(fx.ch.url).port,
  database: 'default',
  exactlyOnce: 'true',
  topic2TableMap: `events=${table}`,
  'value.converter': 'org.apache.kafka.connect.json.JsonConverter',
  'value.converter.schemas.enable': 'false',
  'key.converter': 'org.apache.kafka.connect.storage.StringConverter',
  ...extra,
});

describe('two exactly-once sinks on one topic', () => {
  it('with the same state table: the second writes nothing, and both say why and what separates them', async () => {
    await fx.ch.api.query('CREATE TABLE first_copy (id Int32) ENGINE = MergeTree ORDER BY id');
    await fx.ch.api.query('CREATE TABLE second_copy (id Int32) ENGINE = MergeTree ORDER BY id');
    await fx.connect.api.topicLog.produce('events', [1, 2, 3].map((id) => ({ key: String(id), value: JSON.stringify({ id }) })));
    await post('first', sink('first_copy'));
    const firstCount = await until(() => fx.ch.api.query('SELECT count() AS n FROM first_copy'), (t) => t === '{"n":3}\n');
    expect(firstCount).toBe('{"n":3}\n');
    await post('second', sink('second_copy'));

    const shared = /^Warning: connector '(first|second)' keeps its exactly-once state under the same key 'events-0' \(state table 'connect_state' in database 'default' on 127\.0\.0\.1:\d+\): .* writes nothing to its table\. Give one of them a state table of its own with zkDatabase \(and, on a ClickHouse server, a KeeperMap path of its own with zkPath\)/;
    const second = await until(() => status('second'), (s) => !!s.tasks[0]?.trace && s.tasks[0].state === 'RUNNING');
    expect(second.tasks[0]).toMatchObject({ state: 'RUNNING', trace: expect.stringMatching(shared) });
    expect(second.tasks[0]!.trace).toContain("connector 'first'");
    expect((await status('first')).tasks[0]).toMatchObject({ state: 'RUNNING', trace: expect.stringContaining("connector 'second'") });
    expect(log.lines.some((l) => l.includes('connector second: Warning:') && l.includes("'events-0'") && l.includes('zkDatabase'))).toBe(true);
    // the behaviour is the real connector's: the range is already done, so nothing lands
    await new Promise((r) => setTimeout(r, 1500));
    expect(await fx.ch.api.query('SELECT count() AS n FROM second_copy')).toBe('{"n":0}\n');
  });

  it('with a state table of its own (zkDatabase), the second copies the topic and neither warns', async () => {
    await fx.ch.api.query('CREATE TABLE third_copy (id Int32) ENGINE = MergeTree ORDER BY id');
    await fetch(`${fx.connect.url}/connectors/second`, { method: 'DELETE' });
    await post('third', sink('third_copy', { zkDatabase: 'connect_state_third' }));
    expect(await until(() => fx.ch.api.query('SELECT count() AS n FROM third_copy'), (t) => t === '{"n":3}\n')).toBe('{"n":3}\n');
    const first = await until(() => status('first'), (s) => !s.tasks[0]?.trace);
    expect(first.tasks[0]).toEqual({ id: 0, state: 'RUNNING', worker_id: expect.any(String) });
    expect((await status('third')).tasks[0]!.trace).toBeUndefined();
  });
});

describe('a sink whose hostname does not resolve', () => {
  it('fails its task at start, naming the hostname setting, without waiting for the retry timeout', async () => {
    await post('lost', sink('first_copy', { hostname: 'clickhouse.does-not-exist.invalid', exactlyOnce: 'false' }));
    const s = await until(() => status('lost'), (x) => x.tasks[0]?.state === 'FAILED', 15_000);
    expect(s.tasks[0]!.state).toBe('FAILED');
    expect(s.tasks[0]!.trace).toContain(
      "Could not reach ClickHouse: the host name 'clickhouse.does-not-exist.invalid' does not resolve (getaddrinfo ENOTFOUND clickhouse.does-not-exist.invalid). Change the sink's 'hostname' setting",
    );
  });
});
