/**
 * A minimal consumer loop for sink tests: fetches from the topic log from the committed offset
 * (or where the task seeks), converts keys and values with the config's converters (JsonConverter
 * by default, schemas disabled or enabled, as the worker's task runner does, the text a value was
 * parsed from included), calls put and
 * commits what preCommit allows — what a Kafka Connect worker does for a sink task. A crash hook
 * that throws stops the loop dead, like a killed worker: nothing further is written or committed.
 */
import type { TopicLog } from '../../../log/types.js';
import { silentLogger } from '../../../../common/log.js';
import type { ConnectorConfig, SinkRecord, SinkTaskContext, TopicPartitionOffset } from '../../plugin.js';
import { converterFor } from '../../converters/index.js';
import { ClickHouseSinkTask, type SinkTaskHooks } from './task.js';

export class Killed extends Error {}

export async function runSinkUntilCaughtUp(log: TopicLog, config: ConnectorConfig, opts: { group: string; hooks?: SinkTaskHooks; dataDir: string }): Promise<'done' | 'killed'> {
  const topics = config.topics!.split(',');
  const maxPoll = Number(config['consumer.override.max.poll.records'] ?? 500);
  const seeks = new Map<string, number>();
  const keyConverter = converterFor(config, true);
  const valueConverter = converterFor(config, false);
  const ctx: SinkTaskContext = {
    services: { log: silentLogger, dataDir: opts.dataDir, peers: {}, now: () => Date.now(), resource: () => undefined },
    connector: 'sink',
    taskId: 0,
    assignment: () => topics.map((topic) => ({ topic, partition: 0 })),
    offset: (offs) => offs.forEach((o) => seeks.set(o.topic, o.offset)),
    committedOffsets: () => log.committedOffsets(opts.group),
    requestCommit: () => {},
    topicLog: log,
  };
  const task = new ClickHouseSinkTask(opts.hooks);
  try {
    await task.start(config, ctx);
    const committed = await log.committedOffsets(opts.group);
    const pos = new Map(topics.map((t) => [t, committed.find((c) => c.topic === t)?.offset ?? 0]));
    for (;;) {
      let any = false;
      for (const topic of topics) {
        if (seeks.has(topic)) {
          pos.set(topic, seeks.get(topic)!);
          seeks.delete(topic);
        }
        const recs = await log.fetch(topic, 0, pos.get(topic)!, { maxRecords: maxPoll, maxBytes: Number(config['consumer.override.max.partition.fetch.bytes'] ?? 1048576) });
        if (!recs.length) continue;
        any = true;
        const sinkRecords: SinkRecord[] = recs.map((r) => {
          const k = keyConverter.toConnectData(r.topic, r.key);
          const v = valueConverter.toConnectData(r.topic, r.value);
          return {
            topic: r.topic,
            kafkaPartition: r.partition,
            kafkaOffset: r.offset,
            originalTopic: r.topic,
            keySchema: k.schema,
            key: k.value,
            valueSchema: v.schema,
            value: v.value,
            timestamp: r.timestamp,
            timestampType: 'CreateTime',
            headers: r.headers,
            valueJson: v.json === undefined ? undefined : { value: v.value, text: v.json },
          };
        });
        await task.put(sinkRecords);
        pos.set(topic, recs[recs.length - 1]!.offset + 1);
        const current: TopicPartitionOffset[] = [{ topic, partition: 0, offset: pos.get(topic)! }];
        await log.commitOffsets(opts.group, await task.preCommit!(current));
      }
      if (!any) return 'done';
    }
  } catch (err) {
    if (err instanceof Killed) return 'killed';
    throw err;
  } finally {
    await task.stop();
  }
}
