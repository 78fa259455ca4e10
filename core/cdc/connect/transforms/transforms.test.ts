import { describe, expect, it } from 'vitest';
import type { Schema, SourceRecord } from '../plugin.js';
import { JsonConverter } from '../converters/json-converter.js';
import { StringConverter } from '../converters/string-converter.js';
import { buildTransformChain, validateTransforms } from './index.js';
import { tableSchemas } from '../plugins/debezium-mysql/envelope.js';

const cols = [
  { name: 'created_at', baseType: 'datetime', args: [], unsigned: false, nullable: true, defaultExpr: 'CURRENT_TIMESTAMP' },
  { name: 'id', baseType: 'int', args: [], unsigned: false, nullable: false, defaultExpr: null },
  { name: 'name', baseType: 'varchar', args: ['255'], unsigned: false, nullable: true, defaultExpr: null },
];
const s = tableSchemas('dbserver1', 'demo', 'customers', cols, ['id'], 'precise');
const source = { version: '1.9.8.Final', connector: 'mysql', name: 'dbserver1', ts_ms: 1000, snapshot: 'false', db: 'demo', sequence: null, table: 'customers', server_id: 1, gtid: null, file: 'mysql-bin.000001', pos: 4, row: 0, thread: 7, query: null };

function rec(op: 'c' | 'u' | 'd' | 'r', before: Record<string, unknown> | null, after: Record<string, unknown> | null): SourceRecord {
  return { sourcePartition: {}, sourceOffset: {}, topic: 'dbserver1.demo.customers', keySchema: s.keySchema, key: { id: 1 }, valueSchema: s.envelopeSchema, value: { before, after, source, op, ts_ms: 2000, transaction: null } };
}
const tombstone: SourceRecord = { ...rec('d', null, null), valueSchema: null, value: null };
const row = { created_at: 1704164645000, id: 1, name: 'Ada' };

const unwrap = (extra: Record<string, string>) => buildTransformChain({ transforms: 'unwrap', 'transforms.unwrap.type': 'io.debezium.transforms.ExtractNewRecordState', ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`transforms.unwrap.${k}`, v])) });

describe('ExtractNewRecordState', () => {
  it('delete.handling.mode=rewrite: deletes become the before row with __deleted "true", others "false", tombstones dropped', () => {
    const t = unwrap({ 'delete.handling.mode': 'rewrite' });
    expect(t(rec('c', null, row))!.value).toEqual({ ...row, __deleted: 'false' });
    expect(t(rec('d', row, null))!.value).toEqual({ ...row, __deleted: 'true' });
    expect(t(tombstone)).toBeNull();
    expect(t(rec('c', null, row))!.valueSchema!.fields!.map((f) => f.field)).toEqual(['created_at', 'id', 'name', '__deleted']);
  });

  it('delete.handling.mode none keeps deletes as null values; drop (default) removes them', () => {
    expect(unwrap({ 'delete.handling.mode': 'none' })(rec('d', row, null))!.value).toBeNull();
    expect(unwrap({})(rec('d', row, null))).toBeNull();
    expect(unwrap({ 'drop.tombstones': 'false' })(tombstone)).toBe(tombstone);
  });

  it('delete.tombstone.handling.mode (Debezium 2.5+) wins over the older key', () => {
    const both = { 'delete.handling.mode': 'rewrite', 'delete.tombstone.handling.mode': 'tombstone' };
    expect(unwrap(both)(rec('d', row, null))).toBeNull();
    expect(unwrap(both)(tombstone)).toBe(tombstone);
    const rwt = unwrap({ 'delete.tombstone.handling.mode': 'rewrite-with-tombstone' });
    expect(rwt(rec('d', row, null))!.value).toEqual({ ...row, __deleted: 'true' });
    expect(rwt(tombstone)).toBe(tombstone);
    expect(unwrap({ 'delete.tombstone.handling.mode': 'drop' })(tombstone)).toBeNull();
    expect(unwrap({ 'delete.tombstone.handling.mode': 'delete-to-tombstone' })(rec('d', row, null))!.value).toBeNull();
  });

  it('add.fields appends __op, __table, __source_ts_ms', () => {
    const out = unwrap({ 'add.fields': 'op,table,source.ts_ms' })(rec('u', row, row))!;
    expect(out.value).toEqual({ ...row, __op: 'u', __table: 'customers', __source_ts_ms: 1000 });
    expect(out.valueSchema!.fields!.slice(3)).toEqual([
      { type: 'string', optional: true, field: '__op' },
      { type: 'string', optional: true, field: '__table' },
      { type: 'int64', optional: true, field: '__source_ts_ms' },
    ]);
  });

  it('add.fields: a renamed field keeps the prefix, transaction fields come from the transaction block (Debezium 1.9.8 FieldReference)', () => {
    const out = unwrap({ 'add.fields': 'source.ts_ms:EVENT_TIMESTAMP,id,db', 'add.fields.prefix': '_' })(rec('c', null, row))!;
    expect(out.value).toEqual({ ...row, _EVENT_TIMESTAMP: 1000, _id: null, _db: 'demo' });
    expect(out.valueSchema!.fields!.slice(3)).toEqual([
      { type: 'int64', optional: true, field: '_EVENT_TIMESTAMP' },
      { type: 'string', optional: true, field: '_id' },
      { type: 'string', optional: true, field: '_db' },
    ]);
    expect(() => unwrap({ 'add.fields': 'nope' })(rec('c', null, row))).toThrow('Unexpected field name: nope');
  });

  it('add.headers: envelope fields as headers on every record it emits; a kept tombstone gets only op, as "d"', () => {
    const t = unwrap({ 'add.headers': 'op,source.ts_ms,table', 'delete.handling.mode': 'rewrite', 'drop.tombstones': 'false' });
    expect(t(rec('u', row, row))!.headers).toEqual([
      { key: '__op', value: 'u' },
      { key: '__source_ts_ms', value: '1000' },
      { key: '__table', value: 'customers' },
    ]);
    expect(t(rec('d', row, null))!.headers!.map((h) => h.value)).toEqual(['d', '1000', 'customers']);
    expect(t(tombstone)!.headers).toEqual([{ key: '__op', value: 'd' }]);
    // the record given is not changed
    const given = rec('c', null, row);
    t(given);
    expect(given.headers).toBeUndefined();
  });

  it('route.by.field: the row\'s value becomes the topic; null keeps it; a rewritten delete keeps the original topic (1.9.8)', () => {
    const routed = { ...row, name: 'vip' };
    expect(unwrap({ 'route.by.field': 'name' })(rec('c', null, routed))!.topic).toBe('vip');
    expect(unwrap({ 'route.by.field': 'name' })(rec('c', null, { ...row, name: null }))!.topic).toBe('dbserver1.demo.customers');
    expect(unwrap({ 'route.by.field': 'name', 'delete.handling.mode': 'none' })(rec('d', routed, null))!.topic).toBe('vip');
    const rw = unwrap({ 'route.by.field': 'name', 'delete.handling.mode': 'rewrite' });
    expect(rw(rec('u', routed, routed))!.topic).toBe('vip');
    expect(rw(rec('d', routed, null))!.topic).toBe('dbserver1.demo.customers');
    expect(() => unwrap({ 'route.by.field': 'id' })(rec('c', null, row))).toThrow("Field 'id' is not of type STRING");
    expect(() => unwrap({ 'route.by.field': 'nope' })(rec('c', null, row))).toThrow('nope is not a valid field name');
  });

  it('rejects an unknown mode', () => {
    expect(validateTransforms({ transforms: 'u', 'transforms.u.type': 'io.debezium.transforms.ExtractNewRecordState', 'transforms.u.delete.handling.mode': 'bogus' })).toEqual({
      'transforms.u.delete.handling.mode': ['Invalid value bogus for configuration transforms.u.delete.handling.mode: Value must be one of drop, rewrite, none'],
    });
  });
});

describe('RegexRouter (whole-name match, then replaceFirst)', () => {
  const route = (regex: string, replacement: string) => buildTransformChain({ transforms: 'r', 'transforms.r.type': 'org.apache.kafka.connect.transforms.RegexRouter', 'transforms.r.regex': regex, 'transforms.r.replacement': replacement });
  const topic = (t: ReturnType<typeof route>, name: string) => t({ ...rec('c', null, row), topic: name })!.topic;
  it('$3 and $2.$3 with three dot-separated groups', () => {
    expect(topic(route('([^.]+)\\.([^.]+)\\.([^.]+)', '$3'), 'dbserver1.demo.customers')).toBe('customers');
    expect(topic(route('([^.]+)\\.([^.]+)\\.([^.]+)', '$2.$3'), 'dbserver1.demo.customers')).toBe('demo.customers');
  });
  it('a regex that matches only part of the name leaves the topic unchanged', () => {
    expect(topic(route('([^.]+)\\.([^.]+)', '$2'), 'dbserver1.demo.customers')).toBe('dbserver1.demo.customers');
  });
  it('Java replacement syntax: \\$ is a literal dollar, ${name} a named group', () => {
    expect(topic(route('(?<db>[^.]+)\\.(.*)', '${db}-\\$x'), 'a.b')).toBe('a-$x');
  });
  it('a bad regex is a validation error on the transform key', () => {
    const e = validateTransforms({ transforms: 'r', 'transforms.r.type': 'org.apache.kafka.connect.transforms.RegexRouter', 'transforms.r.regex': '(', 'transforms.r.replacement': '$1' });
    expect(e['transforms.r.regex']![0]).toMatch(/^Invalid value \( for configuration transforms\.r\.regex: Invalid regex: /);
  });
});

describe('Flatten$Value', () => {
  const flat = (delimiter?: string) => buildTransformChain({ transforms: 'f', 'transforms.f.type': 'org.apache.kafka.connect.transforms.Flatten$Value', ...(delimiter ? { 'transforms.f.delimiter': delimiter } : {}) });
  it('flattens maps without schema using the delimiter', () => {
    const r = flat('_')({ ...rec('c', null, row), valueSchema: null, value: { a: { b: 1, c: { d: 'x' } }, e: null, f: [1, 2] } })!;
    expect(r.value).toEqual({ a_b: 1, a_c_d: 'x', e: null, f: [1, 2] });
  });
  it('a map with nothing nested comes out exactly as flattening it entry by entry gives it', () => {
    const general = (v: Record<string, unknown>) => {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (x !== null && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Uint8Array)) throw new Error('nested: not a flat case');
        out[k] = x ?? null;
      }
      return out;
    };
    const values: Record<string, unknown>[] = [
      { created_at: 1700000000000, id: 1, name: 'a', __deleted: 'false' },
      { 2: 'x', b: null, 1: [1, { c: 2 }], u8: new Uint8Array([1]), t: true },
      {},
      { a: undefined, b: 1 },
      JSON.parse('{"__proto__": 5, "a": 1}') as Record<string, unknown>,
      { a: {}, b: 1 },
    ];
    for (const v of values) {
      const r = flat('_')({ ...rec('c', null, row), valueSchema: null, value: v })!;
      if (Object.values(v).some((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Uint8Array))) continue;
      expect(JSON.stringify(r.value)).toBe(JSON.stringify(general(v)));
      expect(Object.keys(r.value as object)).toEqual(Object.keys(general(v)));
      expect(r.value).toEqual(general(v));
    }
    // nested ones still flatten; an empty nested map disappears as in Kafka
    expect(flat('_')({ ...rec('c', null, row), valueSchema: null, value: { a: {}, b: 1 } })!.value).toEqual({ b: 1 });
  });
  it('flattens structs with schema; fields under an optional parent become optional', () => {
    const schema: Schema = { type: 'struct', optional: false, name: 'x.Value', fields: [{ type: 'struct', optional: true, field: 'p', fields: [{ type: 'int32', optional: false, field: 'q' }] }, { type: 'string', optional: false, field: 'r' }] };
    const r = flat()({ ...rec('c', null, row), valueSchema: schema, value: { p: { q: 1 }, r: 'z' } })!;
    expect(r.value).toEqual({ 'p.q': 1, r: 'z' });
    expect(r.valueSchema).toEqual({ type: 'struct', optional: false, name: 'x.Value', fields: [{ type: 'int32', optional: true, field: 'p.q' }, { type: 'string', optional: false, field: 'r' }] });
  });
});

describe('JsonConverter and StringConverter', () => {
  it('schemas.enable=true writes Kafka\'s envelope; false writes the payload; null schema+value is a tombstone', () => {
    const on = new JsonConverter({ 'schemas.enable': 'true' });
    expect(on.fromConnectData('t', s.keySchema, { id: 1 })).toBe('{"schema":{"type":"struct","fields":[{"type":"int32","optional":false,"field":"id"}],"optional":false,"name":"dbserver1.demo.customers.Key"},"payload":{"id":1}}');
    expect(new JsonConverter({ 'schemas.enable': 'false' }).fromConnectData('t', s.keySchema, { id: 1 })).toBe('{"id":1}');
    expect(on.fromConnectData('t', null, null)).toBeNull();
    expect(new JsonConverter().fromConnectData('t', { type: 'float64', optional: false }, 1.5)).toBe('{"schema":{"type":"double","optional":false},"payload":1.5}');
  });
  it('reading: schemas.enable=true requires exactly schema and payload', () => {
    const on = new JsonConverter();
    expect(on.toConnectData('t', '{"schema":{"type":"int32","optional":false},"payload":5}')).toEqual({ schema: { type: 'int32', optional: false }, value: 5 });
    expect(() => on.toConnectData('t', '{"id":1}')).toThrow(
      'JsonConverter with schemas.enable requires "schema" and "payload" fields and may not contain additional fields. If you are trying to deserialize plain JSON data, set schemas.enable=false in your converter configuration.',
    );
    expect(new JsonConverter({ 'schemas.enable': 'false' }).toConnectData('t', '{"id":1}')).toEqual({ schema: null, value: { id: 1 }, json: '{"id":1}' });
    // only an object keeps its text: the sink writes rows, never a bare array or scalar
    expect(new JsonConverter({ 'schemas.enable': 'false' }).toConnectData('t', '[1]')).toEqual({ schema: null, value: [1] });
    expect(new JsonConverter({ 'schemas.enable': 'false' }).toConnectData('t', '7')).toEqual({ schema: null, value: 7 });
    expect(on.toConnectData('t', null)).toEqual({ schema: null, value: null });
  });
  it('StringConverter writes strings and structs as Java prints them', () => {
    const c = new StringConverter();
    expect(c.fromConnectData('t', null, 'x')).toBe('x');
    expect(c.fromConnectData('t', null, { id: 1, name: 'a' })).toBe('Struct{id=1,name=a}');
    expect(c.toConnectData('t', 'x')).toEqual({ schema: { type: 'string', optional: true }, value: 'x' });
  });
  it('a Debezium envelope with schemas enabled has the exact schema of the spec\'s table', () => {
    const text = new JsonConverter().fromConnectData('t', s.envelopeSchema, { before: null, after: { created_at: 1704164645000, id: 1, name: 'Ada' }, source, op: 'c', ts_ms: 2000, transaction: null })!;
    const j = JSON.parse(text);
    expect(Object.keys(j.payload)).toEqual(['before', 'after', 'source', 'op', 'ts_ms', 'transaction']);
    // io.debezium.connector.mysql.Source at Debezium v1.9.8.Final: the common block (with sequence), then MySQL's fields
    expect(Object.keys(j.payload.source)).toEqual(['version', 'connector', 'name', 'ts_ms', 'snapshot', 'db', 'sequence', 'table', 'server_id', 'gtid', 'file', 'pos', 'row', 'thread', 'query']);
    expect(j.payload.source.sequence).toBeNull();
    expect(j.schema.fields[2].fields[6]).toEqual({ type: 'string', optional: true, field: 'sequence' });
    expect(j.schema.name).toBe('dbserver1.demo.customers.Envelope');
    expect(j.schema.fields[0]).toEqual({
      type: 'struct',
      fields: [
        { type: 'int64', optional: true, name: 'io.debezium.time.Timestamp', version: 1, default: 0, field: 'created_at' },
        { type: 'int32', optional: false, field: 'id' },
        { type: 'string', optional: true, field: 'name' },
      ],
      optional: true,
      name: 'dbserver1.demo.customers.Value',
      field: 'before',
    });
  });
});
