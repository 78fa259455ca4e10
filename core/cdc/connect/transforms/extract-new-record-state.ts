/**
 * io.debezium.transforms.ExtractNewRecordState ("unwrap"): the Debezium envelope becomes the flat
 * row. Creates, updates and snapshot reads give `after`; deletes and tombstones follow
 *  - Debezium 2.5+ `delete.tombstone.handling.mode` (when set): drop | tombstone (default) |
 *    rewrite | rewrite-with-tombstone | delete-to-tombstone;
 *  - otherwise the older `delete.handling.mode` (drop (default) | none | rewrite) together with
 *    `drop.tombstones` (default true).
 * rewrite: a delete becomes its `before` row plus `__deleted: "true"`, other rows get "false".
 * `add.fields` (e.g. `op,table,source.ts_ms`) appends `__op`, `__table`, `__source_ts_ms`.
 */
import type { ConnectRecord, Schema } from '../plugin.js';
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

function fieldOf(schema: Schema | null, name: string): Schema | undefined {
  return schema?.fields?.find((f) => f.field === name);
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
    const prefix = config['add.fields.prefix'] ?? '__';
    const addFields = (config['add.fields'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((spec) => {
        const [path, rename] = spec.split(':');
        const given = path!.split('.');
        // Debezium's FieldReference: a bare name is an envelope field (op, ts_ms, …) or else a source field.
        const parts = given.length === 1 && !['op', 'ts_ms', 'before', 'after', 'transaction'].includes(given[0]!) ? ['source', given[0]!] : given;
        return { parts, name: rename ?? prefix + given.join('_') };
      });
    // The flattened schema depends only on the envelope schema and which row is taken: built once
    // per envelope schema (the source task reuses one per table version), not per record.
    const schemaCache = new WeakMap<Schema, { before?: Schema; after?: Schema }>();
    const envelopes = new WeakMap<Schema, boolean>();
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
      const extra: Schema[] = [];
      for (const f of addFields) {
        let s: Schema | undefined = schema;
        for (const p of f.parts) s = fieldOf(s ?? null, p);
        extra.push({ ...(s ?? { type: 'string' }), field: f.name, optional: true, default: undefined });
      }
      if (b.rewriteAll) extra.push({ type: 'string', optional: true, field: '__deleted' });
      const { field: _f, ...base } = fieldOf(schema, side)!;
      void _f;
      const built: Schema = extra.length ? { type: 'struct', fields: [...(base.fields ?? []), ...extra], optional: false, name: base.name, ...(base.version !== undefined ? { version: base.version } : {}) } : { ...base };
      entry[side] = built;
      return built;
    };
    return {
      apply<R extends ConnectRecord>(record: R): R | null {
        if (record.value === null || record.value === undefined) return b.keepTombstones ? record : null;
        const schema = record.valueSchema;
        const env = record.value as Record<string, unknown>;
        if (!schema || !isEnvelope(schema)) return record; // not a Debezium envelope
        const op = env.op as string;
        let row: Record<string, unknown>;
        if (op === 'd') {
          if (b.onDelete === 'drop') return null;
          if (b.onDelete === 'tombstone') return { ...record, valueSchema: null, value: null };
          row = { ...((env.before as Record<string, unknown>) ?? {}) };
        } else {
          row = { ...((env.after as Record<string, unknown>) ?? {}) };
        }
        for (const f of addFields) {
          let v: unknown = env;
          for (const p of f.parts) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
          row[f.name] = v ?? null;
        }
        if (b.rewriteAll) row.__deleted = op === 'd' ? 'true' : 'false';
        return { ...record, valueSchema: rowSchemaOf(schema, op === 'd' ? 'before' : 'after'), value: row };
      },
    };
  },
};
