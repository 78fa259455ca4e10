/**
 * The consumer side of a sink task, as a Kafka Connect worker runs it: fetch from the group's
 * position (honouring max.poll.records and max.partition.fetch.bytes), convert with the
 * JsonConverter (schemas disabled), put, and commit what preCommit allows. Long-polls the log.
 */
import type { TopicLog } from '../../core/cdc/log/types.js';
import { silentLogger } from '../../core/common/log.js';
import type { ConnectorConfig, SinkRecord, SinkTaskContext } from '../../core/cdc/connect/plugin.js';
import { ClickHouseSinkTask, type SinkTaskHooks } from '../../core/cdc/connect/plugins/clickhouse-sink/task.js';

export interface SinkLoopHandle {
  /** Next offset the sink has put (and, with exactlyOnce, recorded AFTER_PROCESSING). */
  position(): number;
  stop(): Promise<void>;
}

export async function startSinkLoop(log: TopicLog, config: ConnectorConfig, group: string, dataDir: string, hooks?: SinkTaskHooks): Promise<SinkLoopHandle> {
  const topic = config.topics!;
  let seek: number | undefined;
  const ctx: SinkTaskContext = {
    services: { log: silentLogger, dataDir, peers: {}, now: () => Date.now(), resource: () => undefined },
    connector: 'clickhouse-sink',
    taskId: 0,
    assignment: () => [{ topic, partition: 0 }],
    offset: (o) => (seek = o[0]?.offset),
    committedOffsets: () => log.committedOffsets(group),
    requestCommit: () => {},
    topicLog: log,
  };
  const task = new ClickHouseSinkTask(hooks);
  await task.start(config, ctx);
  let pos = (await log.committedOffsets(group)).find((c) => c.topic === topic)?.offset ?? 0;
  if (seek !== undefined) {
    pos = seek;
    seek = undefined;
  }
  let running = true;
  let donePos = pos;
  const maxRecords = Number(config['consumer.override.max.poll.records'] ?? 500);
  const maxBytes = Number(config['consumer.override.max.partition.fetch.bytes'] ?? 1048576);
  const fetchBatch = async (from: number): Promise<SinkRecord[]> => {
    const recs = await log.fetch(topic, 0, from, { maxRecords, maxBytes });
    return recs.map((r) => ({
      topic: r.topic,
      kafkaPartition: r.partition,
      kafkaOffset: r.offset,
      originalTopic: r.topic,
      keySchema: null,
      key: r.key === null ? null : JSON.parse(r.key),
      valueSchema: null,
      value: r.value === null ? null : JSON.parse(r.value),
      timestamp: r.timestamp,
      timestampType: 'CreateTime',
      headers: r.headers,
    }));
  };
  const loop = (async () => {
    // Like a Kafka consumer's fetcher, the next batch is fetched while the task puts this one.
    let next = fetchBatch(pos);
    while (running) {
      let records = await next;
      if (seek !== undefined) {
        pos = seek;
        seek = undefined;
        records = await fetchBatch(pos);
      }
      if (!records.length) {
        await log.waitForData(topic, 0, pos, 200);
        next = fetchBatch(pos);
        continue;
      }
      pos = records[records.length - 1]!.kafkaOffset + 1;
      next = fetchBatch(pos);
      await task.put(records);
      donePos = pos;
      await log.commitOffsets(group, await task.preCommit!([{ topic, partition: 0, offset: pos }]));
    }
    await next.catch(() => {});
  })();
  return {
    position: () => donePos,
    async stop() {
      running = false;
      await loop;
      await task.stop();
    },
  };
}
