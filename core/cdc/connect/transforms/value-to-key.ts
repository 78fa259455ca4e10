/**
 * org.apache.kafka.connect.transforms.ValueToKey (Kafka 3.9): the key becomes a struct (or map)
 * of the listed value fields. A null value is an error, as in Kafka (use a predicate to skip
 * tombstones).
 */
import { DataException, type ConnectRecord, type Schema } from '../plugin.js';
import { key, NO_DEFAULT, nonEmptyList, replaceNullWithDefaultKey } from './config-def.js';
import { asField, checkPut, findField, own, putEntry, requireMap, requireStruct, structGet } from './connect-data.js';
import { kafkaTransform, transformation } from './kafka-plugin.js';

const PURPOSE = 'copying fields from value to key';

const SPECS = [key('fields', 'LIST', NO_DEFAULT, 'HIGH', 'Field names on the record value to extract as the record key.', nonEmptyList), replaceNullWithDefaultKey()];

export const valueToKeyPlugin = kafkaTransform('org.apache.kafka.connect.transforms.ValueToKey', SPECS, (c) => {
  const fields = c.fields as string[];
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  const cache = new WeakMap<Schema, Schema>();
  return transformation((record: ConnectRecord) => {
    if (!record.valueSchema) {
      const value = requireMap(record.value, PURPOSE);
      const k: Record<string, unknown> = {};
      for (const f of fields) putEntry(k, f, own(value, f) ?? null);
      return { ...record, keySchema: null, key: k };
    }
    const schema = record.valueSchema;
    const value = requireStruct(record.value, schema, PURPOSE);
    let keySchema = cache.get(schema);
    if (!keySchema) {
      const keyFields: Schema[] = [];
      for (const f of fields) {
        const from = findField(schema, f);
        if (!from) throw new DataException('Field does not exist: ' + f);
        if (keyFields.some((k) => k.field === f)) throw new DataException(`Cannot create field because of field name duplication ${f}`);
        keyFields.push(asField(f, from));
      }
      keySchema = { type: 'struct', optional: false, fields: keyFields };
      cache.set(schema, keySchema);
    }
    const k: Record<string, unknown> = {};
    for (const f of keySchema.fields!) k[f.field!] = checkPut(f, structGet(value, findField(schema, f.field!)!, replaceNullWithDefault));
    return { ...record, keySchema, key: k };
  });
});
