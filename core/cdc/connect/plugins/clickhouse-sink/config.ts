/**
 * Configuration of the ClickHouse sink (com.clickhouse.kafka.connect.ClickHouseSinkConnector):
 * its keys with the defaults the real connector documents, parsed once into one typed object.
 */
import { configKey, type ConfigKeyDef, type ConnectorConfig, type ValidationErrors } from '../../plugin.js';

export interface SinkConfig {
  hostname: string;
  port: number;
  database: string;
  username: string;
  password: string;
  ssl: boolean;
  exactlyOnce: boolean;
  /** From `clickhouseSettings` (comma list of k=v). */
  clickhouseSettings: Record<string, string>;
  /** From `topic2TableMap` (comma list of topic=table). */
  topic2Table: Record<string, string>;
  keeperOnCluster: string;
  /** Seconds to keep retrying a failing insert (`errors.retry.timeout`). */
  retryTimeoutSec: number;
  errorsTolerance: 'none' | 'all';
  /** `consumer.override.max.poll.records` — the largest block the sink inserts at once. */
  maxPollRecords: number;
  /** `consumer.override.max.partition.fetch.bytes`. */
  maxPartitionFetchBytes: number;
  topics: string[];
}

let order = 0;
const def = (name: string, type: ConfigKeyDef['type'], defaultValue: string | null, importance: ConfigKeyDef['importance'], doc: string, display: string, recommended?: string[]): ConfigKeyDef =>
  configKey(name, type, defaultValue, importance, doc, 'Connection', ++order, { display_name: display, ...(recommended ? { recommended } : {}) });

export const SINK_CONFIG_DEFS: readonly ConfigKeyDef[] = [
  def('hostname', 'STRING', null, 'HIGH', 'hostname', 'ClickHouse Hostname'),
  def('port', 'INT', '8443', 'HIGH', 'port', 'ClickHouse Port'),
  def('database', 'STRING', 'default', 'HIGH', 'database', 'ClickHouse Database'),
  def('username', 'STRING', 'default', 'HIGH', 'username', 'ClickHouse Username'),
  def('password', 'PASSWORD', '', 'LOW', 'password', 'ClickHouse Password'),
  def('ssl', 'BOOLEAN', 'true', 'LOW', 'enable SSL', 'Enable SSL', ['true', 'false']),
  def('exactlyOnce', 'BOOLEAN', 'false', 'LOW', 'enable exactly once semantics', 'Enable exactly once semantics', ['true', 'false']),
  def('clickhouseSettings', 'LIST', '', 'LOW', 'A comma-separated list of ClickHouse settings to be appended to the JDBC URL', 'ClickHouse Settings'),
  def('topic2TableMap', 'STRING', '', 'LOW', 'Map of topics to tables (optional). Format : comma-separated tuples, e.g. <topic-1>=<table-1>,<topic-2>=<table-2>,... ', 'Topic to table map'),
  def('keeperOnCluster', 'STRING', '', 'LOW', 'Enable ON CLUSTER for KeeperMap state table creation', 'Keeper on cluster'),
  def('errors.retry.timeout', 'LONG', '60', 'LOW', 'ClickHouse JDBC Retry Timeout (seconds)', 'ClickHouse JDBC Retry Timeout'),
  def('errors.tolerance', 'STRING', 'none', 'LOW', 'Behavior for tolerating errors during connector operation. none or all', 'Error Tolerance', ['none', 'all']),
];

const BOOL = /^(true|false)$/i;

export function parseSinkConfig(config: ConnectorConfig): SinkConfig {
  const get = (k: string, d: string) => (config[k] ?? '').trim() || d;
  const pairs = (s: string) =>
    Object.fromEntries(
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => {
          const i = p.indexOf('=');
          return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
        }),
    );
  return {
    hostname: get('hostname', ''),
    port: Number(get('port', '8443')),
    database: get('database', 'default'),
    username: get('username', 'default'),
    password: config.password ?? '',
    ssl: get('ssl', 'true').toLowerCase() === 'true',
    exactlyOnce: get('exactlyOnce', 'false').toLowerCase() === 'true',
    clickhouseSettings: pairs(config.clickhouseSettings ?? ''),
    topic2Table: pairs(config.topic2TableMap ?? ''),
    keeperOnCluster: get('keeperOnCluster', ''),
    retryTimeoutSec: Number(get('errors.retry.timeout', '60')),
    errorsTolerance: get('errors.tolerance', 'none').toLowerCase() === 'all' ? 'all' : 'none',
    maxPollRecords: Number(get('consumer.override.max.poll.records', '500')),
    maxPartitionFetchBytes: Number(get('consumer.override.max.partition.fetch.bytes', '1048576')),
    topics: get('topics', '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  };
}

/** Per-key messages, worded as Kafka Connect's ConfigDef validators word them. */
export function validateSinkConfig(config: ConnectorConfig): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (!config.hostname?.trim()) add('hostname', 'Missing required configuration "hostname" which has no default value.');
  const intKey = (k: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
    const v = config[k];
    if (v === undefined || v.trim() === '') return;
    if (!/^-?\d+$/.test(v.trim())) add(k, `Invalid value ${v} for configuration ${k}: Not a number of type ${k === 'port' ? 'INT' : 'LONG'}`);
    else if (Number(v) < min || Number(v) > max) add(k, `Invalid value ${v} for configuration ${k}: Value must be ${Number(v) < min ? `at least ${min}` : `no more than ${max}`}`);
  };
  intKey('port', 1, 65535);
  intKey('errors.retry.timeout', 0);
  intKey('consumer.override.max.poll.records', 1);
  intKey('consumer.override.max.partition.fetch.bytes', 1);
  for (const k of ['ssl', 'exactlyOnce']) {
    const v = config[k];
    if (v !== undefined && v.trim() !== '' && !BOOL.test(v.trim())) add(k, `Invalid value ${v} for configuration ${k}: Expected value to be either true or false`);
  }
  const tol = config['errors.tolerance'];
  if (tol !== undefined && !/^(none|all)$/i.test(tol.trim())) add('errors.tolerance', `Invalid value ${tol} for configuration errors.tolerance: String must be one of (case insensitive): NONE, ALL`);
  for (const [k, label] of [
    ['clickhouseSettings', 'setting'],
    ['topic2TableMap', 'topic=table pair'],
  ] as const) {
    const v = config[k] ?? '';
    for (const p of v.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!/^[^=]+=.*$/.test(p)) add(k, `Invalid value ${v} for configuration ${k}: "${p}" is not a ${label} of the form key=value`);
    }
  }
  if (!config.topics?.trim() && !config['topics.regex']?.trim()) add('topics', 'Must configure one of topics or topics.regex');
  return errors;
}
