/**
 * io.debezium.transforms.ExtractNewRecordState ("unwrap"): the Debezium envelope becomes the flat
 * row. Creates, updates and snapshot reads give `after`; deletes and tombstones follow
 *  - Debezium 2.5+ `delete.tombstone.handling.mode` (when set): drop | tombstone (default) |
 *    rewrite | rewrite-with-tombstone | delete-to-tombstone;
 *  - otherwise the older `delete.handling.mode` (drop (default) | none | rewrite) together with
 *    `drop.tombstones` (default true).
 * rewrite: a delete becomes its `before` row plus `__deleted: "true"`, other rows get "false".
 * `add.fields` (e.g. `op,table,source.ts_ms`) appends `__op`, `__table`, `__source_ts_ms`;
 * `add.headers` adds the same as headers; `route.by.field` names a column of the row whose value
 * becomes the topic.
 */
import { ConnectException, DataException, type ConnectRecord, type Schema } from '../plugin.js';
import { headerText } from '../converters/header-text.js';
import { def, type TransformPlugin, type Transformation } from './transformation.js';

export const EXTRACT_NEW_RECORD_STATE_CLASS = 'io.debezium.transforms.ExtractNewRecordState';

type Mode = 'drop' | 'tombstone' | 'rewrite' | 'rewrite-with-tombstone' | 'delete-to-tombstone' | 'none';
const NEW_MODES = ['drop', 'tombstone', 'rewrite', 'rewrite-with-tombstone', 'delete-to-tombstone'];
const OLD_MODES = ['drop', 'rewrite', 'none'];

interface Behaviour {
  /** What a delete event becomes. */
  onDelete: 'drop' | 'tombstone' | 'rewrite';
  keepTombstones: boolean;
  rewriteAll: boolean;
}

export function behaviourOf(config: Record<string, string>): Behaviour {
  const modern = config['delete.tombstone.handling.mode'];
  if (modern !== undefined) {
    const m = modern.trim().toLowerCase() as Mode;
    switch (m) {
      case 'drop':
        return { onDelete: 'drop', keepTombstones: false, rewriteAll: false };
      case 'rewrite':
        return { onDelete: 'rewrite', keepTombstones: false, rewriteAll: true };
      case 'rewrite-with-tombstone':
        return { onDelete: 'rewrite', keepTombstones: true, rewriteAll: true };
      case 'delete-to-tombstone':
        return { onDelete: 'tombstone', keepTombstones: false, rewriteAll: false };
      default:
        // tombstone: delete events are removed, the tombstones that follow them are kept
        return { onDelete: 'drop', keepTombstones: true, rewriteAll: false };
    }
  }
  const legacy = (config['delete.handling.mode'] ?? 'drop').trim().toLowerCase();
  const keepTombstones = (config['drop.tombstones'] ?? 'true').trim().toLowerCase() === 'false';
  if (legacy === 'rewrite') return { onDelete: 'rewrite', keepTombstones, rewriteAll: true };
  if (legacy === 'none') return { onDelete: 'tombstone', keepTombstones, rewriteAll: false };
  return { onDelete: 'drop', keepTombstones, rewriteAll: false };
}

/**
 * A shallow copy that takes further fields cheaply: V8 gives a spread copy (`{ ...row }`) a map
 * with no transitions, so adding `__deleted` to it cost 1.5 µs per record against 0.2 µs here.
 */
function copyOf(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in row) out[k] = row[k];
  return out;
}

function fieldOf(schema: Schema | null, name: string): Schema | undefined {
  return schema?.fields?.find((f) => f.field === name);
}

/**
 * Debezium's FieldReference (ExtractNewRecordState at tag v1.9.8.Final): `op` and `ts_ms` are
 * envelope fields, `id`, `total_order` and `data_collection_order` belong to `transaction`, any
 * other bare name to `source`; `struct.field` names both. The new name is the prefix plus
 * `field` (bare) or `struct_field`, or the prefix plus the name after a colon.
 */
interface FieldReference {
  field: string;
  name: string;
  value(envelope: Record<string, unknown>): unknown;
  /** The field's schema made optional; throws for a field the envelope does not have. */
  schema(envelope: Schema): Schema;
}

function fieldReferences(prefix: string, list: string): FieldReference[] {
  if (!list) return [];
  return list.split(',').map((spec) => {
    const s = spec.trim();
    const parts = javaSplit(s, ':');
    const splits = javaSplit(parts[0] ?? '', '.');
    const field = (splits.length === 1 ? splits[0] : splits[1]) ?? '';
    const struct = splits.length === 1 ? structOf(field) : splits[0]!;
    if (parts.length > 2) throw new ConnectException(`Unexpected field name: ${s}`);
    const name = parts.length === 2 ? prefix + parts[1] : prefix + (splits.length === 1 ? field : `${struct}_${field}`);
    return {
      field,
      name,
      value(env) {
        const parent = struct === null ? env : (env[struct] as Record<string, unknown> | null | undefined);
        return parent ? (parent[field] ?? null) : null;
      },
      schema(envSchema) {
        const parent = struct === null ? envSchema : fieldOf(envSchema, struct);
        const f = fieldOf(parent ?? null, field);
        if (!f) throw new ConnectException(`Unexpected field name: ${field}`);
        // SchemaUtil.copySchemaBasics: type, name, version, doc and parameters; no default
        const { field: _f, default: _d, fields: _fs, ...basics } = f;
        void _f;
        void _d;
        void _fs;
        return { ...basics, optional: true };
      },
    };
  });
}

function structOf(field: string): string | null {
  if (field === 'op' || field === 'ts_ms') return null;
  if (field === 'id' || field === 'total_order' || field === 'data_collection_order') return 'transaction';
  return 'source';
}

/** Java's String.split: trailing empty strings are dropped. */
function javaSplit(s: string, sep: string): string[] {
  const out = s.split(sep);
  while (out.length > 1 && out[out.length - 1] === '') out.pop();
  return out;
}

export const extractNewRecordStatePlugin: TransformPlugin = {
  class: EXTRACT_NEW_RECORD_STATE_CLASS,
  version: '1.9.8.Final',
  configDefs: [
    def('delete.handling.mode', 'STRING', 'drop', 'MEDIUM', 'How to handle delete records. Options are: none - records are passed, drop - records are removed (the default), rewrite - __deleted field is added to records.', { recommended: OLD_MODES }),
    def('delete.tombstone.handling.mode', 'STRING', 'tombstone', 'MEDIUM', 'How to handle delete and tombstone records: drop, tombstone, rewrite, rewrite-with-tombstone, delete-to-tombstone.', { recommended: NEW_MODES }),
    def('drop.tombstones', 'BOOLEAN', 'true', 'LOW', 'Debezium by default generates a tombstone record to enable Kafka compaction after a delete record was generated. This record is usually filtered out to avoid duplicates as a delete record is converted to a tombstone record, too'),
    def('add.fields', 'LIST', '', 'LOW', 'Adds each field listed, prefixed with __ (or __<struct>_ if the struct is specified). Example: \'version,connector,source.ts_ms\' would add __version, __connector and __source_ts_ms fields. Optionally one can also map new field name like version:VERSION,connector:CONNECTOR,source.ts_ms:EVENT_TIMESTAMP.'),
    def('add.fields.prefix', 'STRING', '__', 'LOW', 'Adds this prefix to each field listed.'),
    def('add.headers', 'LIST', '', 'LOW', 'Adds each field listed to the header, __ (or __<struct>_ if the struct is specified).'),
    def('add.headers.prefix', 'STRING', '__', 'LOW', 'Adds this prefix listed to each header.'),
    def('route.by.field', 'STRING', '', 'LOW', 'The column which determines how the events will be routed, the value will replace the topic name.'),
  ],
  validate(config) {
    const errors: Record<string, string[]> = {};
    const m = config['delete.tombstone.handling.mode'];
    if (m !== undefined && !NEW_MODES.includes(m.trim().toLowerCase())) {
      errors['delete.tombstone.handling.mode'] = [`Invalid value ${m} for configuration delete.tombstone.handling.mode: Value must be one of ${NEW_MODES.join(', ')}`];
    }
    const l = config['delete.handling.mode'];
    if (l !== undefined && !OLD_MODES.includes(l.trim().toLowerCase())) {
      errors['delete.handling.mode'] = [`Invalid value ${l} for configuration delete.handling.mode: Value must be one of ${OLD_MODES.join(', ')}`];
    }
    const d = config['drop.tombstones'];
    if (d !== undefined && !/^(true|false)$/i.test(d.trim())) errors['drop.tombstones'] = [`Invalid value ${d} for configuration drop.tombstones: Expected value to be either true or false`];
    return errors;
  },
  create(config): Transformation {
    const b = behaviourOf(config);
    const addFields = fieldReferences(config['add.fields.prefix'] ?? '__', config['add.fields'] ?? '');
    const addHeaders = fieldReferences(config['add.headers.prefix'] ?? '__', config['add.headers'] ?? '');
    const routeByField = config['route.by.field'] || null;
    // The flattened schema depends only on the envelope schema and which row is taken: built once
    // per envelope schema (the source task reuses one per table version), not per record.
    const schemaCache = new WeakMap<Schema, { before?: Schema; after?: Schema }>();
    const envelopes = new WeakMap<Schema, boolean>();
    const headerChecked = new WeakSet<Schema>();
    const isEnvelope = (schema: Schema): boolean => {
      let yes = envelopes.get(schema);
      if (yes === undefined) envelopes.set(schema, (yes = schema.type === 'struct' && !!fieldOf(schema, 'op') && !!fieldOf(schema, 'after')));
      return yes;
    };
    const rowSchemaOf = (schema: Schema, side: 'before' | 'after'): Schema => {
      let entry = schemaCache.get(schema);
      if (!entry) schemaCache.set(schema, (entry = {}));
      const cached = entry[side];
      if (cached) return cached;
      const extra: Schema[] = addFields.map((f) => ({ ...f.schema(schema), field: f.name }));
      if (b.rewriteAll) extra.push({ type: 'string', optional: true, field: '__deleted' });
      const { field: _f, ...base } = fieldOf(schema, side)!;
      void _f;
      const built: Schema = extra.length ? { type: 'struct', fields: [...(base.fields ?? []), ...extra], optional: false, name: base.name, ...(base.version !== undefined ? { version: base.version } : {}) } : { ...base };
      entry[side] = built;
      return built;
    };
    /** Struct.getString of the routing field: the row's value names the topic; null keeps it. */
    const routedTopic = (rowSchema: Schema, row: Record<string, unknown>, topic: string): string => {
      const f = fieldOf(rowSchema, routeByField!);
      if (!f) throw new DataException(`${routeByField} is not a valid field name`);
      if (f.type !== 'string') throw new DataException(`Field '${routeByField}' is not of type STRING`);
      const v = row[routeByField!];
      return typeof v === 'string' ? v : topic;
    };
    return {
      apply<R extends ConnectRecord>(record: R): R | null {
        if (record.value === null || record.value === undefined) {
          if (!b.keepTombstones) return null;
          // A tombstone has no envelope to read: only `op` becomes a header, as "d".
          const ops = addHeaders.filter((h) => h.field === 'op');
          return ops.length ? { ...record, headers: [...(record.headers ?? []), ...ops.map((h) => ({ key: h.name, value: 'd' }))] } : record;
        }
        const schema = record.valueSchema;
        const env = record.value as Record<string, unknown>;
        if (!schema || !isEnvelope(schema)) return record; // not a Debezium envelope
        if (addHeaders.length) {
          // an unknown field fails here, as in Debezium; checked once per envelope schema
          if (!headerChecked.has(schema)) {
            for (const h of addHeaders) h.schema(schema);
            headerChecked.add(schema);
          }
          record = { ...record, headers: [...(record.headers ?? []), ...addHeaders.map((h) => ({ key: h.name, value: headerText(h.value(env)) }))] };
        }
        const op = env.op as string;
        let row: Record<string, unknown>;
        let topic = record.topic;
        if (op === 'd') {
          const before = (env.before as Record<string, unknown>) ?? {};
          // Debezium 1.9.8 routes the unwrapped record, but a rewritten delete is rebuilt from the
          // original one, so only a delete kept as a null value lands on the routed topic.
          const routed = routeByField === null ? topic : routedTopic(fieldOf(schema, 'before')!, before, topic);
          if (b.onDelete === 'drop') return null;
          if (b.onDelete === 'tombstone') return { ...record, topic: routed, valueSchema: null, value: null };
          row = copyOf(before);
        } else {
          row = copyOf((env.after as Record<string, unknown>) ?? {});
          if (routeByField !== null) topic = routedTopic(fieldOf(schema, 'after')!, row, topic);
        }
        for (const f of addFields) row[f.name] = f.value(env);
        if (b.rewriteAll) row.__deleted = op === 'd' ? 'true' : 'false';
        return { ...record, topic, valueSchema: rowSchemaOf(schema, op === 'd' ? 'before' : 'after'), value: row };
      },
    };
  },
};
