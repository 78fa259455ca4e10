/**
 * org.apache.kafka.connect.transforms.SetSchemaMetadata$Key / $Value (Kafka 3.9): sets the
 * schema's name and/or version; a struct is rebuilt on the new schema.
 */
import type { ConnectRecord, Schema } from '../plugin.js';
import { ConfigException, key, replaceNullWithDefaultKey } from './config-def.js';
import { isMapValue, requireSchema, structGet, type Side } from './connect-data.js';
import { keyValueTransforms, transformation } from './kafka-plugin.js';

const SPECS = [key('schema.name', 'STRING', null, 'HIGH', 'Schema name to set.'), key('schema.version', 'INT', null, 'HIGH', 'Schema version to set.'), replaceNullWithDefaultKey()];

export const [setSchemaMetadataKeyPlugin, setSchemaMetadataValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.SetSchemaMetadata', SPECS, (c, side: Side) => {
  const schemaName = c['schema.name'] as string | null;
  const schemaVersion = c['schema.version'] as number | null;
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  if (schemaName === null && schemaVersion === null) throw new ConfigException('Neither schema name nor version configured');
  const cache = new WeakMap<Schema, Schema>();
  return transformation((record: ConnectRecord) => {
    const value = side.value(record);
    const schema0 = side.schema(record);
    if ((value === null || value === undefined) && !schema0) return record;
    const schema = requireSchema(schema0, 'updating schema metadata');
    let updated = cache.get(schema);
    if (!updated) {
      updated = { ...schema };
      if (schemaName !== null) updated.name = schemaName;
      if (schemaVersion !== null) updated.version = schemaVersion;
      cache.set(schema, updated);
    }
    // updateSchemaIn: only a Struct refers to its schema, so only a struct is copied
    let newValue = value;
    if (schema.type === 'struct' && isMapValue(value)) {
      const struct: Record<string, unknown> = {};
      for (const f of updated.fields ?? []) struct[f.field!] = structGet(value, f, replaceNullWithDefault);
      newValue = struct;
    }
    return side.with(record, updated, newValue);
  });
});
