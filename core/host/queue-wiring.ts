/**
 * Variant 2 of the CDC pipeline, embedded: ClickHouse's Kafka table engine needs a broker, so
 * Loupe's consumer feeds each queue table from the Connect worker's topic log. That joins two
 * services, so the host does it: whenever both `connect` and `clickhouse` run embedded, the
 * feeders run; when either stops, they stop.
 */
import type { Logger } from '../common/log.js';
import type { ServiceHandle } from '../common/service.js';
import type { TopicLog } from '../cdc/log/types.js';
import { startQueueFeeders, type FeederStatus, type QueueTableSource } from '../cdc/queue/feeder.js';
import type { Supervisor } from './supervisor.js';

export interface QueueWiring {
  feeders(): FeederStatus[];
  close(): Promise<void>;
}

export function wireQueueFeeders(supervisor: Supervisor, log: Logger): QueueWiring {
  let running: { connect: ServiceHandle; clickhouse: ServiceHandle; feeders: ReturnType<typeof startQueueFeeders> } | undefined;
  // Serialises start/stop so a quick stop-start of a service cannot leave two sets of feeders.
  let chain: Promise<void> = Promise.resolve();

  const sync = () => {
    chain = chain.then(async () => {
      const connect = supervisor.handle<{ topicLog: TopicLog }>('connect');
      const clickhouse = supervisor.handle<QueueTableSource>('clickhouse');
      if (running && (running.connect !== connect || running.clickhouse !== clickhouse)) {
        await running.feeders.close();
        running = undefined;
      }
      if (!running && connect && clickhouse) {
        running = {
          connect,
          clickhouse,
          feeders: startQueueFeeders({ log: connect.api.topicLog, clickhouseUrl: clickhouse.url, tables: clickhouse.api, logger: log.child('queue') }),
        };
      }
    }).catch((err) => log.error('queue feeders failed', { message: (err as Error).message }));
  };

  const off = supervisor.onChange(sync);
  sync();
  return {
    feeders: () => running?.feeders.feeders() ?? [],
    async close() {
      off();
      await chain;
      await running?.feeders.close();
      running = undefined;
    },
  };
}
