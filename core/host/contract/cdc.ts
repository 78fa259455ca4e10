/**
 * Host-contract methods and events of the cdc workbench: the relational source (databases,
 * tables, rows, SQL), its change log (binlog positions, transactions), the message log (topics,
 * messages with partition/offset/key/headers, tombstones, latest per key, consumer groups), the
 * connectors (status with traces, failed first; actions; validation; offsets) through the Kafka
 * Connect REST API, the ClickHouse target (raw rows with `_part`, FINAL, OPTIMIZE … FINAL CLEANUP)
 * through @clickhouse/client, and the pipeline view that follows each change from its source
 * position to its topic offset, insert block and part.
 */

// ------------------------------------------------------------------------------------- source

export interface CdcBinlogPosition {
  file: string;
  pos: number;
}

export interface CdcColumnInfo {
  name: string;
  /** MySQL type as DESCRIBE shows it, e.g. varchar(255). */
  type: string;
  nullable: boolean;
  key: 'PRI' | 'UNI' | 'MUL' | '';
  default: string | null;
  extra: string;
}

export interface CdcTableInfo {
  name: string;
  rows: number;
  columns: CdcColumnInfo[];
  primaryKey: string[];
}

export interface CdcSourceOverview {
  kind: 'embedded' | 'remote';
  databases: { name: string; tables: CdcTableInfo[] }[];
  /** Embedded source only: where the next change will be written, and the executed GTID set. */
  position?: CdcBinlogPosition & { gtidSet: string; transactions: number };
  serverUuid?: string;
}

export interface CdcStatementResult {
  sql: string;
  kind: 'rows' | 'ok';
  columns: string[];
  rows: unknown[][];
  affectedRows: number;
  insertId?: number;
  /** The binlog position of the transaction the statement committed, when it changed rows. */
  position?: CdcBinlogPosition;
  database: string | null;
  /** The OK packet's info line: `Rows matched: 3  Changed: 2  Warnings: 0` for an UPDATE (rows an UPDATE leaves as they were send no change event). */
  info?: string;
  /** The notes and warnings the statement raised, as SHOW WARNINGS lists them (embedded source; `count` counts past the 1,024 kept). */
  warnings?: { count: number; conditions: { level: 'Note' | 'Warning'; code: number; message: string }[] };
}

/** A failed statement: `detail` of the failed call is this, in MySQL's shape. */
export interface CdcSqlErrorDetail {
  errno: number;
  sqlState: string;
  message: string;
  /** `ERROR 1146 (42S02): Table 'demo.nope' doesn't exist` */
  text: string;
}

export interface CdcRowChange {
  table: string;
  op: 'c' | 'u' | 'd';
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface CdcTransaction {
  file: string;
  pos: number;
  nextPos: number;
  seq: number;
  gtid: string;
  /** Commit time, epoch ms. */
  ts: number;
  thread: number;
  database: string;
  query: string;
  events: CdcRowChange[];
  ddl?: { kind: string; sql: string; table?: string };
}

export interface CdcRemoteConnection {
  host: string;
  port?: number;
  user: string;
  password?: string;
}

// ------------------------------------------------------------------------------------- topics

export interface CdcTopicInfo {
  name: string;
  internal: boolean;
  partitions: { partition: number; beginOffset: number; endOffset: number }[];
  messages: number;
  config: { partitions: number; retentionMs: number; retentionBytes: number; cleanupPolicy: readonly ('compact' | 'delete')[]; replicationFactor: number };
}

export interface CdcMessage {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: string | null;
  headers: { key: string; value: string | null }[];
  /** Raw value text; null for a tombstone. */
  value: string | null;
  tombstone: boolean;
  /** The value parsed as JSON when it is JSON. */
  json?: unknown;
  /** With schemas enabled: the payload part of `{schema, payload}`. */
  payload?: unknown;
}

export interface CdcConsumerGroup {
  group: string;
  offsets: { topic: string; partition: number; offset: number; endOffset: number; lag: number }[];
}

// --------------------------------------------------------------------------------- connectors

export interface CdcTaskStatus {
  id: number;
  state: string;
  worker_id: string;
  trace?: string;
}

export interface CdcConnectorStatus {
  name: string;
  type: 'source' | 'sink' | string;
  state: string;
  worker_id: string;
  trace?: string;
  tasks: CdcTaskStatus[];
  config: Record<string, string>;
  topics: string[];
  /** True when the connector or any task is FAILED (listed first). */
  failed: boolean;
}

export type CdcConnectorAction = 'pause' | 'resume' | 'stop' | 'restart' | 'delete' | 'restartTask' | 'resetOffsets' | 'resetTopics';

export interface CdcConnectorActionResult {
  action: CdcConnectorAction;
  /** HTTP status Kafka Connect answered. */
  status: number;
  /** The status right after the action (feedback after restart). */
  connector?: CdcConnectorStatus;
  message?: string;
}

/** A Kafka Connect error, as the `detail` of a failed call. */
export interface CdcConnectErrorDetail {
  error_code: number;
  message: string;
}

// ----------------------------------------------------------------------------------- pipeline

export interface CdcTargetRows {
  database: string;
  table: string;
  final: boolean;
  columns: string[];
  /** Raw view: each row with its `_part`. */
  rows: Record<string, unknown>[];
  parts: { name: string; rows: number; level: number; minBlock: number; maxBlock: number; active: boolean }[];
}

/** One physical version of a key in the target, as the Raw view lists it (grouped by key). */
export interface CdcVersionLine {
  key: string;
  part: string;
  /** Insert order of its part (the part's first block number). */
  block: number;
  version: string;
  deleted: boolean;
  row: Record<string, unknown>;
  winner: boolean;
  /** The first line of its key's group, and the number of versions in the group. */
  first: boolean;
  count: number;
  /** Why the group's winner wins, in words. */
  why: string;
  /** The rule that picked the winner: the only version, the highest version, or the last inserted of equal versions. */
  reason: 'only' | 'highest' | 'tie';
  /** Removed by the last OPTIMIZE … FINAL CLEANUP ('before' view only). */
  gone: boolean;
}

/** raw: every physical version; final: SELECT … FINAL; before/after: around the last cleanup. */
export type CdcTargetViewName = 'raw' | 'final' | 'before' | 'after';

/** A window of one view of the target, read and grouped by the host so the page gets only what it shows. */
export interface CdcTargetView {
  database: string;
  table: string;
  view: CdcTargetViewName;
  /** The engine's roles: the key (first sorting-key column), ReplacingMergeTree's version and is_deleted columns ('' when none), and all columns. */
  columns: { key: string; version: string; deleted: string; all: string[] };
  /** Lines (raw, before, after) or rows (final) in the whole view. */
  total: number;
  /** Distinct keys in the whole view. */
  keys: number;
  offset: number;
  /** raw, before, after: the lines from `offset`. */
  lines: CdcVersionLine[];
  /** final: the rows from `offset`, ordered by the key. */
  rows: Record<string, unknown>[];
  parts: CdcTargetRows['parts'];
  /** Changes whenever what the view reads changes (the table's active parts; a new cleanup for before/after). */
  generation: string;
}

/** The last OPTIMIZE … FINAL CLEANUP on a table: what it removed. Its tables are the 'before' and 'after' views. */
export interface CdcCleanupResult {
  statement: string;
  before: CdcTargetRows['parts'];
  after: CdcTargetRows['parts'];
  /** Physical versions before and after, and the versions the cleanup removed. */
  versionsBefore: number;
  versionsAfter: number;
  removed: number;
  /** Keys gone entirely (their winner was a delete), first 100, and how many. */
  vanishedKeys: string[];
  vanishedCount: number;
  /** Merges were stopped: they ran for the cleanup and are stopped again. */
  mergesResumed: boolean;
  at: string;
}

/** One key followed from its source changes to the physical rows holding it: which versions an insert block or a merge collapsed. */
export interface CdcKeyStory {
  key: string;
  changes: { file: string; pos: number; op: 'c' | 'u' | 'd'; version: string; name?: string; offset?: number; block?: { firstOffset: number; lastOffset: number; records: number; token: string } }[];
  physical: { part: string; level: number; version: string; deleted: boolean }[];
  /** In words, per group of changes that share an insert block or were merged away. */
  explanations: string[];
}

/** Does the target's FINAL hold exactly the source's rows? Compared by key over the given columns. */
export interface CdcTargetComparison {
  key: string;
  columns: string[];
  equal: boolean;
  sourceRows: number;
  targetRows: number;
  /** How many keys differ, and the first 50 of them. */
  count: number;
  differing: { key: string; kind: 'missing' | 'extra' | 'changed'; column?: string }[];
}

export interface CdcPipelineStep {
  source: { file: string; pos: number; /** Event index in the transaction (Debezium's source.row). */ row: number; gtid: string; ts: number; database: string; table: string; op: 'c' | 'u' | 'd'; key: Record<string, unknown> | null; /** After image (before image for a delete). */ image: Record<string, unknown> | null };
  /** Where the change message landed, per source connector that captured it. */
  messages: { connector: string; topic: string; partition: number; offset: number; /** When the source task wrote it to the topic (ms since the epoch). */ at: number }[];
  /** The sink batches (insert blocks) that delivered those messages, with ClickHouse's dedup token. */
  blocks: { connector: string; topic: string; partition: number; firstOffset: number; lastOffset: number; records: number; token: string; at: number }[];
  /** Rows of the target with this key, with their part (only when a target table is given). */
  parts?: { part: string; row: Record<string, unknown> }[];
  /** Why a later stage is empty, in words. */
  note?: string;
}

export interface CdcPipeline {
  steps: CdcPipelineStep[];
  target?: { database: string; table: string };
}

/** The seed's pipeline for one variant, as the wizard shows it before it creates anything. */
export interface CdcPipelineTemplate {
  variant: 1 | 2;
  /** The source connector, its address pointed at the embedded source (or left as written for a remote source). */
  source: { name: string; config: Record<string, string> };
  /** Variant 1: the ClickHouse sink connector, pointed at the configured ClickHouse. */
  sink?: { name: string; config: Record<string, string> };
  /** ClickHouse statements in the order they run: the target table; variant 2 adds the queue table and the view. */
  statements: { label: string; sql: string }[];
  target: { database: string; table: string };
  /** The topic the changes land in. */
  topic: string;
  sourceTable: { database: string; table: string };
}

/** A ClickHouse statement's answer: the translation notice of embedded ClickHouse (X-Loupe-Notice), if any. */
export interface CdcTargetStatement {
  statement: string;
  notice?: string;
  /** ClickHouse's X-ClickHouse-Summary, when sent. */
  summary?: Record<string, string>;
}

// ------------------------------------------------------------------------------------ methods

export interface CdcMethods {
  'cdc.source'(params: Record<string, never>): CdcSourceOverview;
  'cdc.sourceRows'(params: { database: string; table: string; limit?: number; offset?: number }): { columns: string[]; rows: unknown[][]; total: number };
  'cdc.sql'(params: { database?: string; sql: string }): { results: CdcStatementResult[] };
  /** Statements against a real MySQL / MariaDB (query only, through mysql2). */
  'cdc.remoteSql'(params: { connection: CdcRemoteConnection; database?: string; sql: string }): { results: CdcStatementResult[] };
  'cdc.changeLog'(params: { from?: CdcBinlogPosition; limit?: number; last?: number }): { transactions: CdcTransaction[]; head: CdcBinlogPosition; next: CdcBinlogPosition | null };

  'cdc.topics'(params: { includeInternal?: boolean }): { topics: CdcTopicInfo[] };
  'cdc.messages'(params: { topic: string; partition?: number; fromOffset?: number; limit?: number; fromEnd?: boolean; latestPerKey?: boolean }): { messages: CdcMessage[]; begin: number; end: number };
  'cdc.consumerGroups'(params: Record<string, never>): { groups: CdcConsumerGroup[] };

  'cdc.connectors'(params: Record<string, never>): { connectors: CdcConnectorStatus[]; connectUrl: string };
  'cdc.connectorAction'(params: { name: string; action: CdcConnectorAction; task?: number; includeTasks?: boolean; onlyFailed?: boolean }): CdcConnectorActionResult;
  'cdc.createConnector'(params: { name: string; config: Record<string, string> }): { name: string; config: Record<string, string>; tasks: { connector: string; task: number }[]; type: string };
  'cdc.validateConnector'(params: { config: Record<string, string> }): { name: string; error_count: number; groups: string[]; configs: unknown[] };
  'cdc.connectorOffsets'(params: { name: string }): { offsets: { partition: Record<string, unknown>; offset: Record<string, unknown> | null }[] };
  'cdc.plugins'(params: Record<string, never>): { plugins: { class: string; type: string; version?: string }[] };

  'cdc.targetRows'(params: { table: string; database?: string; final?: boolean; limit?: number; orderBy?: string }): CdcTargetRows;
  /**
   * OPTIMIZE TABLE … FINAL CLEANUP. ClickHouse cancels it while merges are stopped ("Cancelled
   * merging parts"): with `resumeMerges` merges run for the cleanup and are stopped again after.
   */
  'cdc.optimizeFinalCleanup'(params: { table: string; database?: string; resumeMerges?: boolean }): CdcCleanupResult;
  /** A window of the target's Raw (grouped by key, winner and why), FINAL, or before/after-cleanup view. */
  'cdc.targetView'(params: { table: string; database?: string; view: CdcTargetViewName; offset?: number; limit?: number }): CdcTargetView;
  /** One key from its source changes through insert blocks to the physical rows, explaining versions collapsed inside one insert block or merged away. */
  'cdc.keyStory'(params: { key: string; table: string; database?: string; sourceDatabase?: string; sourceTable?: string }): CdcKeyStory;
  /** The embedded source's table against the target's FINAL, key by key. */
  'cdc.targetCompare'(params: { source: { database: string; table: string }; target: { database?: string; table: string }; columns: string[] }): CdcTargetComparison;
  'cdc.pipeline'(params: { database?: string; table?: string; limit?: number; targetTable?: string; targetDatabase?: string }): CdcPipeline;
  /** The seed's pipeline (assets/cdc) for a variant, addresses filled in for the configured services. */
  'cdc.pipelineTemplate'(params: { variant: 1 | 2 }): CdcPipelineTemplate;
  /** One ClickHouse statement (DDL, SYSTEM …) against the target; the failure detail carries ClickHouse's code and text. */
  'cdc.targetSql'(params: { sql: string }): CdcTargetStatement;
  /** SYSTEM STOP MERGES / SYSTEM START MERGES on the target table, so versions stay visible while a presenter talks. */
  'cdc.merges'(params: { table: string; database?: string; stopped: boolean }): CdcTargetStatement & { stopped: boolean };
  /** A ClickHouse sink's exactly-once state (its zkDatabase table): BEFORE/AFTER and the offsets per topic-partition. */
  'cdc.sinkState'(params: { connector: string }): { database: string; table: string; rows: { key: string; minOffset: number; maxOffset: number; state: string }[] };
  /** The pipeline's running totals for the flow view's counters: the embedded source's committed transactions and ClickHouse's InsertedRows (all tables). */
  'cdc.counters'(params: Record<string, never>): { transactions: number | null; insertedRows: number };
  /** Starts forwarding worker progress and state changes as events (idempotent). */
  'cdc.watch'(params: Record<string, never>): { watching: boolean };
  /**
   * The form a cluster DDL takes on the configured ClickHouse, without running it: embedded
   * ClickHouse's single-node translation with its notices (`embedded: true`), or the text as
   * written when the target is a real ClickHouse (`embedded: false`, no notices).
   */
  'cdc.translateDdl'(params: { sql: string }): { original: string; sql: string; notices: string[]; embedded: boolean };
  /**
   * PUT /connectors/{name}/config: replaces a connector's config (creates it when absent, `created`).
   * A refused config fails with Kafka Connect's `{error_code, message}` as the detail.
   */
  'cdc.putConnectorConfig'(params: { name: string; config: Record<string, string> }): { name: string; config: Record<string, string>; tasks: { connector: string; task: number }[]; type: string; created: boolean };
}

export interface CdcProgressEvent {
  connector: string;
  task: number;
  kind: 'source' | 'sink';
  records: number;
  topics: string[];
  positions: { topic: string; partition: number; offset: number }[];
  at: number;
}

export interface CdcEvents {
  /** Records written by a source task or delivered by a sink task. */
  'cdc.progress': CdcProgressEvent;
  /** A connector or task changed state (task null = the connector itself). */
  'cdc.connectorState': { connector: string; task: number | null; state: string; trace?: string };
}
