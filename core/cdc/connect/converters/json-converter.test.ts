import { describe, expect, it } from 'vitest';
import { stringifyExactJson } from '../../../common/exact-json.js';
import type { Schema } from '../plugin.js';
import { tableSchemas } from '../plugins/debezium-mysql/envelope.js';
import { JsonConverter, asJsonSchema, convertToJson } from './json-converter.js';

/** The general path, as JsonConverter wrote every message before its compiled serializers (bigints as their digits). */
function reference(schemasEnable: boolean, schema: Schema | null, value: unknown): string | null {
  if (schema === null && (value === null || value === undefined)) return null;
  const payload = convertToJson(schema, value);
  if (!schemasEnable) return stringifyExactJson(payload);
  return stringifyExactJson({ schema: schema ? asJsonSchema(schema) : null, payload });
}

function outcome(fn: () => unknown): { ok: unknown } | { error: string } {
  try {
    return { ok: fn() };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES: Schema['type'][] = ['int8', 'int16', 'int32', 'int64', 'float32', 'float64', 'boolean', 'string', 'bytes', 'array', 'map', 'struct'];
const NAMES = ['id', 'name', 'created_at', 'a b', 'é', '"q"', '1', '0', '01', '__proto__', 'x', 'x', 'length'];

function randomSchema(r: () => number, depth: number): Schema {
  const type = TYPES[Math.floor(r() * (depth > 1 ? 8 : TYPES.length))]!;
  const s: Schema = { type, optional: r() < 0.5 };
  if (r() < 0.1) s.default = type === 'string' ? 'dflt' : type === 'boolean' ? true : 7;
  if (type === 'struct') s.fields = Array.from({ length: Math.floor(r() * 5) }, () => ({ ...randomSchema(r, depth + 1), field: r() < 0.8 ? `f${Math.floor(r() * 6)}` : NAMES[Math.floor(r() * NAMES.length)]! }));
  if (type === 'array') s.items = randomSchema(r, depth + 1);
  if (type === 'map') {
    s.keys = { type: 'string', optional: false };
    s.values = randomSchema(r, depth + 1);
  }
  return s;
}

const ODD = [null, undefined, 0, -0, 1.5, -1e21, 1e21, NaN, Infinity, 2 ** 53 + 2, 4611686018427387907n, -(2n ** 63n), '', 'plain', 'quote " back \\ nl \n', '\u0000\u2028é😀', '\ud800', true, false, 12n, [1, 'a'], { nested: 1 }, new Date(0)];

function randomValue(r: () => number, schema: Schema): unknown {
  if (r() < 0.12) return ODD[Math.floor(r() * ODD.length)];
  switch (schema.type) {
    case 'struct': {
      const o: Record<string, unknown> = {};
      for (const f of schema.fields ?? []) if (r() < 0.9) o[f.field!] = randomValue(r, f);
      return o;
    }
    case 'array':
      return [randomValue(r, schema.items!), randomValue(r, schema.items!)];
    case 'map':
      return { k: randomValue(r, schema.values!) };
    case 'string':
      return `s${Math.floor(r() * 1000)}"\\`;
    case 'boolean':
      return r() < 0.5;
    case 'float32':
    case 'float64':
      return (r() - 0.5) * 1e6;
    default:
      return Math.floor((r() - 0.5) * 2 ** 40);
  }
}

describe('JsonConverter writes every message exactly as the general path did', () => {
  it('random schemas and values (odd names, nulls, defaults, non-finite numbers, wrong JS types) give the same text or the same error', () => {
    const r = rng(11);
    let compared = 0;
    for (let i = 0; i < 4000; i++) {
      const schema = r() < 0.9 ? randomSchema(r, 0) : null;
      const value = schema ? randomValue(r, schema) : ODD[Math.floor(r() * ODD.length)];
      for (const enable of [false, true]) {
        const conv = new JsonConverter({ 'schemas.enable': String(enable) });
        // twice: the second call uses the serializer compiled by the first
        for (let k = 0; k < 2; k++) expect(outcome(() => conv.fromConnectData('t', schema, value))).toEqual(outcome(() => reference(enable, schema, value)));
        compared++;
      }
    }
    expect(compared).toBe(8000);
  });

  it('Debezium envelopes and flat rows of a MySQL table, schemas on and off', () => {
    const columns = [
      { name: 'created_at', baseType: 'datetime', args: [], unsigned: false, nullable: true, defaultExpr: 'CURRENT_TIMESTAMP' },
      { name: 'id', baseType: 'int', args: [], unsigned: false, nullable: false, defaultExpr: null },
      { name: 'name', baseType: 'varchar', args: ['255'], unsigned: false, nullable: true, defaultExpr: "'nobody'" },
    ];
    const s = tableSchemas('dbserver1', 'demo', 'customers', columns, ['id'], 'precise');
    const source = { version: '1.9.8.Final', connector: 'mysql', name: 'dbserver1', ts_ms: 1700000000000, snapshot: 'false', db: 'demo', table: 'customers', server_id: 1, gtid: null, file: 'mysql-bin.000001', pos: 4, row: 0, thread: 3, query: null };
    const rows = [
      { created_at: 1700000000000, id: 1, name: 'Ann "the" \\ é' },
      { created_at: null, id: 2, name: null },
    ];
    for (const enable of [false, true]) {
      const conv = new JsonConverter({ 'schemas.enable': String(enable) });
      for (const row of rows) {
        const env = { before: null, after: row, source, op: 'c', ts_ms: 1700000000001, transaction: null };
        expect(conv.fromConnectData('t', s.envelopeSchema, env)).toBe(reference(enable, s.envelopeSchema, env));
        expect(conv.fromConnectData('t', s.valueSchema, row)).toBe(reference(enable, s.valueSchema, row));
        expect(conv.fromConnectData('t', s.keySchema, { id: row.id })).toBe(reference(enable, s.keySchema, { id: row.id }));
      }
      // a required field without a value fails as before
      expect(outcome(() => conv.fromConnectData('t', s.keySchema, {}))).toEqual(outcome(() => reference(enable, s.keySchema, {})));
    }
  });
});

describe('decimal.format and replace.null.with.default (JsonConverterConfig)', () => {
  const decimal = (scale: number): Schema => ({ type: 'bytes', optional: true, name: 'org.apache.kafka.connect.data.Decimal', version: 1, parameters: { scale: String(scale), 'connect.decimal.precision': '20' } });
  const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

  it('NUMERIC writes a Decimal as the number BigDecimal.toString gives, all digits kept; BASE64 (the default) the unscaled bytes', () => {
    const row: Schema = { type: 'struct', optional: false, name: 'r', fields: [{ ...decimal(2), field: 'price' }, { type: 'int32', optional: false, field: 'id' }] };
    const numeric = new JsonConverter({ 'schemas.enable': 'false', 'decimal.format': 'numeric' });
    // 1250 with scale 2 is 12.50; 2^70 + 1 with scale 2 has more digits than a double holds
    expect(numeric.fromConnectData('t', row, { price: b64('04e2'), id: 1 })).toBe('{"price":12.50,"id":1}');
    expect(numeric.fromConnectData('t', row, { price: b64('400000000000000001'), id: 1 })).toBe('{"price":11805916207174113034.25,"id":1}');
    expect(numeric.fromConnectData('t', row, { price: b64('fb1e'), id: 1 })).toBe('{"price":-12.50,"id":1}');
    expect(new JsonConverter({ 'schemas.enable': 'false' }).fromConnectData('t', row, { price: b64('04e2'), id: 1 })).toBe(`{"price":"${b64('04e2')}","id":1}`);
    // the general path (a Decimal inside an array) writes the same numbers
    const list: Schema = { type: 'array', optional: false, items: decimal(3) };
    expect(numeric.fromConnectData('t', list, [b64('01'), null])).toBe('[0.001,null]');
  });

  it('BigDecimal.toString switches to scientific notation below an adjusted exponent of -6', async () => {
    const { decimalText } = await import('./json-converter.js');
    expect(decimalText(b64('01'), 7)).toBe('1E-7');
    expect(decimalText(b64('0c'), 8)).toBe('1.2E-7');
    expect(decimalText(b64('01'), 6)).toBe('0.000001');
    expect(decimalText(b64('00'), 2)).toBe('0.00');
    expect(decimalText(b64('7b'), 0)).toBe('123');
  });

  it('replace.null.with.default=false writes and reads a null field as null; true (the default) as its default', () => {
    const row: Schema = { type: 'struct', optional: false, name: 'r', fields: [{ type: 'int64', optional: true, default: 0, name: 'io.debezium.time.Timestamp', version: 1, field: 'created_at' }] };
    const replace = new JsonConverter({ 'schemas.enable': 'false' });
    const keep = new JsonConverter({ 'schemas.enable': 'false', 'replace.null.with.default': 'false' });
    expect(replace.fromConnectData('t', row, { created_at: null })).toBe('{"created_at":0}');
    expect(keep.fromConnectData('t', row, { created_at: null })).toBe('{"created_at":null}');
    const text = '{"schema":{"type":"struct","fields":[{"type":"int64","optional":true,"default":0,"field":"created_at"},{"type":"string","optional":false,"field":"name"}],"optional":false},"payload":{"created_at":null,"name":"a"}}';
    expect(new JsonConverter().toConnectData('t', text).value).toEqual({ created_at: 0, name: 'a' });
    expect(new JsonConverter({ 'replace.null.with.default': 'false' }).toConnectData('t', text).value).toEqual({ created_at: null, name: 'a' });
    expect(() => new JsonConverter().toConnectData('t', text.replace('"name":"a"', '"name":null'))).toThrow('Invalid null value for required STRING field');
  });
});

describe('INT64 beyond 2^53 (a MySQL BIGINT snowflake id) keeps every digit', () => {
  const BIG = 4611686018427387907n;
  const MIN = -9223372036854775808n;
  const row: Schema = {
    type: 'struct',
    optional: false,
    name: 'demo.customers.Value',
    fields: [
      { type: 'int64', optional: false, field: 'id' },
      { type: 'int64', optional: true, field: 'low' },
      { type: 'string', optional: true, field: 'name' },
      { type: 'int32', optional: false, field: 'n' },
    ],
  };
  const value = { id: BIG, low: MIN, name: 'Ada', n: 7 };

  it('writes a bigint INT64 as its digits and reads it back as the same bigint, schemas.enable false and true', () => {
    const plain = new JsonConverter({ 'schemas.enable': 'false' });
    const text = plain.fromConnectData('t', row, value);
    expect(text).toBe('{"id":4611686018427387907,"low":-9223372036854775808,"name":"Ada","n":7}');
    expect(plain.toConnectData('t', text)).toEqual({ schema: null, value, json: text });
    expect(plain.toConnectData('t', text).value).toStrictEqual({ id: BIG, low: MIN, name: 'Ada', n: 7 });

    const withSchema = new JsonConverter();
    const enveloped = withSchema.fromConnectData('t', row, value)!;
    expect(enveloped).toContain('"payload":{"id":4611686018427387907,"low":-9223372036854775808,"name":"Ada","n":7}');
    const back = withSchema.toConnectData('t', enveloped);
    expect(back.value).toStrictEqual({ id: BIG, low: MIN, name: 'Ada', n: 7 });
    expect(back.schema?.fields?.map((f) => f.type)).toEqual(['int64', 'int64', 'string', 'int32']);
    // the general path (an array of longs, a schemaless value) writes the digits too
    expect(plain.fromConnectData('t', { type: 'array', optional: false, items: { type: 'int64', optional: false } }, [BIG, 1])).toBe('[4611686018427387907,1]');
    expect(withSchema.fromConnectData('t', null, { id: BIG })).toBe('{"schema":null,"payload":{"id":4611686018427387907}}');
  });

  it('reads the text a real Debezium wrote: integers beyond 2^53 exact, every other number as before', () => {
    const text = '{"before":null,"after":{"id":4611686018427387907,"big_neg":-9223372036854775808,"small":9007199254740991,"price":1.5,"ts":1700000000000123},"op":"c"}';
    const { value } = new JsonConverter({ 'schemas.enable': 'false' }).toConnectData('t', text);
    expect(value).toStrictEqual({ before: null, after: { id: BIG, big_neg: MIN, small: 9007199254740991, price: 1.5, ts: 1700000000000123 }, op: 'c' });
    // a DOUBLE field holding an integer that long is a double, as Jackson's doubleValue() gives it
    const schemaText = '{"schema":{"type":"struct","fields":[{"type":"double","optional":false,"field":"d"},{"type":"int64","optional":false,"field":"id"}],"optional":false},"payload":{"d":12345678901234567890,"id":4611686018427387907}}';
    expect(new JsonConverter().toConnectData('t', schemaText).value).toStrictEqual({ d: Number('12345678901234567890'), id: BIG });
  });

  it('reads MicroTimestamps (16 digits) and INT64s beyond 2^53 side by side', () => {
    const micros = '{"created_at":1704164645000123,"id":4611686018427387907}';
    expect(new JsonConverter({ 'schemas.enable': 'false' }).toConnectData('t', micros).value).toStrictEqual({ created_at: 1704164645000123, id: BIG });
  });

  it('writes a bigint default of an INT64 field in the schema', () => {
    const s: Schema = { type: 'struct', optional: false, fields: [{ type: 'int64', optional: true, default: BIG, field: 'id' }] };
    expect(new JsonConverter().fromConnectData('t', s, { id: null })).toBe('{"schema":{"type":"struct","fields":[{"type":"int64","optional":true,"default":4611686018427387907,"field":"id"}],"optional":false},"payload":{"id":4611686018427387907}}');
  });
});
