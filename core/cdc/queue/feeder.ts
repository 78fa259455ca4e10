/**
 * Variant 2 embedded: what ClickHouse's Kafka table engine does, done by Loupe. A queue table
 * (a Kafka engine table translated to `Null` by embedded ClickHouse) is fed from the topic log:
 * the feeder consumes the table's topics in its consumer group, inserts each batch of messages
 * into the queue table in the table's `kafka_format` (JSONAsString: every message is one
 * String row), and commits the group's offsets after the insert — at-least-once, as the Kafka
 * engine. The materialized views attached to the queue table run unchanged on every insert.
 */
import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Logger } from '../../common/log.js';
import type { KafkaQueueSpec } from '../clickhouse/translate.js';
import type { TopicLog, TopicPartitionOffset } from '../log/types.js';

export interface FeederOptions {
  log: TopicLog;
  /** Base URL of the ClickHouse HTTP interface that holds the queue table. */
  clickhouseUrl: string;
  spec: KafkaQueueSpec;
  logger: Logger;
  /** kafka_max_block_size: messages per insert (ClickHouse's default is 65536). */
  maxBlockSize?: number;
}

export interface FeederStatus {
  table: string;
  group: string;
  positions: TopicPartitionOffset[];
  insertedMessages: number;
  lastError?: string;
}

export class QueueFeeder {
  private readonly client: ClickHouseClient;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private unsubscribe?: () => void;
  private inserted = 0;
  private lastError?: string;
  private readonly positions = new Map<string, TopicPartitionOffset>();

  constructor(private readonly opts: FeederOptions) {
    this.client = createClient({ url: opts.clickhouseUrl, ...(opts.spec.database ? { database: opts.spec.database } : {}), log: { level: ClickHouseLogLevel.OFF } });
  }

  get table(): string {
    return `${this.opts.spec.database ?? 'default'}.${this.opts.spec.table}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.opts.log.onAppend((topic) => {
      if (this.opts.spec.topics.includes(topic)) this.wake?.();
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    await this.client.close();
  }

  status(): FeederStatus {
    return {
      table: this.table,
      group: this.opts.spec.group,
      positions: [...this.positions.values()],
      insertedMessages: this.inserted,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** One pass over every partition; true when something was inserted. */
  async pollOnce(): Promise<boolean> {
    const { spec, log } = this.opts;
    const committed = await log.committedOffsets(spec.group);
    let any = false;
    for (const topic of spec.topics) {
      const desc = await log.describeTopic(topic);
      if (!desc) continue;
      for (const p of desc.partitions) {
        // No committed offset: start from the earliest, as ClickHouse's Kafka engine does.
        const from = committed.find((c) => c.topic === topic && c.partition === p.partition)?.offset ?? p.beginOffset;
        const recs = await log.fetch(topic, p.partition, from, { maxRecords: this.opts.maxBlockSize ?? 65536, maxBytes: 64 * 1024 * 1024 });
        if (!recs.length) {
          this.positions.set(`${topic}/${p.partition}`, { topic, partition: p.partition, offset: from });
          continue;
        }
        const messages = recs.filter((r) => r.value !== null && r.value !== '').map((r) => r.value!);
        if (messages.length) {
          const first = recs[0]!.offset;
          const last = recs[recs.length - 1]!.offset;
          const body = messages.join('\n') + '\n';
          const ex = await this.client.exec({
            query: `INSERT INTO ${quoteIdent(spec.table)} FORMAT ${spec.format || 'JSONAsString'}`,
            values: Readable.from([body]),
            clickhouse_settings: { insert_deduplication_token: `${topic}-${p.partition}-${first}-${last}`, deduplicate_blocks_in_dependent_materialized_views: 1 },
          });
          ex.stream.resume();
          this.inserted += messages.length;
        }
        const next = recs[recs.length - 1]!.offset + 1;
        await log.commitOffsets(spec.group, [{ topic, partition: p.partition, offset: next }]);
        this.positions.set(`${topic}/${p.partition}`, { topic, partition: p.partition, offset: next });
        any = true;
      }
    }
    return any;
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.running) {
      try {
        const any = await this.pollOnce();
        this.lastError = undefined;
        backoff = 100;
        if (!any) await this.idle(1000);
      } catch (err) {
        this.lastError = (err as Error).message;
        this.opts.logger.warn(`queue table ${this.table}: ${this.lastError}; retrying in ${backoff} ms`);
        await this.idle(backoff);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** Where the queue tables come from: the embedded ClickHouse service's api. */
export interface QueueTableSource {
  queueTables(): KafkaQueueSpec[];
  onQueueTable(cb: (spec: KafkaQueueSpec) => void): () => void;
}

/**
 * Runs one feeder per queue table the embedded ClickHouse knows (those created before and
 * those created from now on). The host calls this once the topic log and ClickHouse are up.
 */
export function startQueueFeeders(opts: { log: TopicLog; clickhouseUrl: string; tables: QueueTableSource; logger: Logger }): { feeders(): FeederStatus[]; close(): Promise<void> } {
  const feeders = new Map<string, QueueFeeder>();
  const add = (spec: KafkaQueueSpec) => {
    const key = `${spec.database ?? 'default'}.${spec.table}`;
    const old = feeders.get(key);
    if (old) void old.stop();
    const f = new QueueFeeder({ log: opts.log, clickhouseUrl: opts.clickhouseUrl, spec, logger: opts.logger });
    feeders.set(key, f);
    f.start();
    opts.logger.info(`feeding queue table ${key} from topic ${spec.topics.join(',')} (group ${spec.group})`);
  };
  opts.tables.queueTables().forEach(add);
  const off = opts.tables.onQueueTable(add);
  return {
    feeders: () => [...feeders.values()].map((f) => f.status()),
    async close() {
      off();
      await Promise.all([...feeders.values()].map((f) => f.stop()));
      feeders.clear();
    },
  };
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}
