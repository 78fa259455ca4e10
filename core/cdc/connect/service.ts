/**
 * The `connect` service: the embedded source (at its own address, ctx.sourcePort), the topic log
 * and the Kafka Connect worker with its REST API on ctx.port. `ctx.peers.clickhouse` is the ClickHouse URL the sink connector uses.
 */
import path from 'node:path';
import type { ServiceContext, ServiceHandle } from '../../common/service.js';
import { EmbeddedLog } from '../log/embedded-log.js';
import type { TopicLog } from '../log/types.js';
import { KafkaLog } from '../log/kafka-log.js';
import { EmbeddedSource } from '../source/embedded-source.js';
import { EMBEDDED_SOURCE_DEFAULT_ADDRESS } from '../source/address.js';
import { startSourceServer, type SourceServer } from '../source/http/server.js';
import { CONNECTOR_PLUGINS } from './plugins/index.js';
import { startConnectRest } from './rest/server.js';
import { Worker } from './worker/worker.js';

export interface ConnectApi {
  source: EmbeddedSource;
  /** The embedded source's own address: a source connector naming it captures the embedded source. */
  sourceAddress: { host: string; port: number };
  topicLog: TopicLog;
  worker: Worker;
}

/**
 * `LOUPE_KAFKA_BROKERS=host:9092,…` puts the worker's topics, offsets and consumer groups on a
 * real Kafka (kafkajs) instead of the embedded log.
 */
export async function startConnectService(ctx: ServiceContext, env: NodeJS.ProcessEnv = process.env): Promise<ServiceHandle<ConnectApi>> {
  const log = ctx.log;
  const source = await EmbeddedSource.open({ dir: path.join(ctx.dataDir, 'source'), log: log.child('source') });
  const brokers = (env.LOUPE_KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  let topicLog: TopicLog;
  try {
    topicLog = brokers.length ? await KafkaLog.connect({ brokers, transactionalId: `loupe-connect-${path.basename(ctx.dataDir)}` }) : await EmbeddedLog.open({ dir: path.join(ctx.dataDir, 'log'), log: log.child('log') });
  } catch (err) {
    await source.close();
    throw new Error(`connect: could not reach Kafka at ${brokers.join(',')}: ${(err as Error).message}`, { cause: err });
  }
  let resolveWorker!: (w: Worker) => void;
  const workerReady = new Promise<Worker>((r) => (resolveWorker = r));
  let rest;
  let own: SourceServer | undefined;
  try {
    // the embedded source's own address, when the host gives it a port (in-process use without
    // one takes the default address, 127.0.0.1:3306, without listening)
    if (ctx.sourcePort !== undefined) own = await startSourceServer({ host: ctx.host, port: ctx.sourcePort, source, log: log.child('source') });
    rest = await startConnectRest({ host: ctx.host, port: ctx.port, log: log.child('rest'), deps: async () => ({ worker: await workerReady, source }) });
  } catch (err) {
    await own?.close();
    await topicLog.close();
    await source.close();
    throw err;
  }
  const address = own ? { host: ctx.host, port: own.port } : EMBEDDED_SOURCE_DEFAULT_ADDRESS;
  const worker = await Worker.start({
    dataDir: path.join(ctx.dataDir, 'worker'),
    log: log.child('worker'),
    topicLog,
    plugins: [...CONNECTOR_PLUGINS],
    workerId: `${ctx.host}:${rest.port}`,
    peers: { ...ctx.peers },
    resources: { embeddedSource: source, embeddedSourceAddress: address },
    sinkThreads: env.LOUPE_CONNECT_SINK_THREADS !== '0',
  });
  resolveWorker(worker);
  let closed = false;
  return {
    url: `http://${ctx.host}:${rest.port}`,
    ...(own ? { extraUrls: { source: own.url } } : {}),
    api: { source, topicLog, worker, sourceAddress: address },
    async close() {
      if (closed) return;
      closed = true;
      await rest.close();
      await own?.close();
      await worker.close();
      await topicLog.close();
      await source.close();
    },
  };
}
