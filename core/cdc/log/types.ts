/**
 * The message log between the source and the sinks: Kafka's model (topics → partitions →
 * offsets, keys, headers, timestamps, tombstones, consumer groups) as one interface with two
 * implementations: `EmbeddedLog` (persisted segments under the data dir) and `KafkaLog`
 * (kafkajs against a real Kafka). Keys and values are strings (JSON text from the converters);
 * `null` value = tombstone.
 */
import type { CleanupPolicy } from './cleanup-policy.js';

export interface LogHeader {
  key: string;
  /** Header value as text; `null` is a header with no value (Kafka allows it). */
  value: string | null;
}

/** What a producer hands in. */
export interface ProduceRecord {
  key: string | null;
  /** `null` is a tombstone: "this key is deleted" for compacted topics and sinks. */
  value: string | null;
  headers?: LogHeader[];
  /** Epoch millis (CreateTime); the log's clock when absent. */
  timestamp?: number;
  /**
   * Explicit partition; otherwise Kafka's default partitioner: murmur2 of the key, or for a null
   * key the sticky partitioner of Kafka 3.x (one partition until batch.size bytes went to it).
   */
  partition?: number;
}

/** A record as stored and fetched. */
export interface LogRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: string | null;
  headers: LogHeader[];
  timestamp: number;
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface TopicPartitionOffset extends TopicPartition {
  offset: number;
}

export interface TopicConfig {
  partitions: number;
  /** Kafka `retention.ms`; -1 keeps records forever. */
  retentionMs: number;
  /** Kafka `retention.bytes` per partition; -1 = unlimited. */
  retentionBytes: number;
  /**
   * Kafka `cleanup.policy`, the list as set: `delete` (time/size retention), `compact` (latest
   * record per key kept; used for internal topics), or both (`compact,delete`: compacted, and old
   * segments deleted by retention). See cleanup-policy.ts.
   */
  cleanupPolicy: readonly CleanupPolicy[];
  /** Kafka `replication.factor`; reported only (a single embedded node has one replica). */
  replicationFactor: number;
  /** Kafka `segment.bytes`: the active segment is rolled before a record that would take it past this. */
  segmentBytes?: number;
  /** Kafka `segment.ms`: the active segment is rolled once its records span more than this. */
  segmentMs?: number;
  /** Kafka `max.message.bytes`: larger records are refused (RecordTooLargeException). */
  maxMessageBytes?: number;
  /** Kafka `message.timestamp.type`: LogAppendTime replaces the producer's timestamps by the log's clock. */
  messageTimestampType?: 'CreateTime' | 'LogAppendTime';
  /** Kafka `min.cleanable.dirty.ratio`: compaction runs once the uncleaned share of the closed bytes exceeds it. */
  minCleanableDirtyRatio?: number;
  /** Kafka `min.compaction.lag.ms`: records younger than this are not compacted yet. */
  minCompactionLagMs?: number;
  /** Kafka `delete.retention.ms`: how long a compacted tombstone stays readable after its first cleaning. */
  deleteRetentionMs?: number;
  /** Kafka `min.insync.replicas`; accepted and reported (one embedded replica is always in sync). */
  minInsyncReplicas?: number;
}

export interface PartitionInfo {
  partition: number;
  /** First offset still stored (moves up with retention). */
  beginOffset: number;
  /** Offset the next record will get (the "log end offset" / high watermark). */
  endOffset: number;
}

export interface TopicDescription {
  name: string;
  config: TopicConfig;
  partitions: PartitionInfo[];
  /** Internal topics (e.g. connect-offsets) are hidden from default listings. */
  internal: boolean;
}

export interface FetchOptions {
  /** Kafka `max.poll.records`-like bound. Default 500. */
  maxRecords?: number;
  /** Kafka `max.partition.fetch.bytes`-like bound (at least one record is always returned). Default 1 MiB. */
  maxBytes?: number;
  /**
   * What an offset outside [begin, end] does. `earliest` (default): a consumer with
   * auto.offset.reset=earliest, reading from the begin offset (above the end: nothing). `error`:
   * the broker's answer, OFFSET_OUT_OF_RANGE, for a consumer that resets itself (or none).
   */
  outOfRange?: 'earliest' | 'error';
}

/** A batch of records for one topic inside an atomic multi-topic write. */
export interface TopicBatch {
  topic: string;
  records: ProduceRecord[];
}

export type ProduceResult = TopicPartitionOffset;

export interface GroupDescription {
  group: string;
  offsets: TopicPartitionOffset[];
}

/** Called after records are appended (and readable). */
export type AppendListener = (topic: string, partition: number, endOffset: number) => void;

export interface TopicLog {
  readonly kind: 'embedded' | 'kafka';

  /** Creates a topic; resolves `false` when it already existed (its config is left alone). */
  createTopic(name: string, config?: Partial<TopicConfig>): Promise<boolean>;
  /** Names of topics; internal topics only when asked. */
  listTopics(opts?: { includeInternal?: boolean }): Promise<string[]>;
  describeTopic(name: string): Promise<TopicDescription | undefined>;
  deleteTopic(name: string): Promise<boolean>;

  /**
   * Appends records to one topic (auto-created with the default config when missing, like
   * Kafka's `auto.create.topics.enable`). Results are in input order.
   */
  produce(topic: string, records: ProduceRecord[]): Promise<ProduceResult[]>;
  /**
   * Appends to several topics all-or-nothing (Kafka transactions; embedded: a write-ahead
   * journal). Connect's source worker writes records and their source offsets in one of these,
   * so a crash never leaves records without offsets or the reverse.
   */
  produceAtomic(batches: TopicBatch[]): Promise<ProduceResult[][]>;

  /**
   * Records from `offset` on (an offset below the begin offset starts at the begin offset unless
   * `opts.outOfRange` is `error`). Offsets of compacted topics have gaps: the next record may have
   * a higher offset than asked for.
   */
  fetch(topic: string, partition: number, offset: number, opts?: FetchOptions): Promise<LogRecord[]>;
  offsets(topic: string, partition: number): Promise<{ begin: number; end: number }>;
  /**
   * Resolves `true` as soon as the partition's end offset is beyond `offset`, or `false` after
   * `timeoutMs` — a long poll, no busy loop.
   */
  waitForData(topic: string, partition: number, offset: number, timeoutMs: number): Promise<boolean>;
  /** Listener for every append; returns the function that removes it. */
  onAppend(listener: AppendListener): () => void;

  /** Consumer groups: committed offsets are the next offset to read, as in Kafka. */
  commitOffsets(group: string, offsets: TopicPartitionOffset[]): Promise<void>;
  committedOffsets(group: string): Promise<TopicPartitionOffset[]>;
  listGroups(): Promise<string[]>;
  deleteGroup(group: string): Promise<boolean>;

  /** Applies retention now (the embedded log also does it on a timer). */
  enforceRetention(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_TOPIC_CONFIG: TopicConfig = {
  partitions: 1,
  retentionMs: 7 * 24 * 3600 * 1000,
  retentionBytes: -1,
  cleanupPolicy: ['delete'],
  replicationFactor: 1,
  segmentMs: 7 * 24 * 3600 * 1000,
  maxMessageBytes: 1048588,
  messageTimestampType: 'CreateTime',
  minCleanableDirtyRatio: 0.5,
  minCompactionLagMs: 0,
  deleteRetentionMs: 24 * 3600 * 1000,
  minInsyncReplicas: 1,
};

export class LogError extends Error {
  constructor(
    message: string,
    readonly code: 'UNKNOWN_TOPIC_OR_PARTITION' | 'OFFSET_OUT_OF_RANGE' | 'INVALID_REQUEST' | 'INVALID_RECORD' | 'RECORD_TOO_LARGE' | 'CLOSED' | 'CORRUPT',
  ) {
    super(message);
    this.name = 'LogError';
  }
}
