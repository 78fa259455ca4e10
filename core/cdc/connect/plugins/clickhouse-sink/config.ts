/**
 * Configuration of the ClickHouse sink (com.clickhouse.kafka.connect.ClickHouseSinkConnector):
 * the keys of ClickHouseSinkConfig (tag v1.3.4) with their ConfigDef types, defaults, validators,
 * documentation and display names, parsed once into one typed object the way its constructor
 * parses them.
 */
import { configKey, type ConfigKeyDef, type ConnectorConfig, type ValidationErrors } from '../../plugin.js';

export type InsertFormat = 'NONE' | 'CSV' | 'TSV' | 'JSON';

export interface SinkConfig {
  hostname: string;
  port: number;
  database: string;
  username: string;
  password: string;
  ssl: boolean;
  exactlyOnce: boolean;
  /** From `clickhouseSettings` (comma list of k=v), with the connector's own insert settings added. */
  clickhouseSettings: Record<string, string>;
  /** From `topic2TableMap` (comma list of topic=table). */
  topic2Table: Record<string, string>;
  keeperOnCluster: string;
  /** KeeperMap path of the state table (`zkPath`). */
  zkPath: string;
  /** Name of the state table (`zkDatabase`). */
  zkDatabase: string;
  enableDbTopicSplit: boolean;
  dbTopicSplitChar: string;
  suppressTableExistenceException: boolean;
  tolerateStateMismatch: boolean;
  bypassFieldCleanup: boolean;
  ignorePartitionsWhenBatching: boolean;
  insertFormat: InsertFormat;
  /** Seconds to keep retrying a failing insert (`errors.retry.timeout`). */
  retryTimeoutSec: number;
  errorsTolerance: 'none' | 'all';
  /** `consumer.override.max.poll.records` — the largest block the sink inserts at once. */
  maxPollRecords: number;
  /** `consumer.override.max.partition.fetch.bytes`. */
  maxPartitionFetchBytes: number;
  topics: string[];
}

type Width = ConfigKeyDef['width'];
let order = 0;
const def = (
  name: string,
  type: ConfigKeyDef['type'],
  defaultValue: string | null,
  importance: ConfigKeyDef['importance'],
  doc: string,
  width: Width,
  display: string,
  recommended?: string[],
): ConfigKeyDef => configKey(name, type, defaultValue, importance, doc, 'Connection', ++order, { width, display_name: display, ...(recommended ? { recommended } : {}) });

/** ClickHouseSinkConfig.createConfigDef, in its order (the defaults as ConfigDef prints them). */
export const SINK_CONFIG_DEFS: readonly ConfigKeyDef[] = [
  def('hostname', 'STRING', null, 'HIGH', 'hostname', 'MEDIUM', 'ClickHouse Hostname.'),
  def('port', 'INT', '8443', 'HIGH', 'port', 'SHORT', 'ClickHouse Port.'),
  def('database', 'STRING', 'default', 'LOW', 'database', 'MEDIUM', 'Clickhouse database name.'),
  // ConfigDef's default is passwordDefault (""); the constructor falls back to "default".
  def('username', 'STRING', '', 'LOW', 'username', 'MEDIUM', 'Clickhouse username.'),
  def('password', 'PASSWORD', '', 'LOW', 'password', 'MEDIUM', 'Password for authentication.'),
  def('ssl', 'BOOLEAN', 'true', 'LOW', 'enabled SSL. default: false', 'MEDIUM', 'enable SSL.'),
  def('jdbcConnectionProperties', 'STRING', '', 'LOW', 'Clickhouse JDBC connection properties. default: empty', 'MEDIUM', 'JDBC properties for Clickhouse connection.'),
  def('timeoutSeconds', 'INT', '30', 'LOW', 'clickhouse driver timeout in sec', 'SHORT', 'ClickHouse driver timeout'),
  def('retryCount', 'INT', '3', 'LOW', 'clickhouse driver retry ', 'SHORT', 'ClickHouse driver retry'),
  def('tableRefreshInterval', 'LONG', '0', 'LOW', 'table refresh interval in sec, default: 0', 'SHORT', 'table refresh interval'),
  def('exactlyOnce', 'BOOLEAN', 'false', 'LOW', 'enable exactly once semantics. default: false', 'MEDIUM', 'enable exactly once semantics.'),
  def('suppressTableExistenceException', 'BOOLEAN', 'false', 'LOW', 'suppress table existence exception. default: false', 'SHORT', 'suppress table existence exception.'),
  def('clickhouseSettings', 'LIST', '', 'LOW', 'A comma-separated list of ClickHouse settings to be appended to the JDBC URL', 'LONG', 'ClickHouse settings.'),
  def('topic2TableMap', 'LIST', '', 'LOW', 'A comma-separated list of topic=table mappings', 'LONG', 'Table mapping.'),
  def('errors.tolerance', 'STRING', 'none', 'LOW', 'Should we tolerate exceptions? default: none', 'SHORT', 'Tolerate errors.'),
  def('customInsertFormat', 'BOOLEAN', 'false', 'LOW', 'enable custom insert format only for org.apache.kafka.connect.storage.StringConverter. default: false', 'MEDIUM', 'enable custom insert format.'),
  // InsertFormatValidatorAndRecommender: CSV, TSV, JSON once customInsertFormat is true.
  def('insertFormat', 'STRING', 'none', 'LOW', 'Set insert format when using org.apache.kafka.connect.storage.StringConverter', 'LONG', 'Insert format.', ['NONE']),
  def('proxyType', 'STRING', '', 'LOW', 'What type of proxy to use. Default: none', 'SHORT', 'Proxy type', ['IGNORE', 'DIRECT', 'HTTP', 'SOCKS']),
  def('proxyHost', 'STRING', '', 'LOW', "If we're using a proxy, what is the host?", 'SHORT', 'Proxy host'),
  def('proxyPort', 'INT', '-1', 'LOW', "If we're using a proxy, what is the port?", 'SHORT', 'Proxy port'),
  def('zkPath', 'STRING', '/kafka-connect', 'LOW', 'This is the zookeeper path for the state store', 'MEDIUM', 'Zookeeper path'),
  def('zkDatabase', 'STRING', 'connect_state', 'LOW', 'This is the database for the state store', 'MEDIUM', 'State store database'),
  def('enableDbTopicSplit', 'BOOLEAN', 'false', 'LOW', 'enable database topic split from topic name. default: false', 'SHORT', 'enable database topic split from topic name.'),
  def('dbTopicSplitChar', 'STRING', '', 'LOW', 'Database topic split character. Default: none', 'SHORT', 'Database topic split character', ['_', '-', '.']),
  def('keeperOnCluster', 'STRING', '', 'LOW', "Which cluster keeper is on. Only needed for self-hosted clusters using exactly-once. Default: ''", 'SHORT', 'Keeper on cluster'),
  def('bypassRowBinary', 'BOOLEAN', 'false', 'LOW', 'Bypass RowBinary format, sometimes needed with data gaps. default: false', 'SHORT', 'Bypass RowBinary format.'),
  def('dateTimeFormats', 'LIST', '', 'LOW', "Date time formats for parsing date time fields (e.g. 'someDateField=yyyy-MM-dd HH:mm:ss.SSSSSSSSS'). default: ''", 'SHORT', 'Date time formats.'),
  // ClickHouseSinkConnector.CLIENT_VERSION is "client_version", not clientVersion.
  def('client_version', 'STRING', '', 'LOW', 'Client version', 'SHORT', 'Client version'),
  def('tolerateStateMismatch', 'BOOLEAN', 'false', 'LOW', 'Tolerate state mismatch. default: false', 'SHORT', 'Tolerate state mismatch.'),
  def('bypassSchemaValidation', 'BOOLEAN', 'false', 'LOW', 'Bypass schema validation. default: false', 'SHORT', 'Bypass schema validation.'),
  def('bypassFieldCleanup', 'BOOLEAN', 'false', 'LOW', 'Bypass field cleanup. default: false', 'SHORT', 'Bypass field cleanup.'),
  def('ignorePartitionsWhenBatching', 'BOOLEAN', 'false', 'LOW', 'Ignore partitions when batching. Flag ignored when exactlyOnce=true. default: false', 'SHORT', 'Ignore partitions when batching.'),
  // Not a key of the connector (Kafka Connect's, in milliseconds there); Loupe's sink retries its own inserts for this many seconds.
  def('errors.retry.timeout', 'LONG', '60', 'LOW', 'ClickHouse JDBC Retry Timeout (seconds)', 'MEDIUM', 'ClickHouse JDBC Retry Timeout'),
];

/**
 * Java's String.split as the connector calls it on a literal separator: trailing empty strings
 * removed, and an empty separator splitting between every character.
 */
export function javaSplit(s: string, sep: string): string[] {
  const parts = sep === '' ? [...s] : s.split(sep);
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 1 && parts[0] === '' && s !== '') return [];
  return parts;
}

/** `k=v,k=v` as the connector reads clickhouseSettings and topic2TableMap: an entry that does not split into exactly two parts is ignored. */
function pairs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  const t = s.trim();
  if (!t) return out;
  for (const entry of t.split(',')) {
    const p = javaSplit(entry.trim(), '=');
    if (p.length === 2) out[p[0]!.trim()] = p[1]!.trim();
  }
  return out;
}

/** The settings ClickHouseSinkConfig adds to clickhouseSettings unless the user set them. */
const CONNECTOR_SETTINGS: Record<string, string> = { input_format_skip_unknown_fields: '1', wait_end_of_query: '1', async_insert: '0', send_progress_in_http_headers: '1' };

export function parseSinkConfig(config: ConnectorConfig): SinkConfig {
  const get = (k: string, d: string) => (config[k] ?? '').trim() || d;
  const bool = (k: string) => (config[k] ?? '').trim().toLowerCase() === 'true';
  const positive = (k: string, d: number) => {
    const n = Number(get(k, String(d)));
    return Number.isSafeInteger(n) && n > 0 ? n : d;
  };
  const format = (config.insertFormat ?? 'node').toLowerCase();
  return {
    hostname: get('hostname', ''),
    port: Number(get('port', '8443')),
    database: get('database', 'default'),
    username: get('username', 'default'),
    password: (config.password ?? '').trim(),
    // The constructor reads ssl with "false" as its default, unlike the ConfigDef's true.
    ssl: bool('ssl'),
    exactlyOnce: bool('exactlyOnce'),
    clickhouseSettings: { ...CONNECTOR_SETTINGS, ...pairs(config.clickhouseSettings ?? '') },
    topic2Table: pairs(config.topic2TableMap ?? ''),
    keeperOnCluster: config.keeperOnCluster ?? '',
    zkPath: config.zkPath ?? '/kafka-connect',
    zkDatabase: config.zkDatabase ?? 'connect_state',
    enableDbTopicSplit: bool('enableDbTopicSplit'),
    dbTopicSplitChar: config.dbTopicSplitChar ?? '',
    suppressTableExistenceException: bool('suppressTableExistenceException'),
    tolerateStateMismatch: bool('tolerateStateMismatch'),
    bypassFieldCleanup: bool('bypassFieldCleanup'),
    ignorePartitionsWhenBatching: bool('ignorePartitionsWhenBatching'),
    insertFormat: format === 'none' ? 'NONE' : format === 'csv' ? 'CSV' : format === 'tsv' ? 'TSV' : 'JSON',
    retryTimeoutSec: Number(get('errors.retry.timeout', '60')),
    errorsTolerance: get('errors.tolerance', 'none').toLowerCase() === 'all' ? 'all' : 'none',
    maxPollRecords: positive('consumer.override.max.poll.records', 500),
    maxPartitionFetchBytes: positive('consumer.override.max.partition.fetch.bytes', 1048576),
    topics: get('topics', '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  };
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * What ConfigDef.validate reports for the connector's own keys: parse errors by type, then the
 * validators (NonEmptyString, Range, ZKPathValidator). The connector's validate adds nothing
 * (ClickHouseSinkConnector.validate returns super.validate); the framework keys (topics,
 * errors.tolerance) are the worker's to check.
 */
export function validateSinkConfig(config: ConnectorConfig): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const invalid = (k: string, v: string, m: string) => add(k, `Invalid value ${v} for configuration ${k}: ${m}`);
  for (const d of SINK_CONFIG_DEFS) {
    const raw = config[d.name];
    if (d.name === 'errors.retry.timeout' || d.name === 'errors.tolerance') continue;
    if (raw === undefined) {
      if (d.required) add(d.name, `Missing required configuration "${d.name}" which has no default value.`);
      continue;
    }
    const v = raw.trim();
    if (d.type === 'BOOLEAN' && !/^(true|false)$/i.test(v)) invalid(d.name, raw, 'Expected value to be either true or false');
    if (d.type === 'INT' || d.type === 'LONG') {
      const n = /^[-+]?\d+$/.test(v) ? Number(v) : NaN;
      if (Number.isNaN(n) || (d.type === 'INT' && (n < INT32.min || n > INT32.max))) {
        invalid(d.name, raw, `Not a number of type ${d.type}`);
        continue;
      }
      const range = RANGES[d.name];
      if (range && n < range[0]) invalid(d.name, String(n), `Value must be at least ${range[0]}`);
      else if (range && n > range[1]) invalid(d.name, String(n), `Value must be no more than ${range[1]}`);
    }
    if (d.name === 'hostname' && v === '') invalid(d.name, v, 'String must be non-empty');
    // ZKPathValidator throws a bare ConfigException, so its text comes without the "Invalid value" prefix.
    if (d.name === 'zkPath' && (v === '' || !v.startsWith('/'))) add(d.name, 'zkPath cannot be empty and must begin with a forward slash');
  }
  return errors;
}

const RANGES: Record<string, [number, number]> = {
  port: [1, 65535],
  timeoutSeconds: [0, 600],
  retryCount: [3, 10],
  tableRefreshInterval: [0, 600],
};
