/**
 * org.apache.kafka.connect.transforms.HeaderFrom$Key / $Value (Kafka 3.9): copies or moves the
 * listed fields into headers (`headers`, in the same order). Header values are written as
 * SimpleHeaderConverter writes them (see header-text.ts).
 */
import { ConnectException, type ConnectHeader, type ConnectRecord, type Schema } from '../plugin.js';
import { headerText } from '../converters/header-text.js';
import { ConfigException, key, NO_DEFAULT, nonEmptyList, replaceNullWithDefaultKey, validString } from './config-def.js';
import { copyMap, copySchemaBasics, findField, own, requireMap, requireStruct, structGet, type Side } from './connect-data.js';
import { keyValueTransforms, transformation } from './kafka-plugin.js';

const SPECS = [
  key('fields', 'LIST', NO_DEFAULT, 'HIGH', 'Field names in the record whose values are to be copied or moved to headers.', nonEmptyList),
  key('headers', 'LIST', NO_DEFAULT, 'HIGH', 'Header names, in the same order as the field names listed in the fields configuration property.', nonEmptyList),
  key(
    'operation',
    'STRING',
    NO_DEFAULT,
    'HIGH',
    'Either <code>move</code> if the fields are to be moved to the headers (removed from the key/value), or <code>copy</code> if the fields are to be copied to the headers (retained in the key/value).',
    validString('move', 'copy'),
  ),
  replaceNullWithDefaultKey(),
];

export const [headerFromKeyPlugin, headerFromValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.HeaderFrom', SPECS, (c, side: Side) => {
  const fields = c.fields as string[];
  const headers = c.headers as string[];
  if (headers.length !== fields.length) throw new ConfigException("'fields' config must have the same number of elements as 'headers' config.");
  const operation = c.operation as 'move' | 'copy';
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  const purpose = 'header ' + operation;
  const cache = new WeakMap<Schema, Schema>();
  return transformation((record: ConnectRecord) => {
    const schema = side.schema(record);
    const updatedHeaders: ConnectHeader[] = [...(record.headers ?? [])];
    if (!schema) {
      const value = requireMap(side.value(record), purpose);
      const updated = copyMap(value);
      fields.forEach((f, i) => {
        if (operation === 'move') delete updated[f];
        updatedHeaders.push({ key: headers[i]!, value: headerText(own(value, f) ?? null) });
      });
      return { ...side.with(record, null, updated), headers: updatedHeaders };
    }
    const value = requireStruct(side.value(record), schema, purpose);
    let updatedSchema = schema;
    let updatedValue = value;
    if (operation === 'move') {
      updatedSchema = cache.get(schema) ?? { ...copySchemaBasics(schema), fields: (schema.fields ?? []).filter((f) => !fields.includes(f.field!)) };
      cache.set(schema, updatedSchema);
      updatedValue = {};
      for (const f of updatedSchema.fields!) updatedValue[f.field!] = structGet(value, f, replaceNullWithDefault);
    }
    fields.forEach((f, i) => {
      const field = findField(schema, f);
      // operatingSchema.field(fieldName).schema() on a missing field is a NullPointerException in Kafka
      if (!field) throw new ConnectException(`Cannot invoke "org.apache.kafka.connect.data.Field.schema()" because the return value of "org.apache.kafka.connect.data.Schema.field(String)" is null`, 'java.lang.NullPointerException');
      updatedHeaders.push({ key: headers[i]!, value: headerText(structGet(value, field, replaceNullWithDefault)) });
    });
    return { ...side.with(record, updatedSchema, updatedValue), headers: updatedHeaders };
  });
});
