/**
 * The two ways the benchmark can carry changes from the embedded source to ClickHouse:
 *
 * - `worker`: Loupe's Kafka Connect worker with the seed's source connector (Debezium MySQL,
 *   unwrap with rewrite, RegexRouter `$3`) and the seed's sink config, both POSTed to its
 *   REST API as curl would — the real pipeline;
 * - `bridge`: the bench's own source→topic copier plus a bare sink loop, for checkouts without
 *   the worker, and to separate the sink's cost from the worker's.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { silentLogger } from '../../core/common/log.js';
import { EmbeddedSource } from '../../core/cdc/source/embedded-source.js';
import { EmbeddedLog } from '../../core/cdc/log/embedded-log.js';
import type { TopicLog } from '../../core/cdc/log/types.js';
import { startBridge, type BridgeHandle } from './bridge.js';
import { startSinkLoop, type SinkLoopHandle } from './sink-loop.js';

export interface Pipeline {
  readonly name: 'worker' | 'bridge';
  readonly description: string;
  readonly source: EmbeddedSource;
  readonly topicLog: TopicLog;
  /** Stop carrying source changes to the topic (bridge stopped / source connector paused). */
  hold(): Promise<void>;
  release(): Promise<void>;
  close(): Promise<void>;
}

export const TOPIC = 'customers';

/** The seed's variant-1 source connector config, for the embedded source. */
export const SOURCE_CONFIG = {
  name: 'mysql-source-customers',
  config: {
    'connector.class': 'io.debezium.connector.mysql.MySqlConnector',
    'tasks.max': '2',
    'database.hostname': '127.0.0.1',
    'database.port': '3306',
    'database.user': 'root',
    'database.password': '',
    'database.server.id': '184054',
    'database.server.name': 'dbserver1',
    'database.whitelist': 'demo',
    'table.whitelist': 'demo.customers',
    'snapshot.mode': 'initial',
    'database.history.kafka.bootstrap.servers': '127.0.0.1:9092',
    'database.history.kafka.topic': 'schema-changes.demo',
    'database.serverTimezone': 'UTC',
    'key.converter': 'org.apache.kafka.connect.json.JsonConverter',
    'value.converter': 'org.apache.kafka.connect.json.JsonConverter',
    'key.converter.schemas.enable': 'false',
    'value.converter.schemas.enable': 'false',
    transforms: 'unwrap,addTopicPrefix',
    'transforms.unwrap.type': 'io.debezium.transforms.ExtractNewRecordState',
    'transforms.unwrap.delete.handling.mode': 'rewrite',
    'transforms.addTopicPrefix.type': 'org.apache.kafka.connect.transforms.RegexRouter',
    'transforms.addTopicPrefix.regex': '([^.]+)\\.([^.]+)\\.([^.]+)',
    'transforms.addTopicPrefix.replacement': '$3',
    'topic.creation.default.replication.factor': '-1',
    'topic.creation.default.partitions': '-1',
    'topic.creation.enable': 'true',
  },
};

/** Records the topic holds (0 before it exists). */
export async function topicEnd(topicLog: TopicLog): Promise<number> {
  return (await topicLog.describeTopic(TOPIC)) ? (await topicLog.offsets(TOPIC, 0)).end : 0;
}

/** The values of the topic's records [from, to) with their offsets (null: a tombstone), read 50,000 at a time. */
export async function topicValues(topicLog: TopicLog, from: number, to: number): Promise<{ offset: number; value: string | null }[]> {
  const values: { offset: number; value: string | null }[] = [];
  for (let off = from; off < to; ) {
    const recs = await topicLog.fetch(TOPIC, 0, off, { maxRecords: 50_000, maxBytes: 64 * 1024 * 1024 });
    if (!recs.length) break;
    for (const r of recs) {
      if (r.offset >= to) break;
      values.push({ offset: r.offset, value: r.value });
    }
    off = recs[recs.length - 1]!.offset + 1;
  }
  return values;
}

/** Next offset whose records are all visible: from the sink's exactly-once state in ClickHouse. */
export async function visibleEnd(query: (sql: string) => Promise<string>): Promise<number> {
  const text = await query(`SELECT maxOffset FROM connect_state WHERE key = '${TOPIC}-0' AND state = 'AFTER_PROCESSING'`).catch(() => '');
  return text ? Number(JSON.parse(text).maxOffset) + 1 : 0;
}

export function sinkConfig(assets: string, clickhousePort: string): { name: string; config: Record<string, string> } {
  const seed = JSON.parse(readFileSync(path.join(assets, 'sink-variant1.json'), 'utf8')) as { name: string; config: Record<string, string> };
  return { name: seed.name, config: { ...seed.config, port: clickhousePort } };
}

export async function post(url: string, body: unknown, method = 'POST'): Promise<void> {
  const send = () => fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  // The bench blocks the event loop for seconds while it commits the workload: a kept-alive
  // socket the server closed meanwhile fails once (ECONNRESET). Pause and resume are idempotent.
  const res = await send().catch((err: Error & { cause?: { code?: string } }) => {
    if (method === 'PUT' && err.cause?.code === 'ECONNRESET') return send();
    throw err;
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** The worker path, or undefined when this checkout has no Connect service. */
export async function workerPipeline(dir: string, clickhouseUrl: string, assets: string): Promise<Pipeline | undefined> {
  let mod: typeof import('../../core/cdc/connect/service.js');
  try {
    mod = await import('../../core/cdc/connect/service.js');
  } catch {
    return undefined;
  }
  const connect = await mod.startConnectService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'connect'), log: silentLogger, peers: { clickhouse: clickhouseUrl } });
  const sink = sinkConfig(assets, new URL(clickhouseUrl).port);
  await post(`${connect.url}/connectors`, SOURCE_CONFIG);
  await post(`${connect.url}/connectors`, sink);
  return {
    name: 'worker',
    description: `Kafka Connect worker ${connect.url}: seed source connector (Debezium MySqlConnector on the embedded source, unwrap rewrite, RegexRouter $3) -> topic ${TOPIC} -> seed sink connector (exactlyOnce) -> embedded ClickHouse`,
    source: connect.api.source,
    topicLog: connect.api.topicLog,
    hold: () => post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/pause`, undefined, 'PUT'),
    release: () => post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/resume`, undefined, 'PUT'),
    close: () => connect.close(),
  };
}

export async function bridgePipeline(dir: string, clickhouseUrl: string, assets: string): Promise<Pipeline> {
  const source = await EmbeddedSource.open({ dir: path.join(dir, 'source'), seedDemo: true });
  const topicLog = await EmbeddedLog.open({ dir: path.join(dir, 'log'), retentionCheckMs: 0 });
  await topicLog.createTopic(TOPIC, { partitions: 1 });
  // The seed demo rows, as the source connector's snapshot would send them.
  let bridge: BridgeHandle | undefined = startBridge(source, topicLog, TOPIC, { file: '', pos: 0 });
  const sink: SinkLoopHandle = await startSinkLoop(topicLog, sinkConfig(assets, new URL(clickhouseUrl).port).config, 'connect-clickhouse-sink', dir);
  let resumeAt = source.position();
  return {
    name: 'bridge',
    description: `bench bridge (source change log -> topic ${TOPIC} in the seed source connector's message shape) -> ClickHouse sink task in a bare consumer loop (seed sink config, exactlyOnce) -> embedded ClickHouse`,
    source,
    topicLog,
    async hold() {
      await bridge?.stop();
      bridge = undefined;
      resumeAt = source.position();
    },
    async release() {
      bridge = startBridge(source, topicLog, TOPIC, resumeAt);
    },
    async close() {
      await bridge?.stop();
      await sink.stop();
      await topicLog.close();
      await source.close();
    },
  };
}
