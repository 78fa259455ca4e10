/**
 * Kafka 3.9's built-in SMTs (apache/kafka tag 3.9.0-rc3, connect/transforms): behaviour and
 * texts pinned against the Java source.
 */
import { describe, expect, it } from 'vitest';
import type { Schema, SinkRecord, SourceRecord } from '../plugin.js';
import { buildTransformChain, transformChainError, validateTransforms } from './index.js';

const K = 'org.apache.kafka.connect.transforms.';
const chain = (type: string, cfg: Record<string, string> = {}, extra: Record<string, string> = {}) =>
  buildTransformChain({ transforms: 't', 'transforms.t.type': type.includes('.') ? type : K + type, ...Object.fromEntries(Object.entries(cfg).map(([k, v]) => [`transforms.t.${k}`, v])), ...extra });
const validate = (type: string, cfg: Record<string, string> = {}) => validateTransforms({ transforms: 't', 'transforms.t.type': K + type, ...Object.fromEntries(Object.entries(cfg).map(([k, v]) => [`transforms.t.${k}`, v])) });

const valueSchema: Schema = {
  type: 'struct',
  optional: false,
  name: 'db.t.Value',
  version: 2,
  fields: [
    { type: 'int32', optional: false, field: 'id' },
    { type: 'string', optional: true, field: 'name', default: 'anon' },
    { type: 'int64', optional: true, field: 'ts' },
  ],
};

function sink(value: unknown, schema: Schema | null = valueSchema, extra: Partial<SinkRecord> = {}): SinkRecord {
  return { topic: 'db.t', kafkaPartition: 3, kafkaOffset: 42, originalTopic: 'db.t', keySchema: null, key: null, valueSchema: schema, value, timestamp: 1_700_000_000_123, timestampType: 'CreateTime', headers: [{ key: 'h', value: 'x' }], ...extra };
}
function source(value: unknown, schema: Schema | null = valueSchema): SourceRecord {
  return { sourcePartition: { server: 's' }, sourceOffset: { pos: 1 }, topic: 'db.t', keySchema: null, key: null, valueSchema: schema, value };
}

describe('InsertField', () => {
  it('adds topic, partition, offset, timestamp (Connect Timestamp) and a static field to a struct; ! makes a field required', () => {
    const t = chain('InsertField$Value', { 'topic.field': 'topic!', 'partition.field': 'part', 'offset.field': 'off', 'timestamp.field': 'at', 'static.field': 'src', 'static.value': 'loupe' });
    const r = t(sink({ id: 1, name: null, ts: 5 }))!;
    expect(r.value).toEqual({ id: 1, name: 'anon', ts: 5, topic: 'db.t', part: 3, off: 42, at: 1_700_000_000_123, src: 'loupe' });
    expect(r.valueSchema).toEqual({
      type: 'struct',
      optional: false,
      name: 'db.t.Value',
      version: 2,
      fields: [
        ...valueSchema.fields!,
        { type: 'string', optional: false, field: 'topic' },
        { type: 'int32', optional: true, field: 'part' },
        { type: 'int64', optional: true, field: 'off' },
        { type: 'int64', optional: true, name: 'org.apache.kafka.connect.data.Timestamp', version: 1, field: 'at' },
        { type: 'string', optional: true, field: 'src' },
      ],
    });
    expect(r.headers).toEqual([{ key: 'h', value: 'x' }]);
    // replace.null.with.default=false keeps the null
    expect(chain('InsertField$Value', { 'topic.field': 'tp', 'replace.null.with.default': 'false' })(sink({ id: 1, name: null, ts: null }))!.value).toEqual({ id: 1, name: null, ts: null, tp: 'db.t' });
  });
  it('schemaless maps; the offset needs a sink record; null values pass; key variant', () => {
    expect(chain('InsertField$Value', { 'topic.field': 'tp', 'timestamp.field': 'at' })(sink({ a: 1 }, null))!.value).toEqual({ a: 1, tp: 'db.t', at: 1_700_000_000_123 });
    expect(() => chain('InsertField$Value', { 'offset.field': 'o' })(source({ a: 1 }, null))).toThrow('Only SinkRecord supported for [field insertion], found: org.apache.kafka.connect.source.SourceRecord');
    const tomb = sink(null, null);
    expect(chain('InsertField$Value', { 'topic.field': 'tp' })(tomb)).toBe(tomb);
    expect(chain('InsertField$Key', { 'topic.field': 'tp' })(sink('v', null, { key: { k: 1 } }))!.key).toEqual({ k: 1, tp: 'db.t' });
    expect(() => chain('InsertField$Value', { 'topic.field': 'tp' })(sink('text', null))).toThrow('Only Map objects supported in absence of schema for [field insertion], found: java.lang.String');
  });
  it('configure() checks fail the chain with Kafka\'s ConnectException text', () => {
    const cfg = { transforms: 't', 'transforms.t.type': K + 'InsertField$Value' };
    expect(validateTransforms(cfg)).toEqual({});
    expect(transformChainError(cfg)).toBe('org.apache.kafka.common.config.ConfigException: No field insertion configured');
    expect(() => buildTransformChain(cfg)(sink({ id: 1 }))).toThrow('No field insertion configured');
    expect(transformChainError({ ...cfg, 'transforms.t.static.field': 's' })).toMatch(/^org\.apache\.kafka\.common\.config\.ConfigException: Invalid value null for configuration static\.value: No value specified for static field: org\.apache\.kafka\.connect\.transforms\.InsertField\$InsertionSpec@/);
  });
});

describe('ReplaceField', () => {
  it('exclude wins over include, renames apply; the schema keeps its name', () => {
    const r = chain('ReplaceField$Value', { include: 'id,name,ts', exclude: 'ts', renames: 'id:key,name:label' })(sink({ id: 1, name: null, ts: 2 }))!;
    expect(r.value).toEqual({ key: 1, label: 'anon' });
    expect(r.valueSchema).toEqual({ type: 'struct', optional: false, name: 'db.t.Value', version: 2, fields: [{ type: 'int32', optional: false, field: 'key' }, { type: 'string', optional: true, default: 'anon', field: 'label' }] });
    expect(chain('ReplaceField$Value', { exclude: 'b', renames: 'a:x' })(sink({ a: 1, b: 2, c: 3 }, null))!.value).toEqual({ x: 1, c: 3 });
  });
  it('deprecated blacklist/whitelist count only when exclude/include are not set', () => {
    expect(chain('ReplaceField$Value', { blacklist: 'a' })(sink({ a: 1, b: 2 }, null))!.value).toEqual({ b: 2 });
    expect(chain('ReplaceField$Value', { whitelist: 'a' })(sink({ a: 1, b: 2 }, null))!.value).toEqual({ a: 1 });
    expect(chain('ReplaceField$Value', { include: 'b', whitelist: 'a' })(sink({ a: 1, b: 2 }, null))!.value).toEqual({ b: 2 });
    expect(chain('ReplaceField$Key', { exclude: 'a' })(sink(null, null, { key: { a: 1, b: 2 } }))!.key).toEqual({ b: 2 });
  });
  it('a bad rename is reported under the key with the validator\'s (unprefixed) name and the parsed list', () => {
    expect(validate('ReplaceField$Value', { renames: 'a:b, c' })).toEqual({ 'transforms.t.renames': ['Invalid value [a:b, c] for configuration renames: Invalid rename mapping: c'] });
    expect(validate('ReplaceField$Value', { 'replace.null.with.default': 'yes' })).toEqual({ 'transforms.t.replace.null.with.default': ['Invalid value yes for configuration transforms.t.replace.null.with.default: Expected value to be either true or false'] });
  });
});

describe('ExtractField', () => {
  it('takes a field (with its schema); V2 paths reach nested fields; a missing field with a schema is an IllegalArgumentException', () => {
    const r = chain('ExtractField$Value', { field: 'name' })(sink({ id: 1, name: null, ts: 2 }))!;
    expect(r.value).toBe('anon');
    expect(r.valueSchema).toEqual({ type: 'string', optional: true, default: 'anon' });
    expect(chain('ExtractField$Value', { field: 'name', 'replace.null.with.default': 'false' })(sink({ id: 1, name: null, ts: 2 }))!.value).toBeNull();
    expect(chain('ExtractField$Value', { field: 'a.b', 'field.syntax.version': 'v2' })(sink({ a: { b: 7 } }, null))!.value).toBe(7);
    expect(chain('ExtractField$Value', { field: '`a.b`.c', 'field.syntax.version': 'V2' })(sink({ 'a.b': { c: 8 } }, null))!.value).toBe(8);
    expect(chain('ExtractField$Value', { field: 'a.b' })(sink({ 'a.b': 9 }, null))!.value).toBe(9);
    expect(() => chain('ExtractField$Value', { field: 'nope' })(sink({ id: 1 }))).toThrow('Unknown field: nope');
    expect(chain('ExtractField$Value', { field: 'nope' })(sink({ id: 1 }, null))!.value).toBeNull();
    expect(chain('ExtractField$Key', { field: 'id' })(sink(null, null, { key: { id: 5 } }))!.key).toBe(5);
  });
  it('validation: field is required, field.syntax.version is case-insensitive V1/V2', () => {
    expect(validate('ExtractField$Value', { 'field.syntax.version': 'v3' })).toEqual({
      'transforms.t.field': ['Missing required configuration "transforms.t.field" which has no default value.'],
      'transforms.t.field.syntax.version': ['Invalid value v3 for configuration field.syntax.version: String must be one of (case insensitive): V1, V2'],
    });
    expect(transformChainError({ transforms: 't', 'transforms.t.type': K + 'ExtractField$Value', 'transforms.t.field': '`a', 'transforms.t.field.syntax.version': 'V2' })).toBe(
      'org.apache.kafka.common.config.ConfigException: Incomplete backtick pair in path: [`a], consider adding a backslash before backtick at position 0 to escape it',
    );
  });
});

describe('ValueToKey', () => {
  it('builds a struct key from value fields, or a map without schema; a missing field and a null value fail', () => {
    const r = chain('ValueToKey', { fields: 'id,name' })(sink({ id: 1, name: null, ts: 2 }))!;
    expect(r.key).toEqual({ id: 1, name: 'anon' });
    expect(r.keySchema).toEqual({ type: 'struct', optional: false, fields: [valueSchema.fields![0], valueSchema.fields![1]] });
    expect(chain('ValueToKey', { fields: 'a,z' })(sink({ a: 1 }, null))!.key).toEqual({ a: 1, z: null });
    expect(() => chain('ValueToKey', { fields: 'nope' })(sink({ id: 1 }))).toThrow('Field does not exist: nope');
    expect(() => chain('ValueToKey', { fields: 'a' })(sink(null, null))).toThrow('Only Map objects supported in absence of schema for [copying fields from value to key], found: null');
  });
  it('fields is a required non-empty list: both messages, as ConfigDef adds them', () => {
    expect(validate('ValueToKey')).toEqual({ 'transforms.t.fields': ['Missing required configuration "transforms.t.fields" which has no default value.', 'Invalid value null for configuration fields: Empty list'] });
    expect(validate('ValueToKey', { fields: ' ' })).toEqual({ 'transforms.t.fields': ['Invalid value [] for configuration fields: Empty list'] });
  });
});

describe('HoistField', () => {
  it('wraps the value in a struct or map', () => {
    const r = chain('HoistField$Value', { field: 'w' })(sink('x', { type: 'string', optional: false }))!;
    expect(r.value).toEqual({ w: 'x' });
    expect(r.valueSchema).toEqual({ type: 'struct', optional: false, fields: [{ type: 'string', optional: false, field: 'w' }] });
    expect(chain('HoistField$Key', { field: 'k' })(sink(null, null, { key: 5 }))!.key).toEqual({ k: 5 });
    expect(() => chain('HoistField$Value', { field: 'w' })(sink(null, { type: 'string', optional: false }))).toThrow('Invalid value: null used for required field: "w", schema type: STRING');
  });
});

describe('MaskField', () => {
  it('masks with the type\'s null value or a converted replacement', () => {
    expect(chain('MaskField$Value', { fields: 'id,name' })(sink({ id: 7, name: 'Ada', ts: 1 }))!.value).toEqual({ id: 0, name: '', ts: 1 });
    expect(chain('MaskField$Value', { fields: 'id,name', replacement: '300' })(sink({ id: 7, name: 'Ada', ts: 1 }, { ...valueSchema, fields: [{ type: 'int8', optional: false, field: 'id' }, valueSchema.fields![1]!, valueSchema.fields![2]!] }))!.value).toEqual({ id: 44, name: '300', ts: 1 });
    expect(chain('MaskField$Value', { fields: 'a,b,c,d,e' })(sink({ a: 1.5, b: true, c: [1], d: { x: 1 }, e: null }, null))!.value).toEqual({ a: 0, b: false, c: [], d: {}, e: null });
    // a Long masked with a replacement beyond 2^53 keeps its digits; a bigint field is a Long
    expect(chain('MaskField$Value', { fields: 'a,b', replacement: '4611686018427387907' })(sink({ a: 1, b: 4611686018427387907n }, null))!.value).toEqual({ a: 4611686018427387907n, b: 4611686018427387907n });
    expect(chain('MaskField$Value', { fields: 'a' })(sink({ a: 4611686018427387907n }, null))!.value).toEqual({ a: 0 });
    expect(() => chain('MaskField$Value', { fields: 'b', replacement: 'x' })(sink({ b: true }, null))).toThrow('Cannot mask value of type class java.lang.Boolean with custom replacement.');
    expect(() => chain('MaskField$Value', { fields: 'a', replacement: 'x' })(sink({ a: 1 }, null))).toThrow('Unable to convert x (class java.lang.String) to a number');
    expect(validate('MaskField$Value', { fields: 'a', replacement: ' ' })).toEqual({ 'transforms.t.replacement': ['Invalid value  for configuration replacement: String must be non-empty'] });
  });
});

describe('SetSchemaMetadata', () => {
  it('sets name and version; a schemaless non-null value fails', () => {
    const r = chain('SetSchemaMetadata$Value', { 'schema.name': 'n', 'schema.version': '7' })(sink({ id: 1, name: 'a', ts: null }))!;
    expect(r.valueSchema).toEqual({ ...valueSchema, name: 'n', version: 7 });
    expect(r.value).toEqual({ id: 1, name: 'a', ts: null });
    expect(() => chain('SetSchemaMetadata$Value', { 'schema.name': 'n' })(sink({ a: 1 }, null))).toThrow('Schema required for [updating schema metadata]');
    expect(validate('SetSchemaMetadata$Value', { 'schema.version': 'x' })).toEqual({ 'transforms.t.schema.version': ['Invalid value x for configuration transforms.t.schema.version: Not a number of type INT'] });
    expect(transformChainError({ transforms: 't', 'transforms.t.type': K + 'SetSchemaMetadata$Key' })).toBe('org.apache.kafka.common.config.ConfigException: Neither schema name nor version configured');
  });
});

describe('Cast', () => {
  const s = (type: Schema['type'], extra: Partial<Schema> = {}): Schema => ({ type: 'struct', optional: false, fields: [{ type, optional: true, field: 'f', ...extra }] });
  it('casts struct fields with Java narrowing and parsing', () => {
    const t = (spec: string, type: Schema['type'], v: unknown) => chain('Cast$Value', { spec })(sink({ f: v }, s(type)))!;
    expect(t('f:int8', 'int64', 300).value).toEqual({ f: 44 });
    expect(t('f:int32', 'float64', 1e12).value).toEqual({ f: 2147483647 });
    expect(t('f:string', 'float64', 1).value).toEqual({ f: '1.0' });
    expect(t('f:string', 'float64', 1e21).value).toEqual({ f: '1.0E21' });
    expect(t('f:string', 'float32', 1.1).value).toEqual({ f: '1.1' });
    expect(t('f:float32', 'float64', 1.1).value).toEqual({ f: 1.1 });
    expect(t('f:boolean', 'string', 'TRUE').value).toEqual({ f: true });
    expect(t('f:int32', 'string', '12').value).toEqual({ f: 12 });
    expect(t('f:string', 'bytes', 'AQI=').value).toEqual({ f: 'AQI=' });
    expect(t('f:int64', 'int32', 5).valueSchema).toEqual({ type: 'struct', optional: false, fields: [{ type: 'int64', optional: true, field: 'f' }] });
    expect(() => t('f:int8', 'string', '300')).toThrow('Value (300) was out of range for requested data type');
    expect(() => t('f:int32', 'bytes', 'AQI=')).toThrow('Unexpected type in Cast transformation: class [B');
    expect(t('f:string', 'int32', 1, ).value).toEqual({ f: '1' });
  });
  it('logical types: Date to string as Values.dateFormatFor, Timestamp to int64, Decimal to float64', () => {
    expect(chain('Cast$Value', { spec: 'f:string' })(sink({ f: 19000 }, s('int32', { name: 'org.apache.kafka.connect.data.Date', version: 1 })))!.value).toEqual({ f: '2022-01-08' });
    expect(chain('Cast$Value', { spec: 'f:string' })(sink({ f: 1_700_000_000_123 }, s('int64', { name: 'org.apache.kafka.connect.data.Timestamp', version: 1 })))!.value).toEqual({ f: '2023-11-14T22:13:20.123Z' });
    expect(chain('Cast$Value', { spec: 'f:int64' })(sink({ f: 1_700_000_000_123 }, s('int64', { name: 'org.apache.kafka.connect.data.Timestamp', version: 1 })))!.value).toEqual({ f: 1_700_000_000_123 });
    // 12345 unscaled at scale 2 = 123.45
    expect(chain('Cast$Value', { spec: 'f:float64' })(sink({ f: Buffer.from([0x30, 0x39]).toString('base64') }, s('bytes', { name: 'org.apache.kafka.connect.data.Decimal', parameters: { scale: '2' } })))!.value).toEqual({ f: 123.45 });
  });
  it('whole-value casts and schemaless maps', () => {
    const r = chain('Cast$Key', { spec: 'int32' })(sink(null, null, { key: 7, keySchema: { type: 'int64', optional: true } }))!;
    expect([r.key, r.keySchema]).toEqual([7, { type: 'int32', optional: true }]);
    expect(chain('Cast$Value', { spec: 'a:string,b:int16' })(sink({ a: 2, b: '3', c: 1 }, null))!.value).toEqual({ a: '2', b: 3, c: 1 });
    expect(() => chain('Cast$Value', { spec: 'a:string' })(sink({ a: { x: 1 } }, null))).toThrow('Cast transformation does not support casting from MAP; supported types are [INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING, BYTES]');
  });
  it('a long beyond 2^53 (a bigint) stays exact to int64, string and boolean, with and without a schema; narrowing wraps its exact bits', () => {
    const t = (spec: string, type: Schema['type'], v: unknown) => chain('Cast$Value', { spec })(sink({ f: v }, s(type)))!.value;
    const BIG = 4611686018427387907n;
    expect(t('f:int64', 'int64', BIG)).toEqual({ f: BIG });
    expect(t('f:string', 'int64', BIG)).toEqual({ f: '4611686018427387907' });
    expect(t('f:string', 'int64', -(2n ** 63n))).toEqual({ f: '-9223372036854775808' });
    expect(t('f:int32', 'int64', BIG)).toEqual({ f: 3 }); // (int) 0x4000000000000003
    expect(t('f:boolean', 'int64', 2n ** 62n)).toEqual({ f: true });
    expect(t('f:float64', 'int64', BIG)).toEqual({ f: 4611686018427387904 });
    expect(t('f:int64', 'string', '4611686018427387907')).toEqual({ f: BIG });
    expect(t('f:int64', 'float64', 1e300)).toEqual({ f: 2n ** 63n - 1n }); // (long) saturates
    // a Decimal(scale 0) of 2^62 + 3 to int64: BigDecimal.longValue, exact
    expect(chain('Cast$Value', { spec: 'f:int64' })(sink({ f: Buffer.from('4000000000000003', 'hex').toString('base64') }, s('bytes', { name: 'org.apache.kafka.connect.data.Decimal', parameters: { scale: '0' } })))!.value).toEqual({ f: BIG });
    const schemaless = chain('Cast$Value', { spec: 'a:string,b:int64' })(sink({ a: BIG, b: BIG }, null))!.value;
    expect(schemaless).toEqual({ a: '4611686018427387907', b: BIG });
  });
  it('spec validation texts', () => {
    expect(validate('Cast$Value', { spec: 'a:bytes' })).toEqual({ 'transforms.t.spec': ['Cast transformation does not support casting to BYTES; supported types are [INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING]'] });
    expect(validate('Cast$Value', { spec: 'a:nope' })).toEqual({ 'transforms.t.spec': ['Invalid type found in casting spec: nope'] });
    expect(validate('Cast$Value', { spec: 'int8,a:int8' })).toEqual({ 'transforms.t.spec': ['Cast transformations that specify a type to cast the entire value to may only specify a single cast in their spec'] });
    expect(validate('Cast$Value', { spec: 'a:b:c' })).toEqual({ 'transforms.t.spec': ['Invalid value [a:b:c] for configuration renames: Invalid rename mapping: a:b:c'] });
    expect(validate('Cast$Value')).toEqual({ 'transforms.t.spec': ['Missing required configuration "transforms.t.spec" which has no default value.', 'Must specify at least one field to cast.'] });
  });
});

describe('TimestampConverter', () => {
  const tsSchema = (type: Schema['type'], name?: string): Schema => ({ type: 'struct', optional: false, fields: [{ type, optional: true, field: 'at', ...(name ? { name, version: 1 } : {}) }] });
  it('string ↔ unix ↔ Timestamp/Date/Time with schemas', () => {
    const toStr = chain('TimestampConverter$Value', { field: 'at', 'target.type': 'string', format: "yyyy-MM-dd'T'HH:mm:ss.SSS" });
    const r = toStr(sink({ at: 1_700_000_000_123 }, tsSchema('int64', 'org.apache.kafka.connect.data.Timestamp')))!;
    expect(r.value).toEqual({ at: '2023-11-14T22:13:20.123' });
    expect(r.valueSchema!.fields).toEqual([{ type: 'string', optional: true, field: 'at' }]);
    const fromStr = chain('TimestampConverter$Value', { field: 'at', 'target.type': 'unix', format: 'yyyy-MM-dd HH:mm', 'unix.precision': 'seconds' });
    expect(fromStr(sink({ at: '2023-11-14 22:13' }, tsSchema('string')))!.value).toEqual({ at: 1_699_999_980 });
    expect(() => fromStr(sink({ at: 'x' }, tsSchema('string')))).toThrow('Could not parse timestamp: value (x) does not match pattern (yyyy-MM-dd HH:mm)');
    const toDate = chain('TimestampConverter$Value', { field: 'at', 'target.type': 'Date' })(sink({ at: 1_700_000_000_123 }, tsSchema('int64')))!;
    expect(toDate.value).toEqual({ at: 19675 });
    expect(toDate.valueSchema!.fields).toEqual([{ type: 'int32', optional: true, name: 'org.apache.kafka.connect.data.Date', version: 1, field: 'at' }]);
    expect(chain('TimestampConverter$Value', { field: 'at', 'target.type': 'Time' })(sink({ at: 1_700_000_000_123 }, tsSchema('int64')))!.value).toEqual({ at: 80_000_123 });
    expect(chain('TimestampConverter$Value', { field: 'at', 'target.type': 'unix', 'unix.precision': 'microseconds' })(sink({ at: 19675 }, tsSchema('int32', 'org.apache.kafka.connect.data.Date')))!.value).toEqual({ at: 1_699_920_000_000_000 });
    expect(() => chain('TimestampConverter$Value', { field: 'at', 'target.type': 'unix' })(sink({ at: 1 }, tsSchema('int32')))).toThrow('Schema Schema{INT32} does not correspond to a known timestamp type format');
  });
  it('schemaless: types inferred from the value; whole-value conversion of the key', () => {
    const out = chain('TimestampConverter$Value', { field: 'at', 'target.type': 'Timestamp' })(sink({ at: 1_700_000_000_123 }, null))!.value as { at: Date };
    expect(out.at).toEqual(new Date(1_700_000_000_123));
    expect(chain('TimestampConverter$Key', { 'target.type': 'string', format: 'yyyyMMdd' })(sink(null, null, { key: 1_700_000_000_123 }))!.key).toBe('20231114');
    expect(() => chain('TimestampConverter$Value', { field: 'at', 'target.type': 'unix' })(sink({ at: 1.5 }, null))).toThrow('TimestampConverter does not support class java.lang.Double objects as timestamps');
  });
  it('config checks', () => {
    expect(validate('TimestampConverter$Value', { 'target.type': 'date' })).toEqual({ 'transforms.t.target.type': ['Invalid value date for configuration target.type: String must be one of: string, unix, Date, Time, Timestamp'] });
    expect(transformChainError({ transforms: 't', 'transforms.t.type': K + 'TimestampConverter$Value', 'transforms.t.target.type': 'string' })).toBe(
      'org.apache.kafka.common.config.ConfigException: TimestampConverter requires format option to be specified when using string timestamps',
    );
    expect(transformChainError({ transforms: 't', 'transforms.t.type': K + 'TimestampConverter$Value', 'transforms.t.target.type': 'unix', 'transforms.t.format': 'yyyy-bb' })).toBe(
      'org.apache.kafka.common.config.ConfigException: TimestampConverter requires a SimpleDateFormat-compatible pattern for string timestamps: yyyy-bb',
    );
  });
});

describe('TimestampRouter', () => {
  it('topic from the format; a record with no timestamp fails', () => {
    expect(chain('TimestampRouter')(sink({ a: 1 }, null))!.topic).toBe('db.t-20231114');
    expect(chain('TimestampRouter', { 'topic.format': 'x_${timestamp}_${topic}', 'timestamp.format': 'yyyy-MM' })(sink({ a: 1 }, null))!.topic).toBe('x_2023-11_db.t');
    expect(() => chain('TimestampRouter')(source({ a: 1 }, null))).toThrow(/^Timestamp missing on record: SourceRecord\{sourcePartition=\{server=s\}, sourceOffset=\{pos=1\}\} ConnectRecord\{topic='db.t'/);
  });
});

describe('header transforms', () => {
  it('InsertHeader, DropHeaders', () => {
    expect(chain('InsertHeader', { header: 'src', 'value.literal': 'loupe' })(sink({ a: 1 }, null))!.headers).toEqual([{ key: 'h', value: 'x' }, { key: 'src', value: 'loupe' }]);
    expect(chain('InsertHeader', { header: 'l', 'value.literal': '[1, 2]' })(sink({}, null))!.headers![1]).toEqual({ key: 'l', value: '[1,2]' });
    expect(chain('DropHeaders', { headers: 'h' })(sink({ a: 1 }, null, { headers: [{ key: 'h', value: '1' }, { key: 'k', value: '2' }, { key: 'h', value: '3' }] }))!.headers).toEqual([{ key: 'k', value: '2' }]);
    expect(validate('InsertHeader', { header: 'x' })).toEqual({ 'transforms.t.value.literal': ['Missing required configuration "transforms.t.value.literal" which has no default value.', 'Invalid value null for configuration value.literal: entry must be non null'] });
  });
  it('HeaderFrom move and copy, with and without schema', () => {
    const moved = chain('HeaderFrom$Value', { fields: 'id,name', headers: 'hid,hname', operation: 'move' })(sink({ id: 1, name: null, ts: 2 }))!;
    expect(moved.value).toEqual({ ts: 2 });
    expect(moved.valueSchema).toEqual({ type: 'struct', optional: false, name: 'db.t.Value', version: 2, fields: [valueSchema.fields![2]] });
    expect(moved.headers).toEqual([{ key: 'h', value: 'x' }, { key: 'hid', value: '1' }, { key: 'hname', value: 'anon' }]);
    const copied = chain('HeaderFrom$Value', { fields: 'a', headers: 'ha', operation: 'copy' })(sink({ a: { x: 1 } }, null))!;
    expect([copied.value, copied.headers![1]]).toEqual([{ a: { x: 1 } }, { key: 'ha', value: '{"x":1}' }]);
    expect(transformChainError({ transforms: 't', 'transforms.t.type': K + 'HeaderFrom$Key', 'transforms.t.fields': 'a,b', 'transforms.t.headers': 'a', 'transforms.t.operation': 'copy' })).toBe(
      "org.apache.kafka.common.config.ConfigException: 'fields' config must have the same number of elements as 'headers' config.",
    );
    expect(validate('HeaderFrom$Key', { fields: 'a', headers: 'a', operation: 'Move' })).toEqual({ 'transforms.t.operation': ['Invalid value Move for configuration operation: String must be one of: move, copy'] });
  });
});

describe('predicates and Filter', () => {
  const base = { transforms: 'drop', 'transforms.drop.type': K + 'Filter', predicates: 'tomb,hdr,topic', 'predicates.tomb.type': K + 'predicates.RecordIsTombstone', 'predicates.hdr.type': 'HasHeaderKey', 'predicates.hdr.name': 'h', 'predicates.topic.type': K + 'predicates.TopicNameMatches', 'predicates.topic.pattern': 'db\\..*' };
  it('Filter alone drops everything; with a predicate only matching records; negate inverts', () => {
    expect(buildTransformChain({ transforms: 'f', 'transforms.f.type': K + 'Filter' })(sink({ a: 1 }, null))).toBeNull();
    const t = buildTransformChain({ ...base, 'transforms.drop.predicate': 'tomb' });
    const rec = sink({ a: 1 }, null);
    expect(t(rec)).toBe(rec);
    expect(t(sink(null, null))).toBeNull();
    const keepTombstones = buildTransformChain({ ...base, 'transforms.drop.predicate': 'tomb', 'transforms.drop.negate': 'TRUE' });
    expect(keepTombstones(rec)).toBeNull();
    expect(buildTransformChain({ ...base, 'transforms.drop.predicate': 'hdr' })(rec)).toBeNull();
    expect(buildTransformChain({ ...base, 'transforms.drop.predicate': 'hdr' })({ ...rec, headers: [] })).not.toBeNull();
    const byTopic = buildTransformChain({ ...base, 'transforms.drop.predicate': 'topic' });
    expect(byTopic(rec)).toBeNull();
    expect(byTopic({ ...rec, topic: 'xdb.t' })).not.toBeNull();
    expect(validateTransforms({ ...base, 'transforms.drop.predicate': 'tomb' })).toEqual({});
  });
  it('a predicated ValueToKey leaves tombstones alone instead of failing on them', () => {
    const t = buildTransformChain({ transforms: 'k', 'transforms.k.type': K + 'ValueToKey', 'transforms.k.fields': 'a', 'transforms.k.predicate': 'tomb', 'transforms.k.negate': 'true', predicates: 'tomb', 'predicates.tomb.type': 'RecordIsTombstone' });
    expect(t(sink({ a: 1 }, null))!.key).toEqual({ a: 1 });
    const tomb = sink(null, null);
    expect(t(tomb)).toBe(tomb);
  });
  it('ConnectorConfig.enrich messages: negate without predicate, duplicates, unknown/wrong-kind/abstract classes, predicate keys', () => {
    expect(validateTransforms({ transforms: 'f', 'transforms.f.type': K + 'Filter', 'transforms.f.negate': 'true' })).toEqual({
      'transforms.f.type': ["Config 'transforms.f.negate' was provided but there is no config 'transforms.f.predicate' defining a predicate to be negated."],
    });
    expect(validateTransforms({ transforms: 'f', 'transforms.f.type': K + 'Filter', 'transforms.f.predicate': 'p', 'transforms.f.negate': 'maybe' })).toEqual({
      'transforms.f.negate': ['Invalid value maybe for configuration transforms.f.negate: Expected value to be either true or false'],
    });
    expect(validateTransforms({ transforms: 'a, a', 'transforms.a.type': K + 'Filter', predicates: 'p,p', 'predicates.p.type': 'RecordIsTombstone' })).toEqual({
      transforms: ['Invalid value [a, a] for configuration transforms: Duplicate alias provided.'],
      predicates: ['Invalid value [p, p] for configuration predicates: Duplicate alias provided.'],
    });
    expect(validateTransforms({ transforms: 'a', 'transforms.a.type': K + 'predicates.HasHeaderKey', predicates: 'p', 'predicates.p.type': K + 'Filter' })).toEqual({
      'transforms.a.type': [`Class class ${K}predicates.HasHeaderKey does not implement the Transformation interface`],
      'predicates.p.type': [`Class class ${K}Filter does not implement the Predicate interface`],
    });
    expect(validateTransforms({ transforms: 'a', 'transforms.a.type': K + 'InsertField' })).toEqual({
      'transforms.a.type': [`This class is abstract and cannot be created. Did you mean ${K}InsertField$Key, ${K}InsertField$Value?`],
    });
    expect(validateTransforms({ predicates: 'p,q', 'predicates.p.type': 'HasHeaderKey', 'predicates.q.type': 'Nope' })).toEqual({
      'predicates.p.name': ['Missing required configuration "predicates.p.name" which has no default value.'],
      'predicates.q.type': ['Invalid value Nope for configuration predicates.q.type: Class Nope could not be found.'],
    });
    expect(validateTransforms({ predicates: 'p', 'predicates.p.type': 'TopicNameMatches', 'predicates.p.pattern': '' })).toEqual({ 'predicates.p.pattern': ['Invalid value  for configuration pattern: String must be non-empty'] });
  });
  it('a transform naming a predicate that is not configured passes validation and fails the task (transformationStages)', () => {
    const cfg = { transforms: 'f', 'transforms.f.type': K + 'Filter', 'transforms.f.predicate': 'missing' };
    expect(validateTransforms(cfg)).toEqual({});
    expect(transformChainError(cfg)).toBe("org.apache.kafka.common.config.ConfigException: Unknown configuration 'predicates.missing.type'");
    expect(() => buildTransformChain(cfg)(sink({ a: 1 }, null))).toThrow("Unknown configuration 'predicates.missing.type'");
  });
});
