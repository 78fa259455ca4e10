/**
 * org.apache.kafka.connect.transforms.Cast$Key / $Value (Kafka 3.9): `spec` is either one type
 * for the whole key/value or `field:type` pairs for top-level fields of a struct or map. Types:
 * int8, int16, int32, int64, float32, float64, boolean, string; bytes only to string (base64).
 * Number narrowing is Java's (int wraps, double→int saturates), string parsing Java's
 * (Integer.parseInt and friends), and a float32 result keeps the float's shortest decimal so it
 * prints as Java does. A long beyond 2^53 is a bigint (as JsonConverter reads it) and stays exact
 * through the casts to integers, boolean and string.
 */
import { DataException, type Schema, type SchemaType } from '../plugin.js';
import { narrowInteger } from '../../../common/exact-json.js';
import { ConfigException, key, NO_DEFAULT, replaceNullWithDefaultKey } from './config-def.js';
import { asField, bigDecimalLongValue, checkPut, copySchemaBasics, DATE, DECIMAL, decimalNumber, decimalString, fieldSchema, javaClass, javaDoubleString, javaFloatString, MILLIS_PER_DAY, own, copyMap, putEntry, requireMap, requireStruct, shortestFloat, structGet, TIME, TIMESTAMP, type Side } from './connect-data.js';
import { keyValueTransforms, sideTransformation } from './kafka-plugin.js';
import { javaSplitColon } from './replace-field.js';
import { SimpleDateFormat } from './simple-date-format.js';

const PURPOSE = 'cast types';
const INPUT_TYPES = ['int8', 'int16', 'int32', 'int64', 'float32', 'float64', 'boolean', 'string', 'bytes'];
const OUTPUT_TYPES = ['int8', 'int16', 'int32', 'int64', 'float32', 'float64', 'boolean', 'string'];
const JAVA_TYPES = ['INT8', 'INT16', 'INT32', 'INT64', 'FLOAT32', 'FLOAT64', 'BOOLEAN', 'STRING', 'BYTES', 'ARRAY', 'MAP', 'STRUCT'];
const upperList = (types: string[]) => `[${types.map((t) => t.toUpperCase()).join(', ')}]`;

/** The key under which a whole-value cast is kept (Java uses a null map key). */
const WHOLE = '\u0000whole';

function validCastType(type: string, output: boolean): SchemaType {
  const t = type.toLowerCase();
  if (output && !OUTPUT_TYPES.includes(t)) throw new ConfigException(`Cast transformation does not support casting to ${type.toUpperCase()}; supported types are ${upperList(OUTPUT_TYPES)}`);
  if (!output && !INPUT_TYPES.includes(t)) throw new DataException(`Cast transformation does not support casting from ${type.toUpperCase()}; supported types are ${upperList(INPUT_TYPES)}`);
  return t as SchemaType;
}

/** Schema.Type.valueOf(s.trim().toUpperCase(Locale.ROOT)) */
function schemaType(s: string): string {
  const t = s.trim().toUpperCase();
  if (!JAVA_TYPES.includes(t)) throw new ConfigException(`Invalid type found in casting spec: ${s.trim()}`);
  return t;
}

export function parseFieldTypes(mappings: string[]): Map<string, SchemaType> {
  const m = new Map<string, SchemaType>();
  let whole = false;
  for (const mapping of mappings) {
    const parts = javaSplitColon(mapping);
    if (parts.length > 2) throw ConfigException.invalid('renames', mappings, 'Invalid rename mapping: ' + mapping);
    if (parts.length === 1) {
      m.set(WHOLE, validCastType(schemaType(parts[0]!), true));
      whole = true;
    } else {
      m.set(parts[0]!.trim(), validCastType(schemaType(parts[1]!), true));
    }
  }
  if (whole && mappings.length > 1) throw new ConfigException('Cast transformations that specify a type to cast the entire value to may only specify a single cast in their spec');
  return m;
}

const SPECS = [
  key(
    'spec',
    'LIST',
    NO_DEFAULT,
    'HIGH',
    'List of fields and the type to cast them to of the form field1:type,field2:type to cast fields of Maps or Structs. A single type to cast the entire value. Valid types are int8, int16, int32, int64, float32, float64, boolean, and string. Note that binary fields can only be cast to string.',
    (_name, value) => {
      if (value === null || (value as string[]).length === 0) throw new ConfigException('Must specify at least one field to cast.');
      parseFieldTypes(value as string[]);
    },
  ),
  replaceNullWithDefaultKey(),
];

// ------------------------------------------------------------------------ the casts

/**
 * A value as Java would hold it for the cast: its Connect type and, for numbers, a JS number;
 * `i` is an integer's exact value where the number is not (a bigint long, a Decimal's longValue()).
 */
type Held = { kind: 'number'; n: number; i?: bigint; cls: string } | { kind: 'boolean'; b: boolean } | { kind: 'string'; s: string } | { kind: 'bytes'; base64: string } | { kind: 'date'; millis: number } | { kind: 'decimal'; n: number; i: bigint; text: string };

/** A held long: the number, and the bigint itself when it is one. */
const heldLong = (value: bigint, cls: string): Held => ({ kind: 'number', n: Number(value), i: value, cls });

function hold(value: unknown, schema: Schema | null, target: SchemaType): Held {
  if (schema) {
    if (schema.name === DECIMAL) {
      const text = decimalString(value, schema);
      return { kind: 'decimal', n: decimalNumber(value, schema), i: bigDecimalLongValue(text)!, text };
    }
    const logicalDate = schema.name === DATE || schema.name === TIME || schema.name === TIMESTAMP;
    // encodeLogicalType (all targets but string) gives days, millis of day or epoch millis:
    // the numbers Loupe already holds
    if (logicalDate && target === 'string') {
      const n = value instanceof Date ? value.getTime() : Number(value);
      return { kind: 'date', millis: schema.name === DATE && !(value instanceof Date) ? n * MILLIS_PER_DAY : n };
    }
    if (logicalDate) return { kind: 'number', n: value instanceof Date ? value.getTime() / (schema.name === DATE ? MILLIS_PER_DAY : 1) : Number(value), cls: schema.type };
    switch (schema.type) {
      case 'boolean':
        return { kind: 'boolean', b: value as boolean };
      case 'string':
        return { kind: 'string', s: value as string };
      case 'bytes':
        return { kind: 'bytes', base64: value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value) };
      default:
        return typeof value === 'bigint' ? heldLong(value, schema.type) : { kind: 'number', n: Number(value), cls: schema.type };
    }
  }
  if (typeof value === 'boolean') return { kind: 'boolean', b: value };
  if (typeof value === 'string') return { kind: 'string', s: value };
  if (value instanceof Uint8Array) return { kind: 'bytes', base64: Buffer.from(value).toString('base64') };
  if (typeof value === 'bigint') return heldLong(value, 'int64');
  return { kind: 'number', n: value as number, cls: Number.isInteger(value) ? 'int64' : 'float64' };
}

/** The schema type ConnectSchema.schemaType infers from the Java class, or null. */
function inferType(value: unknown): string | null {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'bigint') return 'int64';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Date) return null;
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'map';
  return null;
}

class OutOfRange extends Error {}

/** Integer.parseInt and friends: optional sign, decimal digits, in range (a long beyond 2^53 a bigint). */
function parseJavaInt(s: string, bits: number): number | bigint {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new OutOfRange();
  const n = BigInt(s);
  if (n < -(1n << BigInt(bits - 1)) || n >= 1n << BigInt(bits - 1)) throw new OutOfRange();
  return narrowInteger(n);
}

/** Double.parseDouble / Float.parseFloat (leading/trailing whitespace allowed, f/d suffixes). */
function parseJavaDouble(s: string): number {
  const t = s.trim();
  if (/^[+-]?(NaN|Infinity)$/.test(t)) return Number(t.replace('+', ''));
  const m = /^([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?$/.exec(t);
  if (!m) throw new OutOfRange();
  return Number(m[1]);
}

/**
 * Number.xValue() for a value held as `cls` (a long wraps; a double saturates to int/long first);
 * `exact` is an integer's exact value when it has one. A long beyond 2^53 comes out a bigint.
 */
function narrow(n: number, cls: string, bits: 8 | 16 | 32 | 64, exact?: bigint): number | bigint {
  const integral = cls === 'int8' || cls === 'int16' || cls === 'int32' || cls === 'int64';
  let i: bigint;
  if (integral) i = exact ?? BigInt(Math.trunc(n));
  else {
    // (byte)/(short) of a double goes through int; intValue/longValue saturate, NaN is 0
    const sat = bits === 64 ? 64 : 32;
    if (Number.isNaN(n)) i = 0n;
    else {
      const max = (1n << BigInt(sat - 1)) - 1n;
      const min = -(1n << BigInt(sat - 1));
      i = n >= Number(max) ? max : n <= Number(min) ? min : BigInt(Math.trunc(n));
    }
  }
  return narrowInteger(BigInt.asIntN(bits, i));
}

function castTo(h: Held, target: SchemaType, original: unknown): unknown {
  const unexpected = () => new DataException(`Unexpected type in Cast transformation: ${h.kind === 'bytes' ? 'class [B' : javaClass(original)}`);
  const bits = { int8: 8, int16: 16, int32: 32, int64: 64 } as const;
  switch (target) {
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64': {
      const b = bits[target];
      if (h.kind === 'number') return narrow(h.n, h.cls, b, h.i);
      if (h.kind === 'date') return narrow(h.millis, 'int64', b);
      if (h.kind === 'decimal') return narrow(Math.trunc(h.n), 'int64', b, h.i);
      if (h.kind === 'boolean') return h.b ? 1 : 0;
      if (h.kind === 'string') return parseJavaInt(h.s, b);
      throw unexpected();
    }
    case 'float32':
    case 'float64': {
      let d: number;
      if (h.kind === 'number' || h.kind === 'decimal') d = h.n;
      else if (h.kind === 'date') d = h.millis;
      else if (h.kind === 'boolean') d = h.b ? 1 : 0;
      else if (h.kind === 'string') d = parseJavaDouble(h.s);
      else throw unexpected();
      return target === 'float32' ? Number(shortestFloat(Math.fround(d))) : d;
    }
    case 'boolean':
      if (h.kind === 'number') return narrow(h.n, h.cls, 64, h.i) !== 0;
      if (h.kind === 'decimal') return BigInt.asIntN(64, h.i) !== 0n;
      if (h.kind === 'date') return h.millis !== 0;
      if (h.kind === 'boolean') return h.b;
      if (h.kind === 'string') return h.s.toLowerCase() === 'true';
      throw unexpected();
    case 'string':
      switch (h.kind) {
        case 'number':
          return h.cls === 'float64' ? javaDoubleString(h.n) : h.cls === 'float32' ? javaFloatString(h.n) : String(h.i ?? h.n);
        case 'decimal':
          return h.text;
        case 'boolean':
          return String(h.b);
        case 'string':
          return h.s;
        case 'bytes':
          return h.base64;
        case 'date':
          return dateFormatFor(h.millis);
      }
  }
  throw new DataException(`${target.toUpperCase()} is not supported in the Cast transformation.`);
}

/** Values.dateFormatFor: a time, a date, or a timestamp, by the value (the JVM zone taken as UTC). */
function dateFormatFor(millis: number): string {
  const pattern = millis < MILLIS_PER_DAY ? "HH:mm:ss.SSS'Z'" : millis % MILLIS_PER_DAY === 0 ? 'yyyy-MM-dd' : "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'";
  return new SimpleDateFormat(pattern).format(millis);
}

export function castValueToType(schema: Schema | null, value: unknown, target: SchemaType): unknown {
  if (value === null || value === undefined) return null;
  const inferred = schema ? schema.type : inferType(value);
  if (inferred === null) throw new DataException(`Cast transformation was passed a value of type ${javaClass(value)} which is not supported by Connect's data API`);
  validCastType(inferred, false);
  const h = hold(value, schema, target);
  try {
    return castTo(h, target, value);
  } catch (err) {
    if (err instanceof OutOfRange) throw new DataException(`Value (${h.kind === 'string' ? h.s : String(value)}) was out of range for requested data type`);
    throw err;
  }
}

export const [castKeyPlugin, castValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.Cast', SPECS, (c, side: Side) => {
  const casts = parseFieldTypes(c.spec as string[]);
  const whole = casts.get(WHOLE);
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  const cache = new WeakMap<Schema, Schema>();

  const buildSchema = (valueSchema: Schema): Schema => {
    let s = cache.get(valueSchema);
    if (s) return s;
    if (whole) s = copySchemaBasics(valueSchema, whole);
    else {
      s = copySchemaBasics(valueSchema, 'struct');
      s.fields = (valueSchema.fields ?? []).map((f) => {
        const t = casts.get(f.field!);
        if (!t) return f;
        const out: Schema = { type: t, optional: f.optional };
        if (f.default !== undefined && f.default !== null) out.default = castValueToType(fieldSchema(f), f.default, t);
        return asField(f.field!, out);
      });
    }
    if (valueSchema.optional) s.optional = true;
    if (valueSchema.default !== undefined && valueSchema.default !== null) s.default = castValueToType(valueSchema, valueSchema.default, s.type);
    cache.set(valueSchema, s);
    return s;
  };

  return sideTransformation(
    side,
    (value, record) => {
      if (whole) return side.with(record, null, castValueToType(null, value, whole));
      const map = requireMap(value, PURPOSE);
      const updated = copyMap(map);
      for (const [f, t] of casts) putEntry(updated, f, castValueToType(null, own(map, f) ?? null, t));
      return side.with(record, null, updated);
    },
    (value, schema, record) => {
      const updatedSchema = buildSchema(schema);
      if (whole) return side.with(record, updatedSchema, castValueToType(schema, value, whole));
      const struct = requireStruct(value, schema, PURPOSE);
      const updated: Record<string, unknown> = {};
      (schema.fields ?? []).forEach((f, i) => {
        const orig = structGet(struct, f, replaceNullWithDefault);
        const t = casts.get(f.field!);
        updated[f.field!] = checkPut(updatedSchema.fields![i]!, t ? castValueToType(fieldSchema(f), orig, t) : orig);
      });
      return side.with(record, updatedSchema, updated);
    },
  );
});
