/**
 * org.apache.kafka.connect.transforms.InsertField$Key / $Value (Kafka 3.9): adds the topic,
 * partition, offset (sink records only), timestamp and a static string to a struct or map.
 * A field spec ending in `!` is required, `?` or nothing optional. Null keys/values pass.
 */
import { DataException, type Schema } from '../plugin.js';
import { ConfigException, key, replaceNullWithDefaultKey } from './config-def.js';
import { checkPut, copySchemaBasics, copyMap, putEntry, requireMap, requireSinkRecord, requireStruct, structGet, TIMESTAMP, type Side } from './connect-data.js';
import { keyValueTransforms, sideTransformation } from './kafka-plugin.js';

const OPTIONALITY_DOC = 'Suffix with <code>!</code> to make this a required field, or <code>?</code> to keep it optional (the default).';
const PURPOSE = 'field insertion';

const SPECS = [
  key('topic.field', 'STRING', null, 'MEDIUM', 'Field name for Kafka topic. ' + OPTIONALITY_DOC),
  key('partition.field', 'STRING', null, 'MEDIUM', 'Field name for Kafka partition. ' + OPTIONALITY_DOC),
  key('offset.field', 'STRING', null, 'MEDIUM', 'Field name for Kafka offset - only applicable to sink connectors.<br/>' + OPTIONALITY_DOC),
  key('timestamp.field', 'STRING', null, 'MEDIUM', 'Field name for record timestamp. ' + OPTIONALITY_DOC),
  key('static.field', 'STRING', null, 'MEDIUM', 'Field name for static data field. ' + OPTIONALITY_DOC),
  key('static.value', 'STRING', null, 'MEDIUM', 'Static field value, if field name configured.'),
  replaceNullWithDefaultKey(),
];

interface InsertionSpec {
  name: string;
  optional: boolean;
}

function parseSpec(spec: unknown): InsertionSpec | null {
  if (spec === null) return null;
  const s = spec as string;
  if (s.endsWith('?')) return { name: s.slice(0, -1), optional: true };
  if (s.endsWith('!')) return { name: s.slice(0, -1), optional: false };
  return { name: s, optional: true };
}

/** InsertionSpec has no toString, so Java prints Object.toString (its identity hash varies by run). */
const specText = (s: InsertionSpec) => `org.apache.kafka.connect.transforms.InsertField$InsertionSpec@${(s.name.length * 2654435761 >>> 0).toString(16)}`;

export const [insertFieldKeyPlugin, insertFieldValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.InsertField', SPECS, (c, side: Side) => {
  const topicField = parseSpec(c['topic.field']);
  const partitionField = parseSpec(c['partition.field']);
  const offsetField = parseSpec(c['offset.field']);
  const timestampField = parseSpec(c['timestamp.field']);
  const staticField = parseSpec(c['static.field']);
  const staticValue = c['static.value'] as string | null;
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  if (!topicField && !partitionField && !offsetField && !timestampField && !staticField) throw new ConfigException('No field insertion configured');
  if (staticField && staticValue === null) throw ConfigException.invalid('static.value', null, 'No value specified for static field: ' + specText(staticField));

  const cache = new WeakMap<Schema, Schema>();
  const updatedSchema = (schema: Schema): Schema => {
    let s = cache.get(schema);
    if (s) return s;
    const fields = (schema.fields ?? []).slice();
    const add = (spec: InsertionSpec | null, type: Schema['type'], extra: Partial<Schema> = {}) => {
      if (!spec) return;
      if (fields.some((f) => f.field === spec.name)) throw new DataException(`Cannot create field because of field name duplication ${spec.name}`);
      fields.push({ type, optional: spec.optional, ...extra, field: spec.name });
    };
    add(topicField, 'string');
    add(partitionField, 'int32');
    add(offsetField, 'int64');
    add(timestampField, 'int64', { name: TIMESTAMP, version: 1 });
    add(staticField, 'string');
    s = { ...copySchemaBasics(schema), fields };
    cache.set(schema, s);
    return s;
  };

  return sideTransformation(
    side,
    (value, record) => {
      const updated = copyMap(requireMap(value, PURPOSE));
      if (topicField) putEntry(updated, topicField.name, record.topic);
      if (partitionField && record.kafkaPartition !== undefined && record.kafkaPartition !== null) putEntry(updated, partitionField.name, record.kafkaPartition);
      if (offsetField) putEntry(updated, offsetField.name, requireSinkRecord(record, PURPOSE).kafkaOffset);
      if (timestampField && record.timestamp !== undefined && record.timestamp !== null) putEntry(updated, timestampField.name, record.timestamp);
      if (staticField && staticValue !== null) putEntry(updated, staticField.name, staticValue);
      return side.with(record, null, updated);
    },
    (value, schema, record) => {
      const struct = requireStruct(value, schema, PURPOSE);
      const newSchema = updatedSchema(schema);
      const updated: Record<string, unknown> = {};
      // new Struct(updatedSchema): unset fields are null
      for (const f of newSchema.fields!) updated[f.field!] = null;
      const put = (name: string, v: unknown) => {
        updated[name] = checkPut(newSchema.fields!.find((f) => f.field === name)!, v);
      };
      for (const f of schema.fields ?? []) put(f.field!, structGet(struct, f, replaceNullWithDefault));
      if (topicField) put(topicField.name, record.topic);
      if (partitionField && record.kafkaPartition !== undefined && record.kafkaPartition !== null) put(partitionField.name, record.kafkaPartition);
      if (offsetField) put(offsetField.name, requireSinkRecord(record, PURPOSE).kafkaOffset);
      if (timestampField && record.timestamp !== undefined && record.timestamp !== null) put(timestampField.name, record.timestamp);
      if (staticField && staticValue !== null) put(staticField.name, staticValue);
      return side.with(record, newSchema, updated);
    },
  );
});
