/**
 * org.apache.kafka.connect.transforms.ExtractField$Key / $Value (Kafka 3.9): the key or value
 * becomes one of its fields (a nested one with field.syntax.version=V2). Null passes through;
 * with a schema, a field the schema lacks is an IllegalArgumentException.
 */
import { ConnectException, type ConnectRecord } from '../plugin.js';
import { key, NO_DEFAULT, replaceNullWithDefaultKey } from './config-def.js';
import { fieldSchema, fieldSyntaxVersionKey, requireMapOrNull, requireStructOrNull, SingleFieldPath, type Side } from './connect-data.js';
import { keyValueTransforms, transformation } from './kafka-plugin.js';

const PURPOSE = 'field extraction';

const SPECS = [key('field', 'STRING', NO_DEFAULT, 'MEDIUM', 'Field name to extract.'), replaceNullWithDefaultKey(), fieldSyntaxVersionKey()];

export const [extractFieldKeyPlugin, extractFieldValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.ExtractField', SPECS, (c, side: Side) => {
  const originalPath = c.field as string;
  const path = new SingleFieldPath(originalPath, (c['field.syntax.version'] as string).toUpperCase() as 'V1' | 'V2');
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  return transformation((record: ConnectRecord) => {
    const schema = side.schema(record);
    if (!schema) {
      const map = requireMapOrNull(side.value(record), PURPOSE);
      return side.with(record, null, map === null ? null : path.valueFromMap(map));
    }
    const struct = requireStructOrNull(side.value(record), schema, PURPOSE);
    const field = path.fieldFrom(schema);
    if (!field) throw new ConnectException('Unknown field: ' + originalPath, 'java.lang.IllegalArgumentException');
    return side.with(record, fieldSchema(field), struct === null ? null : path.valueFromStruct(schema, struct, replaceNullWithDefault));
  });
});
