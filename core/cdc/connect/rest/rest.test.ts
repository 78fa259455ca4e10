/**
 * Kafka Connect's REST API shapes on the embedded worker: root, plugins, config CRUD, expand,
 * pause/resume persisted across a restart, restart answers, tasks, sink offsets, and the error
 * texts Kafka Connect 3.9 uses (golden texts from AbstractHerder / StandaloneHerder /
 * ConnectorsResource).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useConnectService } from '../testing/connect-service.test-util.js';

const ASSETS = path.resolve(__dirname, '../../../../assets/cdc');
const start = useConnectService('loupe-rest-');

const source = () => JSON.parse(fs.readFileSync(path.join(ASSETS, 'source-variant1.json'), 'utf8')) as { name: string; config: Record<string, string> };
const sink = () => JSON.parse(fs.readFileSync(path.join(ASSETS, 'sink-variant1.json'), 'utf8')) as { name: string; config: Record<string, string> };

// Worker.completeModifyOffsetsCallback's text for connectors whose alterOffsets() returns false.
const MODIFIED = (kind: string) =>
  `The Connect framework-managed offsets for this connector have been ${kind} successfully. However, if this connector manages offsets externally, they will need to be manually ${kind} in the system that the connector uses.`;

async function until(f: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Kafka Connect REST shapes', () => {
  it('root, plugins and plugin config', async () => {
    const { call } = await start();
    const root = await call('GET', '/');
    expect(root.status).toBe(200);
    expect(Object.keys(root.body)).toEqual(['version', 'commit', 'kafka_cluster_id']);
    expect(root.body.version).toBe('3.9.0');
    expect(root.body.commit).toMatch(/^[0-9a-f]{16}$/);
    expect(root.body.kafka_cluster_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const plugins = await call('GET', '/connector-plugins');
    expect(plugins.body).toEqual([
      { class: 'com.clickhouse.kafka.connect.ClickHouseSinkConnector', type: 'sink', version: 'v1.3.4' },
      { class: 'io.debezium.connector.mysql.MySqlConnector', type: 'source', version: '1.9.8.Final' },
    ]);
    const all = (await call('GET', '/connector-plugins?connectorsOnly=false')).body as { class: string; type: string }[];
    expect(all.filter((p) => p.type === 'transformation').map((p) => p.class)).toEqual([
      'io.debezium.transforms.ExtractNewRecordState',
      ...['Cast$Key', 'Cast$Value', 'DropHeaders', 'ExtractField$Key', 'ExtractField$Value', 'Filter', 'Flatten$Key', 'Flatten$Value', 'HeaderFrom$Key', 'HeaderFrom$Value', 'HoistField$Key', 'HoistField$Value', 'InsertField$Key', 'InsertField$Value', 'InsertHeader', 'MaskField$Key', 'MaskField$Value', 'RegexRouter', 'ReplaceField$Key', 'ReplaceField$Value', 'SetSchemaMetadata$Key', 'SetSchemaMetadata$Value', 'TimestampConverter$Key', 'TimestampConverter$Value', 'TimestampRouter', 'ValueToKey'].map((c) => `org.apache.kafka.connect.transforms.${c}`),
    ]);
    // ConnectorPluginsResource: sinks, sources, transformations, predicates, converters, header converters
    expect([...new Set(all.map((p) => p.type))]).toEqual(['sink', 'source', 'transformation', 'predicate', 'converter', 'header_converter']);
    expect(all.filter((p) => p.type === 'predicate')).toEqual(['HasHeaderKey', 'RecordIsTombstone', 'TopicNameMatches'].map((c) => ({ class: `org.apache.kafka.connect.transforms.predicates.${c}`, type: 'predicate', version: '3.9.0' })));
    expect((await call('GET', '/connector-plugins/TopicNameMatches/config')).body).toEqual([
      { name: 'pattern', type: 'STRING', required: true, default_value: null, importance: 'MEDIUM', documentation: "A Java regular expression for matching against the name of a record's topic.", group: null, width: 'NONE', display_name: 'pattern', dependents: [], order: -1 },
    ]);
    const cfg = (await call('GET', '/connector-plugins/MySqlConnector/config')).body as { name: string }[];
    expect(Object.keys(cfg[0]!)).toEqual(['name', 'type', 'required', 'default_value', 'importance', 'documentation', 'group', 'order', 'width', 'display_name', 'dependents']);
    expect(cfg.map((c) => c.name)).toContain('database.hostname');
    expect(await call('GET', '/connector-plugins/Nope/config')).toEqual({ status: 404, body: { error_code: 404, message: 'Unknown plugin Nope.' } });
  });

  it('PUT config creates (201) then replaces (200); PATCH sets and removes keys; ?expand gives status and info', async () => {
    const { call } = await start();
    const cfg = { ...source().config, name: 'src', 'snapshot.mode': 'never' };
    const created = await call('PUT', '/connectors/src/config', cfg);
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('src');
    const replaced = await call('PUT', '/connectors/src/config', { ...cfg, 'include.query': 'true' });
    expect(replaced.status).toBe(200);
    const patched = await call('PATCH', '/connectors/src/config', { 'include.query': null, 'max.batch.size': '100' });
    expect(patched.status).toBe(200);
    const now = (await call('GET', '/connectors/src/config')).body;
    expect(now['include.query']).toBeUndefined();
    expect(now['max.batch.size']).toBe('100');
    const expanded = (await call('GET', '/connectors?expand=status&expand=info')).body;
    expect(Object.keys(expanded)).toEqual(['src']);
    expect(Object.keys(expanded.src)).toEqual(['status', 'info']);
    expect(expanded.src.info).toMatchObject({ name: 'src', type: 'source', tasks: [{ connector: 'src', task: 0 }] });
    expect(expanded.src.status).toMatchObject({ name: 'src', type: 'source', connector: { state: 'RUNNING' } });
    const tasks = (await call('GET', '/connectors/src/tasks')).body;
    expect(tasks[0].id).toEqual({ connector: 'src', task: 0 });
    expect(tasks[0].config['task.class']).toBe('io.debezium.connector.mysql.MySqlConnectorTask');
  });

  it('pause and resume answer 202, and a paused connector stays paused after a worker restart', async () => {
    const { h, dir, call } = await start();
    await call('POST', '/connectors', { name: 'src', config: { ...source().config, name: 'src' } });
    expect((await call('PUT', '/connectors/src/pause')).status).toBe(202);
    await until(async () => (await call('GET', '/connectors/src/status')).body.tasks[0]?.state === 'PAUSED');
    expect((await call('GET', '/connectors/src/status')).body.connector.state).toBe('PAUSED');
    // (closing twice is harmless: the fixture closes it again after the test)
    await h.close();
    const again = await start(dir);
    await until(async () => (await again.call('GET', '/connectors/src/status')).body.tasks[0]?.state === 'PAUSED');
    expect((await again.call('GET', '/connectors/src/status')).body.connector.state).toBe('PAUSED');
    expect((await again.call('PUT', '/connectors/src/resume')).status).toBe(202);
    await until(async () => (await again.call('GET', '/connectors/src/status')).body.tasks[0]?.state === 'RUNNING');
  });

  it('restart: 204 without flags, 202 with the status showing RESTARTING when tasks are included', async () => {
    const { call } = await start();
    await call('POST', '/connectors', { name: 'src', config: { ...source().config, name: 'src' } });
    await until(async () => (await call('GET', '/connectors/src/status')).body.tasks[0]?.state === 'RUNNING');
    expect((await call('POST', '/connectors/src/restart')).status).toBe(204);
    const r = await call('POST', '/connectors/src/restart?includeTasks=true&onlyFailed=false');
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ name: 'src', connector: { state: 'RESTARTING' }, tasks: [{ id: 0, state: 'RESTARTING' }], type: 'source' });
    await until(async () => (await call('GET', '/connectors/src/status')).body.tasks[0]?.state === 'RUNNING');
    // onlyFailed with nothing failed restarts nothing.
    const none = await call('POST', '/connectors/src/restart?includeTasks=true&onlyFailed=true');
    expect(none.body).toMatchObject({ connector: { state: 'RUNNING' }, tasks: [{ id: 0, state: 'RUNNING' }] });
    expect((await call('POST', '/connectors/src/tasks/0/restart')).status).toBe(204);
  });

  it('sink offsets: created STOPPED, altered with kafka_topic/kafka_partition/kafka_offset, read back, reset', async () => {
    const { call } = await start();
    const s = sink();
    const created = await call('POST', '/connectors', { name: 'sink', config: { ...s.config, name: 'sink' }, initial_state: 'STOPPED' });
    expect(created.status).toBe(201);
    expect(created.body.tasks).toEqual([]);
    expect((await call('GET', '/connectors/sink/status')).body).toMatchObject({ connector: { state: 'STOPPED' }, tasks: [], type: 'sink' });
    expect(await call('GET', '/connectors/sink/offsets')).toEqual({ status: 200, body: { offsets: [] } });
    const altered = await call('PATCH', '/connectors/sink/offsets', { offsets: [{ partition: { kafka_topic: 'customers', kafka_partition: 0 }, offset: { kafka_offset: 5 } }] });
    expect(altered).toEqual({ status: 200, body: { message: MODIFIED('altered') } });
    expect((await call('GET', '/connectors/sink/offsets')).body).toEqual({ offsets: [{ partition: { kafka_topic: 'customers', kafka_partition: 0 }, offset: { kafka_offset: 5 } }] });
    expect(await call('PATCH', '/connectors/sink/offsets', { offsets: [{ partition: { topic: 'customers' }, offset: { kafka_offset: 1 } }] })).toEqual({
      status: 400,
      body: { error_code: 400, message: "The partition for a sink connector offset must contain the keys 'kafka_topic' and 'kafka_partition'" },
    });
    expect(await call('PATCH', '/connectors/sink/offsets', { offsets: [] })).toEqual({ status: 400, body: { error_code: 400, message: 'Partitions / offsets need to be provided for an alter offsets request' } });
    expect((await call('DELETE', '/connectors/sink/offsets')).body).toEqual({ message: MODIFIED('reset') });
    expect((await call('GET', '/connectors/sink/offsets')).body).toEqual({ offsets: [] });
  });

  it('errors.tolerance=all with a dead letter queue: records the converter rejects go to the DLQ with __connect.errors.* headers', async () => {
    const { h, call } = await start();
    await h.api.topicLog.produce('raw', [
      { key: null, value: 'not json' },
      { key: '"k"', value: '{"truncated":' },
    ]);
    const cfg = { ...sink().config, name: 'dlq-sink', topics: 'raw', exactlyOnce: 'false', port: '1', 'errors.tolerance': 'all', 'errors.deadletterqueue.topic.name': 'dlq', 'errors.deadletterqueue.context.headers.enable': 'true' };
    expect((await call('POST', '/connectors', { name: 'dlq-sink', config: cfg })).status).toBe(201);
    await until(async () => ((await h.api.topicLog.describeTopic('dlq'))?.partitions[0]?.endOffset ?? 0) >= 2);
    const dead = await h.api.topicLog.fetch('dlq', 0, 0);
    expect(dead.map((r) => r.value)).toEqual(['not json', '{"truncated":']);
    const headers = Object.fromEntries(dead[1]!.headers.map((x) => [x.key, x.value]));
    expect(headers).toMatchObject({
      '__connect.errors.topic': 'raw',
      '__connect.errors.partition': '0',
      '__connect.errors.offset': '1',
      '__connect.errors.connector.name': 'dlq-sink',
      '__connect.errors.task.id': '0',
      '__connect.errors.stage': 'VALUE_CONVERTER',
      '__connect.errors.class.name': 'org.apache.kafka.connect.json.JsonConverter',
      '__connect.errors.exception.class.name': 'org.apache.kafka.connect.errors.DataException',
    });
    await until(async () => (await call('GET', '/connectors/dlq-sink/offsets')).body.offsets[0]?.offset.kafka_offset === 2);
    expect((await call('GET', '/connectors/dlq-sink/status')).body.tasks[0].state).toBe('RUNNING');
  });

  it('error texts for unknown connectors, tasks, media types and bodies', async () => {
    const { call } = await start();
    expect(await call('GET', '/connectors/nope/status')).toEqual({ status: 404, body: { error_code: 404, message: 'No status found for connector nope' } });
    expect(await call('PUT', '/connectors/nope/pause')).toEqual({ status: 404, body: { error_code: 404, message: 'Unknown connector nope' } });
    expect(await call('DELETE', '/connectors/nope')).toEqual({ status: 404, body: { error_code: 404, message: 'Connector nope not found' } });
    expect(await call('GET', '/connectors/nope/tasks/0/status')).toEqual({ status: 404, body: { error_code: 404, message: 'No status found for task nope-0' } });
    expect(await call('GET', '/connectors/nope/tasks/abc/status')).toEqual({ status: 404, body: { error_code: 404, message: 'HTTP 404 Not Found' } });
    expect(await call('GET', '/connectors/nope/topics')).toEqual({ status: 200, body: { nope: { topics: [] } } });
    expect(await call('POST', '/connectors', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' })).toEqual({ status: 415, body: { error_code: 415, message: 'HTTP 415 Unsupported Media Type' } });
    const empty = await call('POST', '/connectors', '');
    expect(empty.status).toBe(500);
    expect(empty.body.message).toBe('Cannot invoke "org.apache.kafka.connect.runtime.rest.entities.CreateConnectorRequest.name()" because "createRequest" is null');
    const token = await call('POST', '/connectors', 'nonsense');
    expect(token.body.message).toMatch(/^Unrecognized token 'nonsense': was expecting \(JSON String, Number, Array, Object or token 'null', 'true' or 'false'\)/);
    const cut = await call('POST', '/connectors', '{"name": "x"');
    expect(cut.body.message).toMatch(/^Unexpected end-of-input: expected close marker for OBJECT/);
    // The server is still up after all of that.
    expect((await call('GET', '/connectors')).status).toBe(200);
  });

  it('refuses what a web page can make a browser send: JSON under a text/plain type, another Origin, a rebound Host', async () => {
    const { call, h } = await start();
    // text/plain with any parameters needs no preflight, so a page may POST it cross-site
    expect(await call('POST', '/connectors', source(), { 'content-type': 'text/plain; a=json' })).toEqual({ status: 415, body: { error_code: 415, message: 'HTTP 415 Unsupported Media Type' } });
    const cross = await call('POST', '/connectors', source(), { 'content-type': 'application/json', origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.body).toEqual({ error_code: 403, message: expect.stringMatching(/^Requests from origin https:\/\/evil\.example are refused/) });
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(h.url);
      const r = http.request({ host: '127.0.0.1', port: u.port, path: '/connectors', headers: { host: `evil.example:${u.port}` } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      r.on('error', reject);
      r.end();
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).message).toMatch(/^Host header "evil\.example:\d+" does not name this machine's loopback interface/);
    // nothing was created, and the worker's own origin still gets in
    expect(await call('GET', '/connectors', undefined, { origin: h.url.replace(/\/$/, '') })).toEqual({ status: 200, body: [] });
  });
});
