/**
 * org.apache.kafka.connect.transforms.HoistField$Key / $Value (Kafka 3.9): wraps the key or value
 * in a struct (with a schema) or map (without) under `field`.
 */
import type { ConnectRecord, Schema } from '../plugin.js';
import { key, NO_DEFAULT } from './config-def.js';
import { asField, checkPut, putEntry, type Side } from './connect-data.js';
import { keyValueTransforms, transformation } from './kafka-plugin.js';

const SPECS = [key('field', 'STRING', NO_DEFAULT, 'MEDIUM', 'Field name for the single field that will be created in the resulting Struct or Map.')];

export const [hoistFieldKeyPlugin, hoistFieldValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.HoistField', SPECS, (c, side: Side) => {
  const name = c.field as string;
  const cache = new WeakMap<Schema, Schema>();
  return transformation((record: ConnectRecord) => {
    const schema = side.schema(record);
    const value = side.value(record);
    if (!schema) {
      const updated: Record<string, unknown> = {};
      putEntry(updated, name, value ?? null);
      return side.with(record, null, updated);
    }
    let updatedSchema = cache.get(schema);
    if (!updatedSchema) {
      updatedSchema = { type: 'struct', optional: false, fields: [asField(name, schema)] };
      cache.set(schema, updatedSchema);
    }
    const updated: Record<string, unknown> = {};
    putEntry(updated, name, checkPut(updatedSchema.fields![0]!, value));
    return side.with(record, updatedSchema, updated);
  });
});
