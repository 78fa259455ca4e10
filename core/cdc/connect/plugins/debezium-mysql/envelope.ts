/**
 * Debezium MySQL change events: key `{pk columns}` (schema `<prefix>.<db>.<table>.Key`) and the
 * envelope `{before, after, source, op, ts_ms, transaction}` (schema `….Envelope`), built from the
 * table definition. Field order and schema names follow Debezium 1.9's MySQL connector.
 */
import type { Schema } from '../../plugin.js';
import { columnConverter, columnSchema, type ColumnLike, type DecimalMode, type TypeModes } from './column-types.js';
import type { ColumnMapper } from './column-mappers.js';
import { binlogJsonText, parseMySqlJson } from '../../../source/mysql-json.js';

export const DEBEZIUM_VERSION = '1.9.8.Final';

export const SOURCE_SCHEMA: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.mysql.Source',
  fields: [
    { type: 'string', optional: false, field: 'version' },
    { type: 'string', optional: false, field: 'connector' },
    { type: 'string', optional: false, field: 'name' },
    { type: 'int64', optional: false, field: 'ts_ms' },
    { type: 'string', optional: true, name: 'io.debezium.data.Enum', version: 1, parameters: { allowed: 'true,last,false,incremental' }, default: 'false', field: 'snapshot' },
    { type: 'string', optional: false, field: 'db' },
    // the common source block of Debezium 1.9 (AbstractSourceInfoStructMaker); MySQL leaves it null
    { type: 'string', optional: true, field: 'sequence' },
    { type: 'string', optional: true, field: 'table' },
    { type: 'int64', optional: false, field: 'server_id' },
    { type: 'string', optional: true, field: 'gtid' },
    { type: 'string', optional: false, field: 'file' },
    { type: 'int64', optional: false, field: 'pos' },
    { type: 'int32', optional: false, field: 'row' },
    { type: 'int64', optional: true, field: 'thread' },
    { type: 'string', optional: true, field: 'query' },
  ],
};

const TRANSACTION_SCHEMA: Schema = {
  type: 'struct',
  optional: true,
  fields: [
    { type: 'string', optional: false, field: 'id' },
    { type: 'int64', optional: false, field: 'total_order' },
    { type: 'int64', optional: false, field: 'data_collection_order' },
  ],
};

/** A column of the key or the value: its definition, its field schema and its value converter. */
export interface FieldOf {
  col: ColumnLike;
  schema: Schema;
  convert: (v: unknown) => unknown;
}

export interface TableSchemas {
  /** The table's change topic, `<topic.prefix>.<db>.<table>`: one string for all its records (a router's cache finds it by its hash). */
  topic: string;
  keySchema: Schema | null;
  valueSchema: Schema;
  envelopeSchema: Schema;
  columns: FieldOf[];
  keyColumns: FieldOf[];
}

/** What the connector's filters make of a table: the columns kept in the value, and the key's columns. */
export interface TableShape {
  /** column.include.list / column.exclude.list: whether a column is in `before` and `after`. */
  includeColumn?: (name: string) => boolean;
  /** message.key.columns: the key's columns in table order, where the table has a match. */
  keyColumns?: string[];
  /** column.truncate / column.mask rules: the value's mapper of a column (keys are not mapped). */
  mapper?: (col: ColumnLike) => ColumnMapper | undefined;
}

export function tableSchemas(prefix: string, db: string, table: string, columns: ColumnLike[], primaryKey: string[], modes: TypeModes | DecimalMode, shape: TableShape = {}): TableSchemas {
  const all: FieldOf[] = columns.map((col) => {
    const schema = { ...columnSchema(col, modes), field: col.name };
    return { col, schema, convert: columnConverter(col, schema, modes) };
  });
  // TableSchemaBuilder.create: the key comes from all columns, the value only from those the filter keeps
  const kept = shape.includeColumn ? all.filter((c) => shape.includeColumn!(c.col.name)) : all;
  const cols = shape.mapper
    ? kept.map((c) => {
        const m = shape.mapper!(c.col);
        if (!m) return c;
        const mapped = m.convert;
        return { col: c.col, schema: m.alterSchema(c.schema), convert: mapped ? (v: unknown) => mapped(c.convert(v)) : c.convert };
      })
    : kept;
  const keyCols = (shape.keyColumns?.length ? shape.keyColumns : primaryKey).map((k) => all.find((c) => c.col.name === k)!).filter(Boolean);
  const base = `${prefix}.${db}.${table}`;
  const valueSchema: Schema = { type: 'struct', optional: true, name: `${base}.Value`, fields: cols.map((c) => c.schema) };
  // A primary key column is NOT NULL whatever its declaration says; message.key.columns may pick nullable ones.
  const keySchema: Schema | null = keyCols.length ? { type: 'struct', optional: false, name: `${base}.Key`, fields: keyCols.map((c) => ({ ...c.schema, optional: primaryKey.includes(c.col.name) ? false : c.schema.optional, default: undefined })) } : null;
  if (keySchema) for (const f of keySchema.fields!) delete f.default;
  const envelopeSchema: Schema = {
    type: 'struct',
    optional: false,
    name: `${base}.Envelope`,
    fields: [
      { ...valueSchema, field: 'before' },
      { ...valueSchema, field: 'after' },
      { ...SOURCE_SCHEMA, field: 'source' },
      { type: 'string', optional: false, field: 'op' },
      { type: 'int64', optional: true, field: 'ts_ms' },
      { ...TRANSACTION_SCHEMA, field: 'transaction' },
    ],
  };
  return { topic: base, keySchema, valueSchema, envelopeSchema, columns: cols, keyColumns: keyCols };
}

/**
 * A row image as the event's `before` or `after`. `fromBinlog`: a streamed change, whose JSON
 * columns Debezium reads from the binlog's binary JSON and writes without spaces
 * (JsonStringFormatter), and whose zero TIMESTAMPs are the epoch; a snapshot reads them through
 * JDBC as MySQL's text, as they are stored.
 */
export function rowValue(s: TableSchemas, row: Record<string, unknown> | null, fromBinlog = false): Record<string, unknown> | null {
  if (!row) return null;
  const out: Record<string, unknown> = {};
  for (const { col, convert } of s.columns) {
    const v = row[col.name];
    out[col.name] = convert(fromBinlog && typeof v === 'string' && BINLOG_TEXT_TYPES.has(col.baseType) ? binlogText(col.baseType, v) : v);
  }
  return out;
}

/**
 * A stored text as the binlog carries it: JSON in its binary form, and a zero TIMESTAMP as the
 * epoch second 0 it is there, which RowDeserializers.deserializeTimestamp reads as
 * 1970-01-01T00:00:00Z (a snapshot reads it as text, a zero date, and so null).
 */
const BINLOG_TEXT_TYPES = new Set(['json', 'timestamp']);

function binlogText(type: string, v: string): string {
  if (type === 'json') return binlogJson(v);
  return type === 'timestamp' && v.startsWith('0000-00-00') ? '1970-01-01 00:00:00' : v;
}

/** Stored JSON text as the binlog's; text an earlier version stored unchecked stays as it is. */
function binlogJson(text: string): string {
  try {
    return binlogJsonText(parseMySqlJson(text));
  } catch {
    return text;
  }
}

export function keyValue(s: TableSchemas, row: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!s.keySchema || !row) return null;
  const out: Record<string, unknown> = {};
  for (const { col, convert } of s.keyColumns) out[col.name] = convert(row[col.name]);
  return out;
}

export interface SourceInfoValue {
  version: string;
  connector: 'mysql';
  name: string;
  ts_ms: number;
  snapshot: 'true' | 'last' | 'false';
  db: string;
  sequence: null;
  table: string | null;
  server_id: number;
  gtid: string | null;
  file: string;
  pos: number;
  row: number;
  thread: number | null;
  query: string | null;
}
