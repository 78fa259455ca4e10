/**
 * The Debezium MySQL connector's configuration as the seed uses it (Debezium 1.x names) and the
 * 2.x names that replaced them: database.server.name → topic.prefix, *.whitelist/blacklist →
 * *.include.list/exclude.list, database.history.* → schema.history.internal.*.
 */
import { configKey, type ConfigKeyDef, type ConnectorConfig, type ValidationErrors } from '../../plugin.js';
import type { DecimalMode } from './column-types.js';

export const SNAPSHOT_MODES = ['initial', 'initial_only', 'when_needed', 'never', 'schema_only', 'schema_only_recovery', 'no_data', 'recovery', 'always'] as const;
export type SnapshotMode = (typeof SNAPSHOT_MODES)[number];

export interface MySqlConnectorConfig {
  hostname: string;
  port: number;
  serverId: number;
  topicPrefix: string;
  databaseInclude: RegExp[] | null;
  databaseExclude: RegExp[] | null;
  tableInclude: RegExp[] | null;
  tableExclude: RegExp[] | null;
  snapshotMode: SnapshotMode;
  decimalMode: DecimalMode;
  includeQuery: boolean;
  includeSchemaChanges: boolean;
  tombstonesOnDelete: boolean;
  maxBatchSize: number;
  pollIntervalMs: number;
}

const EMBEDDED_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function first(config: ConnectorConfig, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = config[k];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return undefined;
}

function regexList(v: string | undefined): RegExp[] | null {
  if (v === undefined) return null;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => new RegExp(`^(?:${s})$`, 'i'));
}

export function parseConfig(config: ConnectorConfig): MySqlConnectorConfig {
  return {
    hostname: config['database.hostname']!.trim(),
    port: Number(config['database.port'] ?? 3306),
    serverId: Number(config['database.server.id'] ?? 0),
    topicPrefix: first(config, 'topic.prefix', 'database.server.name')!,
    databaseInclude: regexList(first(config, 'database.include.list', 'database.whitelist')),
    databaseExclude: regexList(first(config, 'database.exclude.list', 'database.blacklist')),
    tableInclude: regexList(first(config, 'table.include.list', 'table.whitelist')),
    tableExclude: regexList(first(config, 'table.exclude.list', 'table.blacklist')),
    snapshotMode: (first(config, 'snapshot.mode') ?? 'initial').toLowerCase() as SnapshotMode,
    decimalMode: (first(config, 'decimal.handling.mode') ?? 'precise').toLowerCase() as DecimalMode,
    includeQuery: (first(config, 'include.query') ?? 'false').toLowerCase() === 'true',
    includeSchemaChanges: (first(config, 'include.schema.changes') ?? 'true').toLowerCase() !== 'false',
    tombstonesOnDelete: (first(config, 'tombstones.on.delete') ?? 'true').toLowerCase() !== 'false',
    maxBatchSize: Number(first(config, 'max.batch.size') ?? 2048),
    pollIntervalMs: Number(first(config, 'poll.interval.ms') ?? 500),
  };
}

const required = (name: string) => `The '${name}' value is invalid: A value is required`;

export function validateConfig(config: ConnectorConfig): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const host = config['database.hostname'];
  if (host === undefined || host.trim() === '') add('database.hostname', required('database.hostname'));
  else if (!EMBEDDED_HOSTS.has(host.trim().toLowerCase())) {
    add(
      'database.hostname',
      `The 'database.hostname' value is invalid: Loupe's embedded Kafka Connect captures changes only from its embedded source (localhost or 127.0.0.1), not from '${host.trim()}'. To capture from a real MySQL server, point Loupe at a real Kafka Connect with the Debezium MySQL connector (Settings → CDC → Kafka Connect URL).`,
    );
  }
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
  const dm = config['decimal.handling.mode'];
  if (dm !== undefined && !['precise', 'double', 'string'].includes(dm.trim().toLowerCase())) add('decimal.handling.mode', `The 'decimal.handling.mode' value '${dm}' is invalid: Value must be one of precise, double, string`);
  for (const k of ['database.include.list', 'database.whitelist', 'database.exclude.list', 'database.blacklist', 'table.include.list', 'table.whitelist', 'table.exclude.list', 'table.blacklist']) {
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
  if (first(config, 'database.include.list') && first(config, 'database.exclude.list')) add('database.exclude.list', 'Database include list is already specified, exclude list is not allowed');
  if (first(config, 'table.include.list') && first(config, 'table.exclude.list')) add('table.exclude.list', 'Table include list is already specified, exclude list is not allowed');
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
  d('decimal.handling.mode', 'STRING', 'precise', 'MEDIUM', "Specify how DECIMAL and NUMERIC columns should be represented in change events: 'precise' (the default, java.math.BigDecimal); 'string'; 'double'.", 'Connector', 6, { recommended: ['precise', 'string', 'double'] }),
  d('include.query', 'BOOLEAN', 'false', 'MEDIUM', 'Whether the connector should include the original SQL query that generated the change event.', 'Connector', 7),
  d('include.schema.changes', 'BOOLEAN', 'true', 'MEDIUM', 'Whether the connector should publish changes in the database schema to a Kafka topic with the same name as the database server ID (the topic prefix).', 'Connector', 8),
  d('tombstones.on.delete', 'BOOLEAN', 'true', 'MEDIUM', 'Whether delete operations should be represented by a delete event and a subsequent tombstone event (true) or only by a delete event (false).', 'Connector', 8),
  d('max.batch.size', 'INT', '2048', 'MEDIUM', 'Maximum size of each batch of source records.', 'Connector', 9),
  d('poll.interval.ms', 'LONG', '500', 'MEDIUM', 'Time to wait for new change events to appear after receiving no events, given in milliseconds.', 'Connector', 10),
  d('database.history.kafka.bootstrap.servers', 'STRING', null, 'HIGH', 'Debezium 1.x schema history brokers; accepted (Loupe keeps schema history in its embedded source).', 'History Storage', 0),
  d('database.history.kafka.topic', 'STRING', null, 'HIGH', 'Debezium 1.x schema history topic; accepted.', 'History Storage', 1),
  d('schema.history.internal.kafka.bootstrap.servers', 'STRING', null, 'HIGH', 'Schema history brokers (Debezium 2.x); accepted.', 'History Storage', 2),
  d('schema.history.internal.kafka.topic', 'STRING', null, 'HIGH', 'Schema history topic (Debezium 2.x); accepted.', 'History Storage', 3),
  d('database.serverTimezone', 'STRING', null, 'LOW', 'JDBC driver time zone; DATETIME values carry no zone and are emitted as if UTC, as Debezium does.', 'Connection', 5),
];
