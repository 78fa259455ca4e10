/**
 * Behaviour read from Kafka 3.9's source (tag 3.9.0-rc3): ConnectorsResource,
 * ConnectorPluginsResource, RootResource, LoggingResource, InternalClusterResource,
 * AbstractHerder, StandaloneHerder, Worker, Loggers, ConfigDef; Jackson texts from
 * jackson-databind 2.17 run against copies of the entity classes (Kafka ships 2.16.2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useConnectService, type Json } from '../testing/connect-service.test-util.js';
import { javaHashMapOrder } from './routes.js';

const ASSETS = path.resolve(__dirname, '../../../../assets/cdc');
const LOC = (line: number, col: number) => `\n at [Source: REDACTED (\`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION\` disabled); line: ${line}, column: ${col}]`;
const REQ = 'org.apache.kafka.connect.runtime.rest.entities.CreateConnectorRequest';
const service = useConnectService('loupe-rest39-');
const start = async () => (await service()).call;

const sink = () => (JSON.parse(fs.readFileSync(path.join(ASSETS, 'sink-variant1.json'), 'utf8')) as { config: Record<string, string> }).config;
const err = (status: number, message: string) => ({ status, body: { error_code: status, message } });
const pick = (r: { status: number; body: Json }) => ({ status: r.status, body: r.body });

describe('Kafka Connect 3.9 REST, checked against its source', () => {
  it('request bodies bind as Jackson binds them: unknown fields, initial_state, wrong types, numbers as written, trailing text', async () => {
    const call = await start();
    expect(pick(await call('POST', '/connectors', '{"name":"x","config":{},"foo":1}'))).toEqual(
      err(500, `Unrecognized field "foo" (class ${REQ}), not marked as ignorable (3 known properties: "config", "name", "initial_state"])${LOC(1, 33)} (through reference chain: ${REQ}["foo"])`),
    );
    expect(pick(await call('POST', '/connectors', '{"name":"x","config":{},"initial_state":"bogus"}'))).toEqual(
      err(500, `Cannot construct instance of \`${REQ}$InitialState\`, problem: No enum constant ${REQ}.InitialState.BOGUS${LOC(1, 41)} (through reference chain: ${REQ}["initial_state"])`),
    );
    expect(pick(await call('POST', '/connectors', '{ "name" : "x" , "config" : { "a" : { } } }'))).toEqual(
      err(500, `Cannot deserialize value of type \`java.lang.String\` from Object value (token \`JsonToken.START_OBJECT\`)${LOC(1, 37)} (through reference chain: ${REQ}["config"]->java.util.LinkedHashMap["a"])`),
    );
    expect(pick(await call('PUT', '/connectors/x/config', '[]'))).toEqual(
      err(500, `Cannot deserialize value of type \`java.util.LinkedHashMap<java.lang.String,java.lang.String>\` from Array value (token \`JsonToken.START_ARRAY\`)${LOC(1, 1)}`),
    );
    expect(pick(await call('PUT', '/connector-plugins/MySqlConnector/config/validate', '"s"'))).toEqual(
      err(500, `Cannot construct instance of \`java.util.LinkedHashMap\` (although at least one Creator exists): no String-argument constructor/factory method to deserialize from String value ('s')${LOC(1, 1)}`),
    );
    expect(pick(await call('PATCH', '/connectors/x/offsets', '{"offsets":[{"partition":{"a":1},"offset":null,"x":1}]}'))).toEqual(
      err(
        500,
        `Unrecognized field "x" (class org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset), not marked as ignorable (2 known properties: "partition", "offset"])${LOC(1, 53)} (through reference chain: org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets["offsets"]->java.util.ArrayList[0]->org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset["x"])`,
      ),
    );
    // Once every creator property has been read, an unknown one fails where the parser stands.
    expect(pick(await call('PATCH', '/connectors/x/offsets', '{"offsets":[],"x":"abc"}'))).toEqual(
      err(
        500,
        `Unrecognized field "x" (class org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets), not marked as ignorable (one known property: "offsets"])${LOC(1, 20)} (through reference chain: org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets["x"])`,
      ),
    );
    // Jackson keeps a number's text when it binds it to a String, and stops after the first value.
    const created = await call('POST', '/connectors', `{"name":"s","initial_state":"stopped","config":${JSON.stringify({ ...sink(), name: 's' }).replace(/}$/, ',"x.scale":1.50}')}} trailing`);
    expect(created.status).toBe(201);
    expect(created.body.config['x.scale']).toBe('1.50');
    expect(created.headers.get('location')).toMatch(/\/connectors\/s$/);
  });

  it('validation runs before the existence check, unknown classes are a 500, names are checked for control characters', async () => {
    const call = await start();
    const cfg = { ...sink(), name: 's' };
    expect((await call('POST', '/connectors', { name: 's', config: cfg })).status).toBe(201);
    // StandaloneHerder: maybeAddConfigErrors before configState.contains → 400, not 409.
    const invalid = await call('POST', '/connectors', { name: 's', config: { ...cfg, 'tasks.max': 'x' } });
    expect(invalid.status).toBe(400);
    expect((await call('POST', '/connectors', { name: 's', config: cfg })).body).toEqual({ error_code: 409, message: 'Connector s already exists' });
    // Plugins.connectorClass throws ConnectException, which ConnectExceptionMapper makes a 500.
    const unknown = await call('POST', '/connectors', { name: 'u', config: { 'connector.class': 'com.example.Nope' } });
    expect(unknown.status).toBe(500);
    expect(unknown.body.message).toMatch(/^Failed to find any class that implements Connector and which name matches com\.example\.Nope, available connectors are: PluginDesc\{klass=class /);
    expect((await call('PUT', '/connector-plugins/Nope/config/validate', { 'connector.class': 'Nope' })).status).toBe(500);
    const ctl = await call('POST', '/connectors', { name: 'a\nb', config: { ...cfg, name: undefined } });
    expect(ctl.status).toBe(400);
    expect(ctl.body.message).toContain('\nInvalid value a\nb for configuration name: String may not contain control sequences but had the following ASCII chars: 10\n');
    // The empty name is one error among the others, not a separate check.
    const empty = await call('POST', '/connectors', { name: ' ', config: { ...cfg, name: undefined, 'tasks.max': 'x' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^Connector configuration is invalid and contains the following [2-9] error\(s\):/);
    expect(empty.body.message).toContain('\nInvalid value  for configuration name: String may not be empty');
  });

  it('validate names the result after connector.class as given; plugin config adds the framework keys', async () => {
    const call = await start();
    const v = await call('PUT', '/connector-plugins/ClickHouseSinkConnector/config/validate', { ...sink(), 'connector.class': 'ClickHouseSinkConnector', name: 'v' });
    expect(v.status).toBe(200);
    expect(v.body.name).toBe('ClickHouseSinkConnector');
    const keys = ((await call('GET', '/connector-plugins/ClickHouseSinkConnector/config')).body as { name: string }[]).map((k) => k.name);
    expect(keys).toContain('hostname');
    expect(keys).toContain('tasks.max');
    expect(keys).toContain('topics');
    expect(keys.indexOf('hostname')).toBeLessThan(keys.indexOf('tasks.max'));
    const all = (await call('GET', '/connector-plugins?connectorsOnly=FALSE')).body as { class: string; type: string }[];
    expect(all.filter((p) => p.type === 'header_converter').map((p) => p.class)).toEqual(['org.apache.kafka.connect.json.JsonConverter', 'org.apache.kafka.connect.storage.StringConverter']);
    expect((await call('GET', '/connector-plugins?connectorsOnly=yes')).body.length).toBe(all.length);
  });

  it('validate lists each transform\'s implicit predicate and negate keys and each predicate\'s keys, grouped as ConnectorConfig.enrich groups them', async () => {
    const call = await start();
    const config = {
      ...sink(),
      transforms: 'flatten,drop',
      'transforms.drop.type': 'org.apache.kafka.connect.transforms.Filter',
      'transforms.drop.predicate': 'isTombstone',
      'transforms.drop.negate': 'false',
      predicates: 'isTombstone,matches',
      'predicates.isTombstone.type': 'org.apache.kafka.connect.transforms.predicates.RecordIsTombstone',
      'predicates.matches.type': 'org.apache.kafka.connect.transforms.predicates.TopicNameMatches',
      'predicates.matches.pattern': 'cust.*',
    };
    const v = await call('PUT', '/connector-plugins/ClickHouseSinkConnector/config/validate', config);
    expect(v.status).toBe(200);
    const byName = new Map((v.body.configs as { definition: { name: string; group: string; type: string; default_value: string | null; display_name: string }; value: { value: unknown; errors: string[] } }[]).map((c) => [c.definition.name, c]));
    expect(byName.get('transforms.drop.predicate')).toMatchObject({ definition: { group: 'Transforms: drop', type: 'STRING', display_name: 'predicate' }, value: { value: 'isTombstone', errors: [] } });
    expect(byName.get('transforms.flatten.negate')).toMatchObject({ definition: { group: 'Transforms: flatten', type: 'BOOLEAN', default_value: 'false' }, value: { errors: [] } });
    expect(byName.get('predicates.matches.type')).toMatchObject({ definition: { group: 'Predicates: matches', type: 'CLASS', display_name: 'Predicate type for matches' } });
    expect(byName.get('predicates.matches.pattern')).toMatchObject({ definition: { group: 'Predicates: matches' }, value: { value: 'cust.*', errors: [] } });
    expect(v.body.groups).toEqual(expect.arrayContaining(['Transforms: drop', 'Predicates: isTombstone', 'Predicates: matches']));
    expect(v.body.error_count).toBe(0);
  });

  it('offsets, stop, PATCH config and restart texts of the standalone herder', async () => {
    const call = await start();
    // The resource checks for offsets before the herder looks the connector up.
    expect(pick(await call('PATCH', '/connectors/nope/offsets', { offsets: [] }))).toEqual(err(400, 'Partitions / offsets need to be provided for an alter offsets request'));
    expect(pick(await call('PATCH', '/connectors/nope/offsets', ''))).toEqual(
      err(500, 'Cannot invoke "org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets.offsets()" because "offsets" is null'),
    );
    expect(pick(await call('PUT', '/connectors/nope/stop'))).toEqual(err(500, 'No connector `nope` configured'));
    expect(pick(await call('PATCH', '/connectors/nope/config', ''))).toEqual(err(404, 'Connector nope not found'));
    await call('POST', '/connectors', { name: 's', config: { ...sink(), name: 's' }, initial_state: 'STOPPED' });
    expect(pick(await call('PATCH', '/connectors/s/config', ''))).toEqual(err(500, 'Cannot invoke "java.util.Map.forEach(java.util.function.BiConsumer)" because "patch" is null'));
    // ConnectUtils.patchConfig and the herder do not compare the patched name with the URL.
    const renamed = await call('PATCH', '/connectors/s/config', { name: 'other' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.config.name).toBe('other');
    expect(pick(await call('GET', '/connectors/s/tasks/2147483648/status'))).toEqual(err(404, 'HTTP 404 Not Found'));
    expect(pick(await call('GET', '/connectors/s/tasks/+0/status'))).toEqual(err(404, 'No status found for task s-0'));
  });

  it('tasks-config, health, internal endpoints and /admin/loggers', async () => {
    const call = await start();
    expect(pick(await call('GET', '/health'))).toEqual({ status: 200, body: { status: 'healthy', message: 'Worker has completed startup and is ready to handle requests.' } });
    expect(pick(await call('GET', '/connectors/nope/tasks-config'))).toEqual(err(404, 'Connector nope not found'));
    await call('POST', '/connectors', { name: 's', config: { ...sink(), name: 's', exactlyOnce: 'false', port: '1' } });
    const tc = await call('GET', '/connectors/s/tasks-config');
    expect(tc.status).toBe(200);
    expect(Object.keys(tc.body)).toEqual(['s-0']);
    expect(tc.body['s-0']).toEqual((await call('GET', '/connectors/s/tasks')).body[0].config);
    expect(pick(await call('POST', '/connectors/s/tasks', '[]'))).toEqual(err(500, 'Kafka Connect in standalone mode does not support externally setting task configurations.'));
    expect(pick(await call('POST', '/connectors/s/tasks', ''))).toEqual(err(500, 'No content to map due to end-of-input\n at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1]'));
    expect(pick(await call('PUT', '/connectors/s/fence'))).toEqual(err(500, 'Kafka Connect in standalone mode does not support exactly-once source connectors.'));

    expect(pick(await call('GET', '/admin/loggers'))).toEqual({ status: 200, body: { 'org.reflections': { level: 'ERROR', last_modified: null }, root: { level: 'INFO', last_modified: null } } });
    expect(pick(await call('GET', '/admin/loggers/ROOT'))).toEqual({ status: 200, body: { level: 'INFO', last_modified: null } });
    expect(pick(await call('GET', '/admin/loggers/org.apache.kafka.nope'))).toEqual(err(404, 'Logger org.apache.kafka.nope not found.'));
    expect(pick(await call('PUT', '/admin/loggers/org.apache', {}))).toEqual(err(400, "Desired 'level' parameter was not specified in request."));
    expect(pick(await call('PUT', '/admin/loggers/org.apache', { level: 'loud' }))).toEqual(err(404, "invalid log level 'loud'."));
    expect(pick(await call('PUT', '/admin/loggers/org.apache', ''))).toEqual(err(500, 'Cannot invoke "java.util.Map.get(Object)" because "levelMap" is null'));
    expect(pick(await call('PUT', '/admin/loggers/org.apache.kafka.connect', { level: 'debug' }))).toEqual({ status: 200, body: ['org.apache.kafka.connect'] });
    // A plain prefix match, and a logger already at the level is listed but keeps last_modified null.
    expect((await call('PUT', '/admin/loggers/org', { level: 'ERROR' })).body).toEqual(['org', 'org.apache.kafka.connect', 'org.reflections']);
    expect((await call('GET', '/admin/loggers/org.reflections')).body).toEqual({ level: 'ERROR', last_modified: null });
    const connect = (await call('GET', '/admin/loggers/org.apache.kafka.connect')).body;
    expect(connect.level).toBe('ERROR');
    expect(typeof connect.last_modified).toBe('number');
    const cluster = await call('PUT', '/admin/loggers/root?scope=cluster', { level: 'WARN' });
    expect(cluster.status).toBe(204);
    expect((await call('GET', '/admin/loggers')).body.root.level).toBe('WARN');
  });

  it('connector names come in java.util.HashMap order', async () => {
    // "b" hashes to bucket 2, "a" to 1, "aa" (3104) to 0 in a 16-slot table.
    expect(javaHashMapOrder(['a', 'aa', 'b'])).toEqual(['aa', 'a', 'b']);
    const call = await start();
    for (const name of ['b', 'aa', 'a']) await call('POST', '/connectors', { name, config: { ...sink(), name }, initial_state: 'STOPPED' });
    expect((await call('GET', '/connectors')).body).toEqual(['aa', 'a', 'b']);
    expect(Object.keys((await call('GET', '/connectors?expand=info')).body)).toEqual(['aa', 'a', 'b']);
  });
});
