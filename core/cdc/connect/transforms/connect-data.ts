/**
 * Helpers the Kafka SMTs share (apache/kafka tag 3.9.0-rc3): util/Requirements, util/SchemaUtil,
 * the Struct get/put rules of connect-api, field/SingleFieldPath, and the Java runtime class a
 * Connect value would have, which several DataException texts print.
 *
 * Values follow Loupe's data model (see plugin.ts): a Struct is a plain object described by a
 * struct Schema, a Map a plain object with no schema or a map schema, bytes a base64 string,
 * Date/Time/Timestamp logical values the numbers JsonConverter writes (days, millis of day,
 * epoch millis). Without a schema Kafka infers types from the Java class, and JsonConverter
 * reads JSON integers as Long and other numbers as Double, so those are the classes used here.
 */
import { DataException, type ConnectRecord, type Schema, type SinkRecord } from '../plugin.js';
import { ConfigException, caseInsensitiveValidString, key, type KeySpec } from './config-def.js';

export const DECIMAL = 'org.apache.kafka.connect.data.Decimal';
export const DATE = 'org.apache.kafka.connect.data.Date';
export const TIME = 'org.apache.kafka.connect.data.Time';
export const TIMESTAMP = 'org.apache.kafka.connect.data.Timestamp';

export const MILLIS_PER_DAY = 86_400_000;

/** A schemaless map: a plain object (not an array, bytes or a Date). */
export function isMapValue(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);
}

/** Class.getName() of the Java object Connect would hold for `v` (under `schema` when given). */
export function javaClassName(v: unknown, schema?: Schema | null): string {
  if (v === null || v === undefined) return 'null';
  if (schema) {
    if (schema.name === DECIMAL) return 'java.math.BigDecimal';
    if (schema.name === DATE || schema.name === TIME || schema.name === TIMESTAMP) return 'java.util.Date';
    switch (schema.type) {
      case 'int8':
        return 'java.lang.Byte';
      case 'int16':
        return 'java.lang.Short';
      case 'int32':
        return 'java.lang.Integer';
      case 'int64':
        return 'java.lang.Long';
      case 'float32':
        return 'java.lang.Float';
      case 'float64':
        return 'java.lang.Double';
      case 'boolean':
        return 'java.lang.Boolean';
      case 'string':
        return 'java.lang.String';
      case 'bytes':
        return '[B';
      case 'array':
        return 'java.util.ArrayList';
      case 'map':
        return 'java.util.HashMap';
      case 'struct':
        return 'org.apache.kafka.connect.data.Struct';
    }
  }
  if (v instanceof Date) return 'java.util.Date';
  if (v instanceof Uint8Array) return '[B';
  if (Array.isArray(v)) return 'java.util.ArrayList';
  switch (typeof v) {
    case 'string':
      return 'java.lang.String';
    case 'boolean':
      return 'java.lang.Boolean';
    case 'number':
      return Number.isInteger(v) ? 'java.lang.Long' : 'java.lang.Double';
    case 'bigint':
      return 'java.lang.Long';
    case 'object':
      return 'java.util.HashMap';
    default:
      return 'java.lang.Object';
  }
}

/** Class.toString(): "class java.lang.String" (an array class prints the same way: "class [B"). */
export function javaClass(v: unknown, schema?: Schema | null): string {
  return `class ${javaClassName(v, schema)}`;
}

// ------------------------------------------------------------------------ Requirements

export function requireSchema(schema: Schema | null | undefined, purpose: string): Schema {
  if (!schema) throw new DataException(`Schema required for [${purpose}]`);
  return schema;
}

export function requireMap(value: unknown, purpose: string): Record<string, unknown> {
  if (!isMapValue(value)) throw new DataException(`Only Map objects supported in absence of schema for [${purpose}], found: ${javaClassName(value)}`);
  return value;
}

export function requireMapOrNull(value: unknown, purpose: string): Record<string, unknown> | null {
  return value === null || value === undefined ? null : requireMap(value, purpose);
}

/** A value is a Struct when its schema is a struct schema and it is an object. */
export function requireStruct(value: unknown, schema: Schema | null | undefined, purpose: string): Record<string, unknown> {
  if (!schema || schema.type !== 'struct' || !isMapValue(value)) throw new DataException(`Only Struct objects supported for [${purpose}], found: ${javaClassName(value, schema)}`);
  return value;
}

export function requireStructOrNull(value: unknown, schema: Schema | null | undefined, purpose: string): Record<string, unknown> | null {
  return value === null || value === undefined ? null : requireStruct(value, schema, purpose);
}

export function isSinkRecord(record: ConnectRecord): record is SinkRecord {
  return 'kafkaOffset' in record;
}

export function requireSinkRecord(record: ConnectRecord, purpose: string): SinkRecord {
  if (!isSinkRecord(record)) throw new DataException(`Only SinkRecord supported for [${purpose}], found: org.apache.kafka.connect.source.SourceRecord`);
  return record;
}

// ------------------------------------------------------------------------ schemas and structs

/** SchemaUtil.copySchemaBasics onto a new builder: name, version, doc, parameters; not optional, no default. */
export function copySchemaBasics(source: Schema, type: Schema['type'] = 'struct'): Schema {
  const out: Schema = { type, optional: false };
  if (source.name !== undefined) out.name = source.name;
  if (source.version !== undefined) out.version = source.version;
  if (source.doc !== undefined) out.doc = source.doc;
  if (source.parameters !== undefined) out.parameters = { ...source.parameters };
  return out;
}

/** SchemaBuilder.field(name, schema): the schema under a (new) field name. */
export function asField(name: string, schema: Schema): Schema {
  const { field: _drop, ...rest } = schema;
  return { ...rest, field: name };
}

/** A field's schema with no field name, as Field.schema() gives it. */
export function fieldSchema(field: Schema): Schema {
  const { field: _drop, ...rest } = field;
  return rest;
}

export function findField(schema: Schema | null | undefined, name: string): Schema | undefined {
  return schema?.fields?.find((f) => f.field === name);
}

/** Struct.get (withDefault) or Struct.getWithoutDefault. */
export function structGet(struct: Record<string, unknown>, field: Schema, withDefault: boolean): unknown {
  const v = struct[field.field!];
  if ((v === null || v === undefined) && withDefault && field.default !== undefined && field.default !== null) return field.default;
  return v ?? null;
}

/** Struct.put's check (ConnectSchema.validateValue) for the case the SMTs can hit: null in a required field. */
export function checkPut(field: Schema, value: unknown): unknown {
  if ((value === null || value === undefined) && !field.optional) {
    throw new DataException(`Invalid value: null used for required field: "${field.field}", schema type: ${field.type.toUpperCase()}`);
  }
  return value ?? null;
}

/** ConnectSchema.toString */
export function schemaString(schema: Schema): string {
  return schema.name !== undefined ? `Schema{${schema.name}:${schema.type.toUpperCase()}}` : `Schema{${schema.type.toUpperCase()}}`;
}

// ------------------------------------------------------------------------ key / value side

export interface Side {
  schema(record: ConnectRecord): Schema | null;
  value(record: ConnectRecord): unknown;
  /** ConnectRecord.newRecord with this side replaced (headers, offsets and the rest kept). */
  with<R extends ConnectRecord>(record: R, schema: Schema | null, value: unknown): R;
}

export const KEY: Side = {
  schema: (r) => r.keySchema,
  value: (r) => r.key,
  with: (r, schema, value) => ({ ...r, keySchema: schema, key: value }),
};

export const VALUE: Side = {
  schema: (r) => r.valueSchema,
  value: (r) => r.value,
  with: (r, schema, value) => ({ ...r, valueSchema: schema, value }),
};

// ------------------------------------------------------------------------ field paths (KIP-821)

export const FIELD_SYNTAX_VERSION_DOC =
  'Defines the version of the syntax to access fields. If set to `V1`, then the field paths are limited to access the elements at the root level of the struct or map. If set to `V2`, the syntax will support accessing nested elements. To access nested elements, dotted notation is used. If dots are already included in the field name, then backtick pairs can be used to wrap field names containing dots. E.g. to access the subfield `baz` from a field named "foo.bar" in a struct/map the following format can be used to access its elements: "`foo.bar`.baz".';

/** FieldSyntaxVersion.appendConfigTo */
export const fieldSyntaxVersionKey = (): KeySpec => key('field.syntax.version', 'STRING', 'V1', 'HIGH', FIELD_SYNTAX_VERSION_DOC, caseInsensitiveValidString('V1', 'V2'));

/** org.apache.kafka.connect.transforms.field.SingleFieldPath */
export class SingleFieldPath {
  readonly steps: readonly string[];

  constructor(path: string, version: 'V1' | 'V2') {
    this.steps = version === 'V1' ? [path] : SingleFieldPath.v2(path);
  }

  private static v2(path: string): string[] {
    const steps: string[] = [];
    const fail = (at: number): never => {
      throw new ConfigException(`Incomplete backtick pair in path: [${path}], consider adding a backslash before backtick at position ${at} to escape it`);
    };
    let idx = 0;
    while (idx < path.length && idx >= 0) {
      if (path[idx] !== '`') {
        const start = idx;
        idx = path.indexOf('.', idx);
        if (idx >= 0) {
          steps.push(path.slice(start, idx));
          idx++;
        } else steps.push(path.slice(start));
      } else {
        const backtickAt = idx;
        idx++;
        let field = '';
        let start = idx;
        for (;;) {
          idx = path.indexOf('`', idx);
          if (idx === -1) fail(backtickAt);
          const escaped = path[idx - 1] === '\\';
          if (idx >= path.length - 1) {
            if (escaped) fail(backtickAt);
            field += path.slice(start, idx);
            steps.push(field);
            idx++;
            break;
          }
          if (path[idx + 1] !== '.') {
            idx++;
            continue;
          }
          if (escaped) {
            field += path.slice(start, idx - 1) + '`';
            idx++;
            start = idx;
            continue;
          }
          field += path.slice(start, idx);
          steps.push(field);
          idx += 2;
          break;
        }
      }
    }
    if (path.length > 0 && path.endsWith('.')) steps.push('');
    return steps;
  }

  private get last(): string {
    return this.steps[this.steps.length - 1]!;
  }

  /** fieldFrom: the field at the path, or undefined. */
  fieldFrom(schema: Schema | null): Schema | undefined {
    if (!schema) return undefined;
    let current: Schema = schema;
    for (const step of this.steps.slice(0, -1)) {
      const f = findField(current, step);
      if (!f) return undefined;
      current = f;
    }
    return findField(current, this.last);
  }

  valueFromStruct(schema: Schema, struct: Record<string, unknown> | null, withDefault: boolean): unknown {
    if (!struct) return null;
    let current = struct;
    let currentSchema = schema;
    for (const step of this.steps.slice(0, -1)) {
      const f = findField(currentSchema, step);
      if (!f) return null;
      const next = requireStructOrNull(structGet(current, f, true), f, 'nested field access');
      if (!next) return null;
      current = next;
      currentSchema = f;
    }
    const f = findField(currentSchema, this.last);
    return f ? structGet(current, f, withDefault) : null;
  }

  valueFromMap(map: Record<string, unknown> | null): unknown {
    if (!map) return null;
    let current = map;
    for (const step of this.steps.slice(0, -1)) {
      const next = requireMapOrNull(own(current, step), 'nested field access');
      if (!next) return null;
      current = next;
    }
    return own(current, this.last) ?? null;
  }
}

/** Map.get: only the map's own entries. */
export function own(map: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(map, k) ? map[k] : undefined;
}

/** `new HashMap<>(map)` with `put` semantics safe for any key (including __proto__). */
export function copyMap(map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(map)) putEntry(out, k, map[k]);
  return out;
}

export function putEntry(map: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(map, k, { value: v, enumerable: true, writable: true, configurable: true });
}

// ------------------------------------------------------------------------ Java number texts

/** Double.toString */
export function javaDoubleString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  return sciOrPlain(d, String(Math.abs(d)).includes('e') ? Math.abs(d).toExponential() : String(Math.abs(d)), d < 0);
}

/** Float.toString of a float32 value: the shortest decimal that reads back as the same float. */
export function javaFloatString(f: number): string {
  const x = Math.fround(f);
  if (!Number.isFinite(x) || x === 0) return javaDoubleString(x);
  return sciOrPlain(x, shortestFloat(Math.abs(x)), x < 0);
}

/** The shortest decimal (as a JS number text) that Math.fround maps to the same float32. */
export function shortestFloat(x: number): string {
  for (let p = 1; p <= 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) return String(Number(s));
  }
  return String(x);
}

/** Java prints plain decimals for 1e-3 <= |d| < 1e7, else computerized scientific notation. */
function sciOrPlain(d: number, digits: string, negative: boolean): string {
  const abs = Math.abs(d);
  const sign = negative ? '-' : '';
  const n = Number(digits);
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = n.toFixed(Math.max(0, decimals(n)));
    return sign + (plain.includes('.') ? plain : plain + '.0');
  }
  const [mant, exp] = n.toExponential().split('e') as [string, string];
  return `${sign}${mant.includes('.') ? mant : mant + '.0'}E${Number(exp)}`;
}

function decimals(n: number): number {
  const s = String(n);
  if (s.includes('e')) {
    const [m, e] = s.split('e') as [string, string];
    const frac = m.includes('.') ? m.split('.')[1]!.length : 0;
    return Math.max(0, frac - Number(e));
  }
  return s.includes('.') ? s.split('.')[1]!.length : 0;
}

// ------------------------------------------------------------------------ Decimal

/** A Connect Decimal (base64 two's-complement unscaled bytes, `scale` parameter) as BigDecimal.toString prints it. */
export function decimalString(value: unknown, schema: Schema): string {
  const scale = Number(schema.parameters?.scale ?? 0);
  const unscaled = decimalUnscaled(value);
  // BigDecimal.toString: plain when scale >= 0 and the adjusted exponent >= -6, else scientific
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString();
  const sign = unscaled < 0n ? '-' : '';
  const adjusted = digits.length - 1 - scale;
  if (scale >= 0 && adjusted >= -6) {
    if (scale === 0) return sign + digits;
    const padded = digits.padStart(scale + 1, '0');
    return `${sign}${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  }
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mant}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
}

/**
 * BigDecimal.longValue() of a decimal text (`new BigDecimal(text)`'s syntax: sign, digits with an
 * optional point, exponent): the low 64 bits of the integer part, exactly; undefined for another text.
 */
export function bigDecimalLongValue(text: string): bigint | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const digits = m[2]! + (m[3] ?? '');
  const point = m[2]!.length + Number(m[4] ?? 0);
  // 64 zeros appended: a multiple of 10^64, so of 2^64
  if (point - digits.length >= 64) return 0n;
  const int = point <= 0 ? '0' : point >= digits.length ? digits + '0'.repeat(point - digits.length) : digits.slice(0, point);
  return BigInt.asIntN(64, BigInt((m[1] === '-' ? '-' : '') + int));
}

export function decimalNumber(value: unknown, schema: Schema): number {
  return Number(decimalString(value, schema));
}

function decimalUnscaled(value: unknown): bigint {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(String(value), 'base64');
  if (bytes.length === 0) return 0n;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  if (bytes[0]! & 0x80) n -= 1n << BigInt(bytes.length * 8);
  return n;
}
