/**
 * The connector plugin interface, modelled on Kafka Connect's (Connector, SourceTask, SinkTask,
 * SourceRecord, SinkRecord, SinkTaskContext, ConfigDef). Plain data and small interfaces: a plugin
 * is a value, tasks are objects with state. Plugins never see HTTP; the worker owns the log and
 * offsets and hands a plugin only what the Kafka Connect API would give it, plus the worker
 * services (logger, data dir, peer URLs).
 *
 * Registration: plugins are listed in core/cdc/connect/plugins/index.ts. The ClickHouse sink
 * exports `clickHouseSinkPlugin: SinkConnectorPlugin` from plugins/clickhouse-sink/plugin.ts.
 * In-process resources a plugin may ask the worker for (`services.resource(name)`):
 * 'topicLog' (TopicLog), 'embeddedSource' (the embedded SQL source, Debezium plugin only),
 * 'embeddedSourceAddress' ({host, port}: the embedded source's own address; a source connector
 * naming another address captures a real server).
 */
import type { Logger } from '../../common/log.js';
import type { TopicLog, TopicPartition, TopicPartitionOffset } from '../log/types.js';

export type { TopicPartition, TopicPartitionOffset } from '../log/types.js';

/** A connector or task configuration: Kafka Connect configs are string → string. */
export type ConnectorConfig = Record<string, string>;

// ---------------------------------------------------------------------------------------------
// Schemas and records (Kafka Connect's data API; the JSON shape is exactly JsonConverter's)

export type SchemaType =
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'float32'
  | 'float64'
  | 'boolean'
  | 'string'
  | 'bytes'
  | 'array'
  | 'map'
  | 'struct';

/**
 * A Connect schema, written as JsonConverter writes it in `{schema, payload}`:
 * `{type:"struct", fields:[{type:"int32", optional:false, field:"id"}], optional:false, name:"x.Value"}`.
 * Logical types use `name` (e.g. `io.debezium.time.Timestamp` on int64).
 */
export interface Schema {
  type: SchemaType;
  optional: boolean;
  /** Only on struct fields. */
  field?: string;
  name?: string;
  version?: number;
  doc?: string;
  default?: unknown;
  parameters?: Record<string, string>;
  /** struct */
  fields?: Schema[];
  /** array */
  items?: Schema;
  /** map */
  keys?: Schema;
  values?: Schema;
}

/** A Connect value: struct → plain object, array → array, bytes → base64 string, null. */
export type ConnectValue = unknown;

export interface ConnectHeader {
  key: string;
  value: string | null;
}

/** What a source task returns from `poll`, before transforms and the converters. */
export interface SourceRecord {
  /** Identifies the source stream, e.g. `{server: "dbserver1"}` — the key of the stored offset. */
  sourcePartition: Record<string, unknown>;
  /** Where this record puts the source, e.g. `{file, pos, row, gtids}`; stored with the record, atomically. */
  sourceOffset: Record<string, unknown>;
  topic: string;
  /** Kafka partition; the log's partitioner (key hash) when absent. */
  kafkaPartition?: number;
  keySchema: Schema | null;
  key: ConnectValue;
  valueSchema: Schema | null;
  /** `null` with a null schema is a tombstone. */
  value: ConnectValue;
  timestamp?: number;
  headers?: ConnectHeader[];
}

/** What a sink task receives in `put`: a log record after the converter and the transforms. */
export interface SinkRecord {
  topic: string;
  /** Kafka partition of the record as read (the original, even if a transform renamed the topic). */
  kafkaPartition: number;
  /** Kafka offset of the record. */
  kafkaOffset: number;
  /** Topic as read from the log, before any transform (Kafka Connect's originalTopic). */
  originalTopic: string;
  keySchema: Schema | null;
  key: ConnectValue;
  /** Present only when the converter has schemas.enable=true. */
  valueSchema: Schema | null;
  /** `null` = tombstone. */
  value: ConnectValue;
  timestamp: number;
  timestampType: 'CreateTime' | 'LogAppendTime' | 'NoTimestampType';
  headers: ConnectHeader[];
  /**
   * The JSON text the value converter parsed `value` from (an object, no schema envelope), so a
   * sink can send that text instead of serializing the value again. It stands for `value` only
   * while `value` is still `valueJson.value`: a transform that replaces the value leaves it stale.
   */
  valueJson?: { value: ConnectValue; text: string } | undefined;
}

/** The record shape transforms work on (both source and sink records fit). */
export type ConnectRecord = SourceRecord | SinkRecord;

// ---------------------------------------------------------------------------------------------
// Configuration definitions (ConfigDef), shown by GET /connector-plugins/{c}/config and validate

export type ConfigType = 'BOOLEAN' | 'STRING' | 'INT' | 'SHORT' | 'LONG' | 'DOUBLE' | 'LIST' | 'CLASS' | 'PASSWORD';

export interface ConfigKeyDef {
  name: string;
  type: ConfigType;
  required: boolean;
  /** As Kafka Connect prints it: a string or null. */
  default_value: string | null;
  importance: 'HIGH' | 'MEDIUM' | 'LOW';
  documentation: string;
  group: string | null;
  width: 'NONE' | 'SHORT' | 'MEDIUM' | 'LONG';
  display_name: string;
  dependents: string[];
  order: number;
  /** Allowed values, when the key is an enumeration. */
  recommended?: string[];
}

/**
 * One ConfigKeyInfo row as Kafka Connect's ConfigDef.define builds it: a key with no default is
 * required unless `extra` says otherwise; width MEDIUM and the name as display name by default.
 */
export function configKey(
  name: string,
  type: ConfigType,
  defaultValue: string | null,
  importance: ConfigKeyDef['importance'],
  documentation: string,
  group: string,
  order: number,
  extra: Partial<ConfigKeyDef> = {},
): ConfigKeyDef {
  return {
    name,
    type,
    required: defaultValue === null,
    default_value: defaultValue,
    importance,
    documentation,
    group,
    width: 'MEDIUM',
    display_name: name,
    dependents: [],
    order,
    ...extra,
  };
}

/** Per-key validation errors: key → messages (empty or missing = valid). */
export type ValidationErrors = Record<string, string[]>;

// ---------------------------------------------------------------------------------------------
// Services the worker gives a plugin

export interface WorkerServices {
  log: Logger;
  /** A folder for this connector's own files (created). */
  dataDir: string;
  /** Base URLs of other areas, e.g. `peers.clickhouse` = http://127.0.0.1:8123. */
  peers: Readonly<Record<string, string | undefined>>;
  /** Epoch millis; tests move it. */
  now(): number;
  /**
   * Engine-level resources a plugin may need in-process (e.g. the embedded SQL source for the
   * Debezium plugin). Looked up by name; `undefined` when the worker has none.
   */
  resource<T = unknown>(name: string): T | undefined;
}

// ---------------------------------------------------------------------------------------------
// Tasks

export interface SourceTaskContext {
  readonly services: WorkerServices;
  /** Kafka Connect's OffsetStorageReader: the last committed offset for a source partition. */
  offset(sourcePartition: Record<string, unknown>): Promise<Record<string, unknown> | null>;
  /** The connector's name and this task's id. */
  readonly connector: string;
  readonly taskId: number;
}

export interface SourceTask {
  start(config: ConnectorConfig, context: SourceTaskContext): Promise<void>;
  /**
   * Returns the next records, or an empty array after waiting a bounded time (≤ ~1 s) with
   * nothing to report. Must not busy-loop; `stop()` makes a pending poll return promptly.
   */
  poll(): Promise<SourceRecord[]>;
  /** Called after the records returned by a poll were written to the log with their offsets. */
  commit?(): Promise<void>;
  stop(): Promise<void>;
}

export interface SinkTaskContext {
  readonly services: WorkerServices;
  readonly connector: string;
  readonly taskId: number;
  /** Topic-partitions currently assigned to this task. */
  assignment(): TopicPartition[];
  /**
   * Kafka Connect's `SinkTaskContext.offset(...)`: rewind (or skip) the consumer to these offsets
   * before the next fetch. Used on start to resume from state the sink keeps itself.
   */
  offset(offsets: TopicPartitionOffset[]): void;
  /** Offsets committed for this connector's consumer group (what a restart would resume from). */
  committedOffsets(): Promise<TopicPartitionOffset[]>;
  /** Ask the worker to commit offsets soon. */
  requestCommit(): void;
  /** Read-only view of the log (e.g. for a queue-table feeder or diagnostics). */
  readonly topicLog: TopicLog;
}

export interface SinkTask {
  start(config: ConnectorConfig, context: SinkTaskContext): Promise<void>;
  /** Called when partitions are assigned (on start and on rebalance). */
  open?(partitions: TopicPartition[]): Promise<void>;
  /** Delivers records; throw to fail the task (the worker records the trace). May be an empty array. */
  put(records: SinkRecord[]): Promise<void>;
  /**
   * Loupe's own, not Kafka Connect's: the records the next put() will most likely get, handed over
   * while the previous put() still runs, for pure per-record work done ahead (the ClickHouse sink
   * builds its insert bodies). put() must do the same whether or not this was called.
   */
  prepare?(records: SinkRecord[]): void;
  /**
   * Given the offsets consumed so far (next offset to read per partition), return the offsets that
   * are safe to commit (Kafka Connect's preCommit; default = flush then commit `currentOffsets`).
   */
  preCommit?(currentOffsets: TopicPartitionOffset[]): Promise<TopicPartitionOffset[]>;
  close?(partitions: TopicPartition[]): Promise<void>;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Plugins

interface PluginBase {
  /** Fully qualified class name, e.g. io.debezium.connector.mysql.MySqlConnector. */
  readonly class: string;
  readonly version: string;
  /** Short aliases Kafka Connect accepts for connector.class (e.g. "MySqlConnector"). */
  readonly aliases?: readonly string[];
  /** The connector's own keys (the worker adds the common ones: name, connector.class, tasks.max, …). */
  readonly configDefs: readonly ConfigKeyDef[];
  /** Per-key errors for a full connector config; may reach peers (e.g. check a host). */
  validate(config: ConnectorConfig, services: WorkerServices): Promise<ValidationErrors>;
  /** Splits the connector config into at most `maxTasks` task configs (Connector.taskConfigs). */
  taskConfigs(config: ConnectorConfig, maxTasks: number): ConnectorConfig[];
  /**
   * Loupe's own: what the connector `self` should be warned of beside the other running connectors
   * of the same plugin (a setting that makes them interfere). The worker shows the warnings in the
   * task status (`trace` of a running task) and logs them; the connector keeps running.
   */
  warnings?(self: PeerConnector, others: readonly PeerConnector[], partitions: (topic: string) => number): string[];
}

/** A connector as another one's warnings see it. */
export interface PeerConnector {
  name: string;
  config: ConnectorConfig;
  /** The topics it consumes so far (a sink's listed topics, or those its regex matched). */
  topics: readonly string[];
}

export interface SourceConnectorPlugin extends PluginBase {
  readonly type: 'source';
  createTask(): SourceTask;
}

export interface SinkConnectorPlugin extends PluginBase {
  readonly type: 'sink';
  createTask(): SinkTask;
}

export type ConnectorPlugin = SourceConnectorPlugin | SinkConnectorPlugin;

/** A Kafka Connect transformation or predicate plugin, listed by connector-plugins?connectorsOnly=false. */
export interface AuxPluginInfo {
  class: string;
  type: 'transformation' | 'predicate' | 'converter' | 'header_converter';
  version: string;
}

/**
 * Errors a task throws on purpose carry a Java-like class name so traces read like Kafka
 * Connect's (`org.apache.kafka.connect.errors.ConnectException: …`).
 */
export class ConnectException extends Error {
  constructor(
    message: string,
    readonly javaClass = 'org.apache.kafka.connect.errors.ConnectException',
    readonly retriable = false,
  ) {
    super(message);
    this.name = 'ConnectException';
  }
}

/** org.apache.kafka.connect.errors.DataException — bad data for a converter/transform. */
export class DataException extends ConnectException {
  constructor(message: string) {
    super(message, 'org.apache.kafka.connect.errors.DataException');
    this.name = 'DataException';
  }
}

/** Retriable failures (Kafka Connect's RetriableException): the worker retries put() with back-off. */
export class RetriableException extends ConnectException {
  constructor(message: string) {
    super(message, 'org.apache.kafka.connect.errors.RetriableException', true);
    this.name = 'RetriableException';
  }
}
