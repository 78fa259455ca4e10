/**
 * The topic-log interface over a real Kafka through kafkajs, so the worker can run against a
 * broker instead of the embedded log. Topics, offsets and groups go through the admin client;
 * `produceAtomic` is a Kafka transaction; reads use one consumer (its own group, never
 * committed) that is assigned the topics read and seeks to the requested offsets, buffering per
 * partition.
 *
 * Not testable here (no broker); its unit test covers what needs none: record mapping and the
 * offset arithmetic of produce results.
 */
import { randomUUID } from 'node:crypto';
import { partitionForKey, StickyPartitioner } from './murmur2.js';
import { Kafka, logLevel, type Admin, type Consumer, type IHeaders, type Message, type Producer, type RecordMetadata } from 'kafkajs';
import {
  DEFAULT_TOPIC_CONFIG,
  LogError,
  type AppendListener,
  type FetchOptions,
  type LogHeader,
  type LogRecord,
  type ProduceRecord,
  type ProduceResult,
  type TopicBatch,
  type TopicConfig,
  type TopicDescription,
  type TopicLog,
  type TopicPartitionOffset,
} from './types.js';

export interface KafkaLogOptions {
  brokers: string[];
  clientId?: string;
  /** Transactional id for produceAtomic (unique per worker). */
  transactionalId?: string;
}

export function toKafkaMessage(r: ProduceRecord): Message {
  const headers: IHeaders = {};
  for (const h of r.headers ?? []) headers[h.key] = h.value ?? '';
  return {
    key: r.key,
    value: r.value,
    headers,
    ...(r.timestamp !== undefined ? { timestamp: String(r.timestamp) } : {}),
    ...(r.partition !== undefined ? { partition: r.partition } : {}),
  };
}

/** The topic configs set at creation, by their Kafka names (only those given, besides the three always sent). */
export function topicConfigEntries(given: Partial<TopicConfig>, c: TopicConfig): { name: string; value: string }[] {
  const out = [
    // ConfigDef.convertToString of a LIST: the items joined with ","
    { name: 'cleanup.policy', value: c.cleanupPolicy.join(',') },
    { name: 'retention.ms', value: String(c.retentionMs) },
    { name: 'retention.bytes', value: String(c.retentionBytes) },
  ];
  const names: [keyof TopicConfig, string][] = [
    ['segmentBytes', 'segment.bytes'],
    ['segmentMs', 'segment.ms'],
    ['maxMessageBytes', 'max.message.bytes'],
    ['messageTimestampType', 'message.timestamp.type'],
    ['minCleanableDirtyRatio', 'min.cleanable.dirty.ratio'],
    ['minCompactionLagMs', 'min.compaction.lag.ms'],
    ['deleteRetentionMs', 'delete.retention.ms'],
    ['minInsyncReplicas', 'min.insync.replicas'],
  ];
  for (const [field, name] of names) if (given[field] !== undefined) out.push({ name, value: String(given[field]) });
  return out;
}

export function fromKafkaMessage(topic: string, partition: number, m: { offset: string; key: Buffer | null; value: Buffer | null; timestamp: string; headers?: IHeaders }): LogRecord {
  const headers: LogHeader[] = [];
  for (const [k, v] of Object.entries(m.headers ?? {})) {
    const vals = Array.isArray(v) ? v : [v];
    for (const x of vals) headers.push({ key: k, value: x === undefined || x === null ? null : Buffer.isBuffer(x) ? x.toString('utf8') : String(x) });
  }
  return { topic, partition, offset: Number(m.offset), key: m.key === null ? null : m.key.toString('utf8'), value: m.value === null ? null : m.value.toString('utf8'), headers, timestamp: Number(m.timestamp) };
}

/**
 * Kafka answers a send with the base offset per partition; record i of a partition got
 * base + (its index among that partition's records in this send).
 */
export function assignOffsets(topic: string, partitionsOfRecords: number[], meta: RecordMetadata[]): ProduceResult[] {
  const base = new Map(meta.map((m) => [m.partition, Number(m.baseOffset ?? m.offset ?? 0)]));
  const seen = new Map<number, number>();
  return partitionsOfRecords.map((p) => {
    const i = seen.get(p) ?? 0;
    seen.set(p, i + 1);
    return { topic, partition: p, offset: (base.get(p) ?? 0) + i };
  });
}

export class KafkaLog implements TopicLog {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private admin!: Admin;
  private producer!: Producer;
  private txProducer: Producer | undefined;
  private reader: Consumer | undefined;
  private readerTopics = new Set<string>();
  private readonly buffers = new Map<string, LogRecord[]>();
  private readonly listeners = new Set<AppendListener>();
  private readonly waiters = new Set<() => void>();
  private closed = false;

  private constructor(private readonly opts: KafkaLogOptions) {
    this.kafka = new Kafka({ clientId: opts.clientId ?? 'loupe-connect', brokers: opts.brokers, logLevel: logLevel.NOTHING });
  }

  static async connect(opts: KafkaLogOptions): Promise<KafkaLog> {
    const k = new KafkaLog(opts);
    k.admin = k.kafka.admin();
    await k.admin.connect();
    k.producer = k.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await k.producer.connect();
    return k;
  }

  async createTopic(name: string, config: Partial<TopicConfig> = {}): Promise<boolean> {
    const c = { ...DEFAULT_TOPIC_CONFIG, ...config };
    return this.admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic: name,
          numPartitions: c.partitions,
          replicationFactor: config.replicationFactor ?? -1,
          configEntries: topicConfigEntries(config, c),
        },
      ],
    });
  }

  async listTopics(opts: { includeInternal?: boolean } = {}): Promise<string[]> {
    const all = await this.admin.listTopics();
    return all.filter((t) => opts.includeInternal || !/^(__|connect-(offsets|configs|status)$)/.test(t)).sort();
  }

  async describeTopic(name: string): Promise<TopicDescription | undefined> {
    const topics = await this.admin.listTopics();
    if (!topics.includes(name)) return undefined;
    const offs = await this.admin.fetchTopicOffsets(name);
    return {
      name,
      internal: /^(__|connect-(offsets|configs|status)$)/.test(name),
      config: { ...DEFAULT_TOPIC_CONFIG, partitions: offs.length },
      partitions: offs.map((o) => ({ partition: o.partition, beginOffset: Number(o.low), endOffset: Number(o.high) })).sort((a, b) => a.partition - b.partition),
    };
  }

  async deleteTopic(name: string): Promise<boolean> {
    if (!(await this.admin.listTopics()).includes(name)) return false;
    this.partitionCounts.delete(name);
    this.sticky.delete(name);
    await this.admin.deleteTopics({ topics: [name] });
    return true;
  }

  async produce(topic: string, records: ProduceRecord[]): Promise<ProduceResult[]> {
    const placed = await this.place(topic, records);
    const meta = await this.producer.send({ topic, messages: placed.map(toKafkaMessage) });
    return this.resultsFor(topic, placed, meta);
  }

  async produceAtomic(batches: TopicBatch[]): Promise<ProduceResult[][]> {
    if (!this.txProducer) {
      this.txProducer = this.kafka.producer({ transactionalId: this.opts.transactionalId ?? `loupe-connect-${randomUUID()}`, idempotent: true, maxInFlightRequests: 1 });
      await this.txProducer.connect();
    }
    const tx = await this.txProducer.transaction();
    try {
      const out: ProduceResult[][] = [];
      for (const b of batches) {
        const placed = await this.place(b.topic, b.records);
        const meta = await tx.send({ topic: b.topic, messages: placed.map(toKafkaMessage) });
        out.push(this.resultsFor(b.topic, placed, meta));
      }
      await tx.commit();
      return out;
    } catch (err) {
      await tx.abort().catch(() => {});
      throw err;
    }
  }

  async fetch(topic: string, partition: number, offset: number, opts: FetchOptions = {}): Promise<LogRecord[]> {
    if (opts.outOfRange === 'error') {
      // the reader resets itself (fromBeginning), so the broker's answer is asked for first
      const { begin, end } = await this.offsets(topic, partition);
      if (offset < begin || offset > end) throw new LogError(`Offsets out of range with no configured reset policy for partitions: {${topic}-${partition}=${offset}}`, 'OFFSET_OUT_OF_RANGE');
    }
    await this.ensureReading(topic);
    const key = `${topic}:${partition}`;
    const buf = this.buffers.get(key) ?? [];
    if (!buf.length || buf[0]!.offset > offset || buf[buf.length - 1]!.offset < offset - 1) {
      this.buffers.set(key, []);
      this.reader!.seek({ topic, partition, offset: String(offset) });
      return [];
    }
    const start = buf.findIndex((r) => r.offset >= offset);
    if (start < 0) return [];
    const max = opts.maxRecords ?? 500;
    const maxBytes = opts.maxBytes ?? 1024 * 1024;
    const out: LogRecord[] = [];
    let bytes = 0;
    for (let i = start; i < buf.length && out.length < max; i++) {
      const r = buf[i]!;
      bytes += (r.value?.length ?? 0) + (r.key?.length ?? 0);
      if (bytes > maxBytes && out.length) break;
      out.push(r);
    }
    buf.splice(0, start);
    return out;
  }

  async offsets(topic: string, partition: number): Promise<{ begin: number; end: number }> {
    const o = (await this.admin.fetchTopicOffsets(topic)).find((x) => x.partition === partition);
    if (!o) throw new LogError(`This server does not host this topic-partition: ${topic}-${partition}`, 'UNKNOWN_TOPIC_OR_PARTITION');
    return { begin: Number(o.low), end: Number(o.high) };
  }

  async waitForData(topic: string, partition: number, offset: number, timeoutMs: number): Promise<boolean> {
    const { end } = await this.offsets(topic, partition);
    if (end > offset) return true;
    await this.ensureReading(topic);
    return new Promise((resolve) => {
      const wake = () => {
        const buf = this.buffers.get(`${topic}:${partition}`) ?? [];
        if (this.closed || buf.some((r) => r.offset >= offset)) done(!this.closed);
      };
      const done = (v: boolean) => {
        clearTimeout(t);
        this.waiters.delete(wake);
        resolve(v);
      };
      const t = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(wake);
    });
  }

  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async commitOffsets(group: string, offsets: TopicPartitionOffset[]): Promise<void> {
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const o of offsets) {
      let l = byTopic.get(o.topic);
      if (!l) byTopic.set(o.topic, (l = []));
      l.push({ partition: o.partition, offset: String(o.offset) });
    }
    for (const [topic, partitions] of byTopic) await this.admin.setOffsets({ groupId: group, topic, partitions });
  }

  async committedOffsets(group: string): Promise<TopicPartitionOffset[]> {
    const res = await this.admin.fetchOffsets({ groupId: group });
    const out: TopicPartitionOffset[] = [];
    for (const t of res) for (const p of t.partitions) if (Number(p.offset) >= 0) out.push({ topic: t.topic, partition: p.partition, offset: Number(p.offset) });
    return out;
  }

  async listGroups(): Promise<string[]> {
    return (await this.admin.listGroups()).groups.map((g) => g.groupId).sort();
  }

  async deleteGroup(group: string): Promise<boolean> {
    try {
      await this.admin.deleteGroups([group]);
      return true;
    } catch {
      return false;
    }
  }

  /** Retention is the broker's job. */
  async enforceRetention(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.waiters]) w();
    await this.reader?.disconnect().catch(() => {});
    await this.txProducer?.disconnect().catch(() => {});
    await this.producer.disconnect().catch(() => {});
    await this.admin.disconnect().catch(() => {});
  }

  /**
   * Partitions are chosen here (murmur2 of the key as Kafka's default partitioner, the same
   * sticky choice as the embedded log for null keys) and sent explicitly, so each record's offset is known from the batch's base
   * offset.
   */
  private async place(topic: string, records: ProduceRecord[]): Promise<ProduceRecord[]> {
    let n = this.partitionCounts.get(topic);
    if (n === undefined) {
      if (!(await this.admin.listTopics()).includes(topic)) await this.createTopic(topic);
      n = (await this.admin.fetchTopicOffsets(topic)).length;
      this.partitionCounts.set(topic, n);
    }
    const count = n;
    let sticky = this.sticky.get(topic);
    if (!sticky) this.sticky.set(topic, (sticky = new StickyPartitioner()));
    const s = sticky;
    return records.map((r) => ({ ...r, partition: r.partition ?? (r.key !== null ? partitionForKey(r.key, count) : s.partition(count, r.value?.length ?? 0)) }));
  }

  private resultsFor(topic: string, placed: ProduceRecord[], meta: RecordMetadata[]): ProduceResult[] {
    const res = assignOffsets(topic, placed.map((r) => r.partition!), meta);
    const ends = new Map<number, number>();
    for (const r of res) ends.set(r.partition, r.offset + 1);
    for (const [p, end] of ends) for (const l of this.listeners) l(topic, p, end);
    return res;
  }

  private readonly sticky = new Map<string, StickyPartitioner>();
  private partitionCounts = new Map<string, number>();

  private async ensureReading(topic: string): Promise<void> {
    if (this.readerTopics.has(topic)) return;
    const offs = await this.admin.fetchTopicOffsets(topic);
    this.partitionCounts.set(topic, offs.length);
    if (this.reader) await this.reader.stop();
    else {
      this.reader = this.kafka.consumer({ groupId: `loupe-reader-${randomUUID()}`, allowAutoTopicCreation: false });
      await this.reader.connect();
    }
    this.readerTopics.add(topic);
    await this.reader.subscribe({ topics: [...this.readerTopics], fromBeginning: true });
    await this.reader.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const key = `${batch.topic}:${batch.partition}`;
        let buf = this.buffers.get(key);
        if (!buf) this.buffers.set(key, (buf = []));
        for (const m of batch.messages) buf.push(fromKafkaMessage(batch.topic, batch.partition, m));
        for (const w of [...this.waiters]) w();
      },
    });
  }
}

