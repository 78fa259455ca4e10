/**
 * The Debezium MySQL connector's configuration as the seed uses it (Debezium 1.x names) and the
 * 2.x names that replaced them: database.server.name → topic.prefix, *.whitelist/blacklist →
 * *.include.list/exclude.list, database.history.* → schema.history.internal.*.
 */
import { configKey, type ConfigKeyDef, type ConnectorConfig, type ValidationErrors } from '../../plugin.js';
import type { DecimalMode, TypeModes } from './column-types.js';
import { columnMapperRules } from './column-mappers.js';
import { regexList } from './regex-list.js';

export const SNAPSHOT_MODES = ['initial', 'initial_only', 'when_needed', 'never', 'schema_only', 'schema_only_recovery', 'no_data', 'recovery', 'always'] as const;
export type SnapshotMode = (typeof SNAPSHOT_MODES)[number];
export const SNAPSHOT_LOCKING_MODES = ['extended', 'minimal', 'minimal_percona', 'none'] as const;
/** RelationalTableFilters' system tables filter (MySqlConnectorConfig.BUILT_IN_DB_NAMES), applied when table.ignore.builtin is on. */
export const BUILT_IN_DATABASES = new Set(['mysql', 'performance_schema', 'sys', 'information_schema']);

export interface MySqlConnectorConfig {
  hostname: string;
  port: number;
  serverId: number;
  topicPrefix: string;
  databaseInclude: RegExp[] | null;
  databaseExclude: RegExp[] | null;
  tableInclude: RegExp[] | null;
  tableExclude: RegExp[] | null;
  /**
   * table.include.list as RelationalSnapshotChangeEventSource.sort reads it to order the snapshot:
   * one unanchored, case-insensitive pattern per entry, in the order given.
   */
  tableIncludeOrder: RegExp[] | null;
  /** table.ignore.builtin (default true): mysql, sys, performance_schema and information_schema are never captured. */
  ignoreBuiltin: boolean;
  /** database.history.store.only.captured.tables.ddl / schema.history.internal.…: schema change events of captured tables only. */
  storeOnlyCapturedTablesDdl: boolean;
  /** snapshot.fetch.size: rows read from a table per scan of the embedded source during the snapshot. */
  snapshotFetchSize: number;
  snapshotMode: SnapshotMode;
  decimalMode: DecimalMode;
  includeQuery: boolean;
  includeSchemaChanges: boolean;
  tombstonesOnDelete: boolean;
  maxBatchSize: number;
  pollIntervalMs: number;
  typeModes: TypeModes;
  /** column.include.list / column.exclude.list, matched against `<db>.<table>.<column>`. */
  columnInclude: RegExp[] | null;
  columnExclude: RegExp[] | null;
  /** message.key.columns as Debezium expands it: one regex per `<table regex>.<column>`. */
  messageKeyColumns: RegExp[] | null;
  /** skipped.operations: streamed c/u/d events left out (r and t are accepted; MySQL streams neither). */
  skippedOperations: Set<string>;
  provideTransactionMetadata: boolean;
  transactionTopic: string;
  /** heartbeat.interval.ms; 0 sends none. */
  heartbeatIntervalMs: number;
  heartbeatTopic: string;
  /** column.truncate.to.N.chars, column.mask.with.N.chars, column.mask.hash.*: first match per column. */
  columnMappers: ReturnType<typeof columnMapperRules>;
}

/** Debezium's CustomKeyMapper: `<fully-qualified table>:<column>[,<column>…]`, several separated by `;`. */
const MSG_KEY_COLUMNS_PATTERN = /^\s*([^\s:]+):([^:\s]+)\s*$/;


function first(config: ConnectorConfig, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = config[k];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/** A regex list option, or null when it is not set. */
function optionalRegexList(v: string | undefined): RegExp[] | null {
  return v === undefined ? null : regexList(v);
}

export function parseConfig(config: ConnectorConfig): MySqlConnectorConfig {
  return {
    hostname: config['database.hostname']!.trim(),
    port: Number(config['database.port'] ?? 3306),
    serverId: Number(config['database.server.id'] ?? 0),
    topicPrefix: first(config, 'topic.prefix', 'database.server.name')!,
    databaseInclude: optionalRegexList(first(config, 'database.include.list', 'database.whitelist')),
    databaseExclude: optionalRegexList(first(config, 'database.exclude.list', 'database.blacklist')),
    tableInclude: optionalRegexList(first(config, 'table.include.list', 'table.whitelist')),
    tableExclude: optionalRegexList(first(config, 'table.exclude.list', 'table.blacklist')),
    tableIncludeOrder: (() => {
      const v = first(config, 'table.include.list', 'table.whitelist');
      return v === undefined ? null : v.split(',').map((s) => s.trim()).filter(Boolean).map((s) => new RegExp(s, 'i'));
    })(),
    ignoreBuiltin: (first(config, 'table.ignore.builtin') ?? 'true').toLowerCase() !== 'false',
    storeOnlyCapturedTablesDdl: (first(config, 'database.history.store.only.captured.tables.ddl', 'schema.history.internal.store.only.captured.tables.ddl') ?? 'false').toLowerCase() === 'true',
    // HistorizedRelationalDatabaseConnectorConfig.DEFAULT_SNAPSHOT_FETCH_SIZE; 0 leaves it to the driver, here the batch size
    snapshotFetchSize: Number(first(config, 'snapshot.fetch.size') ?? 2000),
    snapshotMode: (first(config, 'snapshot.mode') ?? 'initial').toLowerCase() as SnapshotMode,
    decimalMode: (first(config, 'decimal.handling.mode') ?? 'precise').toLowerCase() as DecimalMode,
    includeQuery: (first(config, 'include.query') ?? 'false').toLowerCase() === 'true',
    includeSchemaChanges: (first(config, 'include.schema.changes') ?? 'true').toLowerCase() !== 'false',
    tombstonesOnDelete: (first(config, 'tombstones.on.delete') ?? 'true').toLowerCase() !== 'false',
    maxBatchSize: Number(first(config, 'max.batch.size') ?? 2048),
    pollIntervalMs: Number(first(config, 'poll.interval.ms') ?? 500),
    typeModes: {
      decimal: (first(config, 'decimal.handling.mode') ?? 'precise').toLowerCase() as DecimalMode,
      timePrecision: (first(config, 'time.precision.mode') ?? 'adaptive_time_microseconds').toLowerCase() === 'connect' ? 'connect' : 'adaptive_time_microseconds',
      bigintUnsigned: (first(config, 'bigint.unsigned.handling.mode') ?? 'long').toLowerCase() === 'precise' ? 'precise' : 'long',
      binary: (['base64', 'hex'] as const).find((m) => m === (first(config, 'binary.handling.mode') ?? 'bytes').toLowerCase()) ?? 'bytes',
    },
    columnMappers: columnMapperRules(config),
    columnInclude: optionalRegexList(first(config, 'column.include.list', 'column.whitelist')),
    columnExclude: optionalRegexList(first(config, 'column.exclude.list', 'column.blacklist')),
    messageKeyColumns: messageKeyRegexes(first(config, 'message.key.columns')),
    skippedOperations: new Set(
      (first(config, 'skipped.operations') ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o && o !== 'none'),
    ),
    provideTransactionMetadata: (first(config, 'provide.transaction.metadata') ?? 'false').toLowerCase() === 'true',
    transactionTopic: (first(config, 'transaction.topic') ?? '${database.server.name}.transaction').replaceAll('${database.server.name}', first(config, 'topic.prefix', 'database.server.name') ?? ''),
    heartbeatIntervalMs: Number(first(config, 'heartbeat.interval.ms') ?? 0),
    heartbeatTopic: `${first(config, 'heartbeat.topics.prefix') ?? '__debezium-heartbeat'}.${first(config, 'topic.prefix', 'database.server.name') ?? ''}`,
  };
}

/**
 * Debezium 1.9 MySQL keys the embedded connector accepts without acting on them, with what they
 * would do: the task says so in its log when it starts, rather than ignoring them silently.
 */
const NOT_APPLIED: [RegExp, string][] = [
  [/^signal\.data\.collection$|^incremental\.snapshot\./, 'signals and incremental snapshots'],
  [/^snapshot\.select\.statement\.overrides/, 'custom snapshot queries'],
  [/^snapshot\.include\.collection\.list$/, 'a snapshot of a subset of the captured tables'],
  [/^converters$/, 'custom converters (Java classes)'],
  [/^gtid\.source\.(includes|excludes)$/, 'a transaction filter by GTID source'],
  // Debezium 1.9 reads it only in its legacy reader (MySqlConnectorConfig.SNAPSHOT_NEW_TABLES); the default one ignores it too
  [/^snapshot\.new\.tables$/, 'a parallel snapshot of tables newly added to the filters (legacy implementation only)'],
  [/^(event\.processing\.failure|inconsistent\.schema|event\.deserialization\.failure)\.handling\.mode$/, 'handling of binlog events only a real server sends'],
];

/** The keys of `config` Loupe's embedded connector does not apply, each with what it would do. */
export function notAppliedKeys(config: ConnectorConfig): { key: string; does: string }[] {
  const out: { key: string; does: string }[] = [];
  for (const key of Object.keys(config)) {
    const hit = NOT_APPLIED.find(([re]) => re.test(key));
    if (hit) out.push({ key, does: hit[1] });
  }
  return out;
}

/** `inventory.orders:id,line;(.*).items:sku` → regexes for `inventory.orders.id`, `inventory.orders.line`, `(.*).items.sku`. */
function messageKeyRegexes(v: string | undefined): RegExp[] | null {
  if (v === undefined) return null;
  const out: string[] = [];
  for (const part of v.split(';')) {
    const [table, columns] = part.split(':');
    if (table === undefined || columns === undefined) continue;
    for (const c of columns.split(',')) out.push(`${table}.${c}`);
  }
  return regexList(out.join(','));
}

const required = (name: string) => `The '${name}' value is invalid: A value is required`;

export function validateConfig(config: ConnectorConfig): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const host = config['database.hostname'];
  if (host === undefined || host.trim() === '') add('database.hostname', required('database.hostname'));
  if (!first(config, 'database.user')) add('database.user', required('database.user'));
  if (!first(config, 'topic.prefix', 'database.server.name')) add('topic.prefix', required('topic.prefix') + " (or the older 'database.server.name')");
  else {
    const prefix = first(config, 'topic.prefix', 'database.server.name')!;
    if (!/^[a-zA-Z0-9._-]+$/.test(prefix)) add('topic.prefix', `The 'topic.prefix' value '${prefix}' is invalid: Topic prefix '${prefix}' has invalid character(s) (allowed: letters, digits, '.', '_' and '-')`);
  }
  const port = config['database.port'];
  if (port !== undefined && !/^\d+$/.test(port.trim())) add('database.port', `The 'database.port' value '${port}' is invalid: A positive integer is expected`);
  const sid = config['database.server.id'];
  if (sid !== undefined && !/^\d+$/.test(sid.trim())) add('database.server.id', `The 'database.server.id' value '${sid}' is invalid: A positive integer is expected`);
  const mode = config['snapshot.mode'];
  if (mode !== undefined && !(SNAPSHOT_MODES as readonly string[]).includes(mode.trim().toLowerCase())) {
    add('snapshot.mode', `The 'snapshot.mode' value '${mode}' is invalid: Value must be one of ${SNAPSHOT_MODES.join(', ')}`);
  }
  const lm = config['snapshot.locking.mode'];
  if (lm !== undefined && !(SNAPSHOT_LOCKING_MODES as readonly string[]).includes(lm.trim().toLowerCase())) {
    add('snapshot.locking.mode', `The 'snapshot.locking.mode' value '${lm}' is invalid: Value must be one of ${SNAPSHOT_LOCKING_MODES.join(', ')}`);
  }
  const snt = config['snapshot.new.tables'];
  if (snt !== undefined && !['off', 'parallel'].includes(snt.trim().toLowerCase())) add('snapshot.new.tables', `The 'snapshot.new.tables' value '${snt}' is invalid: Value must be one of off, parallel`);
  const fs = config['snapshot.fetch.size'];
  // Field.isNonNegativeInteger
  if (fs !== undefined && !/^\d+$/.test(fs.trim())) add('snapshot.fetch.size', `The 'snapshot.fetch.size' value '${fs}' is invalid: A positive integer is expected`);
  const dm = config['decimal.handling.mode'];
  if (dm !== undefined && !['precise', 'double', 'string'].includes(dm.trim().toLowerCase())) add('decimal.handling.mode', `The 'decimal.handling.mode' value '${dm}' is invalid: Value must be one of precise, double, string`);
  for (const k of ['database.include.list', 'database.whitelist', 'database.exclude.list', 'database.blacklist', 'table.include.list', 'table.whitelist', 'table.exclude.list', 'table.blacklist', 'column.include.list', 'column.whitelist', 'column.exclude.list', 'column.blacklist']) {
    const v = config[k];
    if (v === undefined) continue;
    for (const part of v.split(',').map((s) => s.trim()).filter(Boolean)) {
      try {
        new RegExp(part);
      } catch (err) {
        add(k, `The '${k}' value '${v}' is invalid: A comma-separated list of valid regular expressions is expected, but ${(err as Error).message}`);
      }
    }
  }
  // RelationalDatabaseConnectorConfig's *_ALREADY_SPECIFIED_ERROR_MSG, in the 2.x "value is invalid" form these messages use
  for (const [inc, exc] of [
    ['database.include.list', 'database.exclude.list'],
    ['table.include.list', 'table.exclude.list'],
    ['column.include.list', 'column.exclude.list'],
  ] as const) {
    if (first(config, inc) && first(config, exc)) add(exc, `The '${exc}' value is invalid: "${inc}" is already specified`);
  }
  const keyCols = config['message.key.columns'];
  if (keyCols !== undefined) {
    if (keyCols === '') add('message.key.columns', "The 'message.key.columns' value is invalid: Must not be empty");
    for (const part of keyCols.split(';')) {
      if (!MSG_KEY_COLUMNS_PATTERN.test(part)) add('message.key.columns', `The 'message.key.columns' value is invalid: ${part} has an invalid format (expecting '^\\s*([^\\s:]+):([^:\\s]+)\\s*$')`);
    }
  }
  const skipped = config['skipped.operations'];
  if (skipped !== undefined && skipped !== 'none') {
    const ops = skipped.split(',').map((o) => o.trim());
    if (ops.some((o) => !['none', 'r', 'c', 'u', 'd', 't'].includes(o))) add('skipped.operations', "The 'skipped.operations' value is invalid: Invalid operation");
    else if (ops.includes('none') && ops.some((o) => o !== 'none')) add('skipped.operations', "The 'skipped.operations' value is invalid: 'none' cannot be specified with other skipped operation types");
  }
  const tpm = config['time.precision.mode'];
  if (tpm !== undefined) {
    const m = tpm.trim().toLowerCase();
    if (m === 'adaptive') add('time.precision.mode', "The 'time.precision.mode' value is invalid: The 'adaptive' time.precision.mode is no longer supported");
    else if (m !== 'adaptive_time_microseconds' && m !== 'connect') add('time.precision.mode', "The 'time.precision.mode' value is invalid: Value must be one of adaptive, adaptive_time_microseconds, connect");
  }
  const bhm = config['binary.handling.mode'];
  if (bhm !== undefined && !['bytes', 'base64', 'hex'].includes(bhm.trim().toLowerCase())) add('binary.handling.mode', "The 'binary.handling.mode' value is invalid: Value must be one of bytes, base64, hex");
  const bum = config['bigint.unsigned.handling.mode'];
  if (bum !== undefined && !['long', 'precise'].includes(bum.trim().toLowerCase())) add('bigint.unsigned.handling.mode', "The 'bigint.unsigned.handling.mode' value is invalid: Value must be one of long, precise");
  for (const k of ['heartbeat.interval.ms']) {
    const v = config[k];
    if (v !== undefined && !/^\d+$/.test(v.trim())) add(k, `The '${k}' value is invalid: A positive integer is expected`);
  }
  return errors;
}

// Debezium marks no key as required in its ConfigDef (it checks them in validate); the keys it
// does require say so with `{ required: true }`.
const d = (name: string, type: ConfigKeyDef['type'], defaultValue: string | null, importance: ConfigKeyDef['importance'], documentation: string, group: string, order: number, extra: Partial<ConfigKeyDef> = {}): ConfigKeyDef =>
  configKey(name, type, defaultValue, importance, documentation, group, order, { required: false, ...extra });

export const CONFIG_DEFS: ConfigKeyDef[] = [
  d('topic.prefix', 'STRING', null, 'HIGH', 'Topic prefix that identifies and provides a namespace for the particular database server/cluster is capturing changes. The topic prefix should be unique across all other connectors, since it is used as a prefix for all Kafka topic names that receive events emitted by this connector. Only alphanumeric characters, hyphens, dots and underscores must be accepted.', 'Connector', 0, { display_name: 'Topic prefix' }),
  d('database.server.name', 'STRING', null, 'HIGH', 'Deprecated (Debezium 1.x) name of topic.prefix; accepted.', 'Connector', 1),
  d('database.hostname', 'STRING', null, 'HIGH', "Resolvable hostname or IP address of the database server. Loupe's embedded worker accepts localhost/127.0.0.1 (its embedded source).", 'Connection', 0, { required: true, display_name: 'Hostname' }),
  d('database.port', 'INT', '3306', 'HIGH', 'Port of the database server.', 'Connection', 1, { display_name: 'Port' }),
  d('database.user', 'STRING', null, 'HIGH', 'Name of the database user to be used when connecting to the database.', 'Connection', 2, { required: true, display_name: 'User' }),
  d('database.password', 'PASSWORD', null, 'HIGH', 'Password of the database user to be used when connecting to the database.', 'Connection', 3, { display_name: 'Password' }),
  d('database.server.id', 'LONG', null, 'LOW', 'A numeric ID of this database client, which must be unique across all currently-running database processes in the cluster.', 'Connection', 4, { display_name: 'Cluster ID' }),
  d('database.include.list', 'LIST', null, 'HIGH', 'The databases for which changes are to be captured (comma-separated regular expressions). Older name: database.whitelist.', 'Filters', 0),
  d('database.exclude.list', 'LIST', null, 'MEDIUM', 'Databases to exclude (comma-separated regular expressions). Older name: database.blacklist.', 'Filters', 1),
  d('table.include.list', 'LIST', null, 'HIGH', 'The tables for which changes are to be captured, as <database>.<table> regular expressions. Older name: table.whitelist.', 'Filters', 2),
  d('table.exclude.list', 'LIST', null, 'MEDIUM', 'Tables to exclude. Older name: table.blacklist.', 'Filters', 3),
  d('snapshot.mode', 'STRING', 'initial', 'LOW', "The criteria for running a snapshot upon startup of the connector. Options include: 'when_needed'; 'schema_only'; 'initial' (the default); 'initial_only'; 'never'; 'schema_only_recovery'; 'no_data'; 'recovery'; 'always'.", 'Connector', 5, { recommended: [...SNAPSHOT_MODES] }),
  d('snapshot.locking.mode', 'STRING', 'minimal', 'LOW', "Controls how long the connector holds onto the global read lock while it is performing a snapshot: 'minimal' (the default), 'minimal_percona', 'extended' or 'none'. The embedded source takes no locks: its snapshot reads the tables while writes go on, and streaming from the snapshot's position replays what changed meanwhile.", 'Connector', 5, { recommended: [...SNAPSHOT_LOCKING_MODES] }),
  d('snapshot.fetch.size', 'INT', null, 'MEDIUM', 'The maximum number of records that should be loaded into memory while performing a snapshot (default 2000).', 'Connector', 5),
  d('snapshot.new.tables', 'STRING', 'off', 'LOW', "Debezium 1.9 legacy implementation only: 'off' (the default) or 'parallel'. Accepted; no effect.", 'Connector', 5, { recommended: ['off', 'parallel'] }),
  d('table.ignore.builtin', 'BOOLEAN', 'true', 'LOW', 'Flag specifying whether built-in tables (the mysql, sys, performance_schema and information_schema databases) should be ignored.', 'Filters', 6),
  d('database.history.store.only.captured.tables.ddl', 'BOOLEAN', 'false', 'LOW', 'Controls what DDL will Debezium store in database history. By default (false) Debezium will store all incoming DDL statements. If set to true, then only DDL that manipulates a captured table will be stored. Here it also decides which schema change events are sent.', 'History Storage', 4),
  d('schema.history.internal.store.only.captured.tables.ddl', 'BOOLEAN', 'false', 'LOW', 'Debezium 2.x name of database.history.store.only.captured.tables.ddl.', 'History Storage', 5),
  d('database.history.skip.unparseable.ddl', 'BOOLEAN', 'false', 'LOW', 'Controls the action Debezium will take when it meets a DDL statement in binlog, that it cannot parse. Accepted; the embedded source refuses DDL it cannot parse, so none reaches its binlog.', 'History Storage', 6),
  d('schema.history.internal.skip.unparseable.ddl', 'BOOLEAN', 'false', 'LOW', 'Debezium 2.x name of database.history.skip.unparseable.ddl; accepted.', 'History Storage', 7),
  d('decimal.handling.mode', 'STRING', 'precise', 'MEDIUM', "Specify how DECIMAL and NUMERIC columns should be represented in change events: 'precise' (the default, java.math.BigDecimal); 'string'; 'double'.", 'Connector', 6, { recommended: ['precise', 'string', 'double'] }),
  d('include.query', 'BOOLEAN', 'false', 'MEDIUM', 'Whether the connector should include the original SQL query that generated the change event.', 'Connector', 7),
  d('include.schema.changes', 'BOOLEAN', 'true', 'MEDIUM', 'Whether the connector should publish changes in the database schema to a Kafka topic with the same name as the database server ID (the topic prefix).', 'Connector', 8),
  d('tombstones.on.delete', 'BOOLEAN', 'true', 'MEDIUM', 'Whether delete operations should be represented by a delete event and a subsequent tombstone event (true) or only by a delete event (false).', 'Connector', 8),
  d('max.batch.size', 'INT', '2048', 'MEDIUM', 'Maximum size of each batch of source records.', 'Connector', 9),
  d('poll.interval.ms', 'LONG', '500', 'MEDIUM', 'Time to wait for new change events to appear after receiving no events, given in milliseconds.', 'Connector', 10),
  d('column.include.list', 'LIST', null, 'MEDIUM', 'Regular expressions matching columns to include in change events. Older name: column.whitelist.', 'Filters', 4),
  d('column.exclude.list', 'LIST', null, 'MEDIUM', 'Regular expressions matching columns to exclude from change events. Older name: column.blacklist.', 'Filters', 5),
  d('message.key.columns', 'STRING', null, 'MEDIUM', "A semicolon-separated list of expressions that match fully-qualified tables and column(s) to be used as message key. Each expression must match the pattern '<fully-qualified table name>:<key columns>',where the table names could be defined as (DB_NAME.TABLE_NAME) or (SCHEMA_NAME.TABLE_NAME), depending on the specific connector,and the key columns are a comma-separated list of columns representing the custom key. For any table without an explicit key configuration the table's primary key column(s) will be used as message key.Example: dbserver1.inventory.orderlines:orderId,orderLineId;dbserver1.inventory.orders:id", 'Connector', 11),
  d('skipped.operations', 'LIST', null, 'LOW', "The comma-separated list of operations to skip during streaming, defined as: 'c' for inserts/create; 'u' for updates; 'd' for deletes, 't' for truncates, and 'none' to indicate nothing skipped. By default, no operations will be skipped.", 'Connector', 12),
  d('time.precision.mode', 'STRING', 'adaptive_time_microseconds', 'MEDIUM', "Time, date and timestamps can be represented with different kinds of precisions, including:'adaptive_time_microseconds': the precision of date and timestamp values is based the database column's precision; but time fields always use microseconds precision;'connect': always represents time, date and timestamp values using Kafka Connect's built-in representations for Time, Date, and Timestamp, which uses millisecond precision regardless of the database columns' precision.", 'Connector', 13, { recommended: ['adaptive_time_microseconds', 'connect'] }),
  d('bigint.unsigned.handling.mode', 'STRING', 'long', 'MEDIUM', "Specify how BIGINT UNSIGNED columns should be represented in change events, including:'precise' uses java.math.BigDecimal to represent values, which are encoded in the change events using a binary representation and Kafka Connect's 'org.apache.kafka.connect.data.Decimal' type; 'long' (the default) represents values using Java's 'long', which may not offer the precision but will be far easier to use in consumers.", 'Connector', 14, { recommended: ['long', 'precise'] }),
  d('binary.handling.mode', 'STRING', 'bytes', 'LOW', "Specify how binary (blob, binary, etc.) columns should be represented in change events, including:'bytes' represents binary data as byte array (default)'base64' represents binary data as base64-encoded string'hex' represents binary data as hex-encoded (base16) string", 'Connector', 15, { recommended: ['bytes', 'base64', 'hex'] }),
  d('provide.transaction.metadata', 'BOOLEAN', 'false', 'LOW', 'Enables transaction metadata extraction together with event counting', 'Connector', 15),
  d('transaction.topic', 'STRING', '${database.server.name}.transaction', 'MEDIUM', "The name of the transaction metadata topic. The placeholder ${database.server.name} can be used for referring to the connector's logical name; defaults to ${database.server.name}.transaction.", 'Connector', 16),
  d('heartbeat.interval.ms', 'INT', '0', 'MEDIUM', 'Length of an interval in milli-seconds in in which the connector periodically sends heartbeat messages to a heartbeat topic. Use 0 to disable heartbeat messages. Disabled by default.', 'Connector', 17),
  d('heartbeat.topics.prefix', 'STRING', '__debezium-heartbeat', 'LOW', 'The prefix that is used to name heartbeat topics.Defaults to __debezium-heartbeat.', 'Connector', 18),
  d('database.history.kafka.bootstrap.servers', 'STRING', null, 'HIGH', 'Debezium 1.x schema history brokers; accepted (Loupe keeps schema history in its embedded source).', 'History Storage', 0),
  d('database.history.kafka.topic', 'STRING', null, 'HIGH', 'Debezium 1.x schema history topic; accepted.', 'History Storage', 1),
  d('schema.history.internal.kafka.bootstrap.servers', 'STRING', null, 'HIGH', 'Schema history brokers (Debezium 2.x); accepted.', 'History Storage', 2),
  d('schema.history.internal.kafka.topic', 'STRING', null, 'HIGH', 'Schema history topic (Debezium 2.x); accepted.', 'History Storage', 3),
  d('database.serverTimezone', 'STRING', null, 'LOW', 'JDBC driver time zone; DATETIME values carry no zone and are emitted as if UTC, as Debezium does.', 'Connection', 5),
];
