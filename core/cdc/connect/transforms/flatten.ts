/**
 * org.apache.kafka.connect.transforms.Flatten$Value / $Key: nested structs or maps become one
 * level, names joined with `delimiter` (default "."). With a schema, a flattened field is
 * optional if it or any parent is optional; the struct keeps its name.
 */
import { DataException, type ConnectRecord, type Schema } from '../plugin.js';
import { def, type TransformPlugin, type Transformation } from './transformation.js';

function flattenSchemaless(value: Record<string, unknown>, prefix: string, delimiter: string, out: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(value)) {
    const name = prefix ? prefix + delimiter + k : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) flattenSchemaless(v as Record<string, unknown>, name, delimiter, out);
    else out[name] = v ?? null;
  }
}

/** True when flattening would copy every entry as it is: no nested map and no undefined value. */
function isFlat(value: Record<string, unknown>): boolean {
  for (const k in value) {
    if (k === '__proto__' || !Object.prototype.hasOwnProperty.call(value, k)) return false;
    const v = value[k];
    if (v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array))) return false;
  }
  return true;
}

function flattenSchema(schema: Schema, prefix: string, delimiter: string, optional: boolean, out: Schema[]): void {
  for (const f of schema.fields ?? []) {
    const name = prefix ? prefix + delimiter + f.field : f.field!;
    if (f.type === 'struct') flattenSchema(f, name, delimiter, optional || f.optional, out);
    else if (f.type === 'map' || f.type === 'array') throw new DataException(`Flatten transformation does not support ${f.type.toUpperCase()} for record with schemas (for field ${name}).`);
    else out.push({ ...f, field: name, optional: optional || f.optional });
  }
}

function flattenStruct(schema: Schema, value: Record<string, unknown> | null, prefix: string, delimiter: string, out: Record<string, unknown>): void {
  for (const f of schema.fields ?? []) {
    const name = prefix ? prefix + delimiter + f.field : f.field!;
    const v = value ? value[f.field!] : null;
    if (f.type === 'struct') flattenStruct(f, (v as Record<string, unknown> | null) ?? null, name, delimiter, out);
    else out[name] = v ?? null;
  }
}

function make(isKey: boolean): TransformPlugin {
  return {
    class: `org.apache.kafka.connect.transforms.Flatten$${isKey ? 'Key' : 'Value'}`,
    version: '3.9.0',
    configDefs: [def('delimiter', 'STRING', '.', 'MEDIUM', 'Delimiter to insert between field names from the input record when generating field names for the output record')],
    validate: () => ({}),
    create(config): Transformation {
      const delimiter = config.delimiter ?? '.';
      return {
        apply<R extends ConnectRecord>(record: R): R | null {
          const schema = isKey ? record.keySchema : record.valueSchema;
          const value = isKey ? record.key : record.value;
          if (value === null || value === undefined) return record;
          let newSchema: Schema | null = schema;
          let newValue: unknown;
          if (schema) {
            if (schema.type !== 'struct') return record;
            const fields: Schema[] = [];
            flattenSchema(schema, '', delimiter, false, fields);
            newSchema = { ...schema, fields };
            const out: Record<string, unknown> = {};
            flattenStruct(schema, value as Record<string, unknown>, '', delimiter, out);
            newValue = out;
          } else {
            if (typeof value !== 'object' || Array.isArray(value)) {
              throw new DataException(`Only Map objects supported in absence of schema for [flattening], found: ${Array.isArray(value) ? 'java.util.ArrayList' : 'java.lang.' + (typeof value === 'string' ? 'String' : typeof value === 'number' || typeof value === 'bigint' ? 'Long' : 'Boolean')}`);
            }
            // A map with nothing nested flattens to an equal map: the record passes as it is
            // (the value is never changed in place, so sharing it is safe).
            if (isFlat(value as Record<string, unknown>)) return record;
            const out: Record<string, unknown> = {};
            flattenSchemaless(value as Record<string, unknown>, '', delimiter, out);
            newValue = out;
          }
          return isKey ? { ...record, keySchema: newSchema, key: newValue } : { ...record, valueSchema: newSchema, value: newValue };
        },
      };
    },
  };
}

export const flattenValuePlugin = make(false);
export const flattenKeyPlugin = make(true);
