/**
 * org.apache.kafka.connect.json.JsonConverter: with `schemas.enable=true` (the default) every
 * message is `{"schema": …, "payload": …}` where the schema is written exactly as JsonConverter
 * writes it (type, fields/items/keys/values, optional, name, version, doc, parameters, default,
 * and `field` last on struct fields); with `false` only the payload. Null schema and null value
 * serialize to a tombstone. `decimal.format` NUMERIC writes Decimal fields as JSON numbers
 * (BASE64, the default, as the base64 of the unscaled bytes), and `replace.null.with.default`
 * (default true) says whether a null field with a default is written, and read, as the default.
 *
 * An INT64 beyond 2^53 (a MySQL BIGINT snowflake id, say) is a JavaScript bigint in Connect data
 * and written as its digits, as Jackson writes a long; reading, a JSON integer beyond 2^53 comes
 * back as a bigint rather than the double JSON.parse would round it to (common/exact-json.ts,
 * where JSON.parse stays the parser of every text without such a number).
 */
import { parseExactJson, stringifyExactJson } from '../../../common/exact-json.js';
import { DataException, type Schema } from '../plugin.js';
import type { Converter, SchemaAndValue } from './converter.js';

export const JSON_CONVERTER_CLASS = 'org.apache.kafka.connect.json.JsonConverter';

/** How values are written: JsonConverterConfig's decimal.format and replace.null.with.default. */
export interface JsonOptions {
  numericDecimals: boolean;
  replaceNullWithDefault: boolean;
}
const DEFAULT_OPTIONS: JsonOptions = { numericDecimals: false, replaceNullWithDefault: true };
const DECIMAL = 'org.apache.kafka.connect.data.Decimal';

/** JSON text written as it is (a Decimal as a number keeps all its digits). */
class RawJson {
  constructor(readonly text: string) {}
}

/**
 * A Decimal as Jackson writes a BigDecimal number node (BigDecimal.toString): plain unless the
 * scale is negative or the adjusted exponent is below -6. The Connect value is the base64 of the
 * unscaled value's big-endian two's-complement bytes, as the Debezium source builds it.
 */
export function decimalText(base64: string, scale: number): string {
  const bytes = Buffer.from(base64, 'base64');
  let unscaled = 0n;
  for (const b of bytes) unscaled = (unscaled << 8n) | BigInt(b);
  if (bytes.length && bytes[0]! & 0x80) unscaled -= 1n << BigInt(bytes.length * 8);
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString();
  const sign = neg ? '-' : '';
  const adjusted = digits.length - 1 - scale;
  if (scale === 0) return sign + digits;
  if (scale > 0 && adjusted >= -6) {
    if (digits.length > scale) return `${sign}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    return `${sign}0.${'0'.repeat(scale - digits.length)}${digits}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
}

/** JSON.stringify, but RawJson values are written as their text (and bigints as their digits). */
function stringifyWithRaw(v: unknown): string | undefined {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map((x) => stringifyWithRaw(x) ?? 'null').join(',')}]`;
  if (v !== null && typeof v === 'object' && !(v instanceof Date) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
    const parts: string[] = [];
    for (const k of Object.keys(v)) {
      const t = stringifyWithRaw((v as Record<string, unknown>)[k]);
      if (t !== undefined) parts.push(`${JSON.stringify(k)}:${t}`);
    }
    return `{${parts.join(',')}}`;
  }
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

export function asJsonSchema(schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = { type: jsonTypeName(schema.type) };
  if (schema.type === 'array') out.items = schema.items ? asJsonSchema(schema.items) : null;
  if (schema.type === 'map') {
    out.keys = schema.keys ? asJsonSchema(schema.keys) : null;
    out.values = schema.values ? asJsonSchema(schema.values) : null;
  }
  if (schema.type === 'struct') out.fields = (schema.fields ?? []).map((f) => ({ ...asJsonSchema({ ...f, field: undefined }), field: f.field }));
  out.optional = schema.optional;
  if (schema.name !== undefined) out.name = schema.name;
  if (schema.version !== undefined) out.version = schema.version;
  if (schema.doc !== undefined) out.doc = schema.doc;
  if (schema.parameters !== undefined) out.parameters = { ...schema.parameters };
  if (schema.default !== undefined && schema.default !== null) out.default = convertToJson({ ...schema, default: undefined }, schema.default);
  return out;
}

/** Reads a JSON schema object back into a Schema (JsonConverter.asConnectSchema). */
export function asConnectSchema(json: unknown): Schema | null {
  if (json === null || json === undefined) return null;
  if (typeof json !== 'object' || Array.isArray(json)) throw new DataException('Schema must be an object');
  const j = json as Record<string, unknown>;
  const type = j.type;
  if (typeof type !== 'string') throw new DataException('Schema must contain \'type\' field');
  const known = ['boolean', 'int8', 'int16', 'int32', 'int64', 'float', 'double', 'bytes', 'string', 'array', 'map', 'struct'];
  if (!known.includes(type)) throw new DataException(`Unknown schema type: ${type}`);
  const s: Schema = { type: (type === 'float' ? 'float32' : type === 'double' ? 'float64' : type) as Schema['type'], optional: j.optional === true };
  if (typeof j.name === 'string') s.name = j.name;
  if (typeof j.version === 'number') s.version = j.version;
  if (typeof j.doc === 'string') s.doc = j.doc;
  if (j.parameters && typeof j.parameters === 'object') s.parameters = j.parameters as Record<string, string>;
  if ('default' in j) s.default = j.default;
  if (s.type === 'struct') {
    if (!Array.isArray(j.fields)) throw new DataException('Struct schema\'s "fields" argument is not an array.');
    s.fields = (j.fields as Record<string, unknown>[]).map((f) => {
      if (typeof f.field !== 'string') throw new DataException('Struct schema\'s field name not specified properly: ' + JSON.stringify(f));
      return { ...asConnectSchema(f)!, field: f.field };
    });
  }
  if (s.type === 'array') s.items = asConnectSchema(j.items) ?? undefined;
  if (s.type === 'map') {
    s.keys = asConnectSchema(j.keys) ?? undefined;
    s.values = asConnectSchema(j.values) ?? undefined;
  }
  return s;
}

/** Kafka's JSON schema type names: float32/float64 are written "float"/"double". */
function jsonTypeName(t: Schema['type']): string {
  return t === 'float32' ? 'float' : t === 'float64' ? 'double' : t;
}

export function convertToJson(schema: Schema | null, value: unknown, opts: JsonOptions = DEFAULT_OPTIONS): unknown {
  if (value === null || value === undefined) {
    if (!schema) return null;
    if (schema.default !== undefined && schema.default !== null && opts.replaceNullWithDefault) return convertToJson({ ...schema, default: undefined }, schema.default, opts);
    if (schema.optional) return null;
    throw new DataException('Conversion error: null value for field that is required and has no default value');
  }
  if (!schema) return value;
  if (opts.numericDecimals && schema.name === DECIMAL && typeof value === 'string') return new RawJson(decimalText(value, Number(schema.parameters?.scale ?? 0)));
  switch (schema.type) {
    case 'struct': {
      const obj = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const f of schema.fields ?? []) out[f.field!] = convertToJson(f, obj[f.field!], opts);
      return out;
    }
    case 'array':
      return (value as unknown[]).map((v) => convertToJson(schema.items ?? null, v, opts));
    case 'map': {
      const obj = value as Record<string, unknown>;
      if (schema.keys?.type === 'string') return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, convertToJson(schema.values ?? null, v, opts)]));
      return Object.entries(obj).map(([k, v]) => [k, convertToJson(schema.values ?? null, v, opts)]);
    }
    default:
      return value;
  }
}

/** The text of convertToJson's result (RawJson values written as they are). */
export function jsonText(schema: Schema | null, value: unknown, opts: JsonOptions = DEFAULT_OPTIONS): string | undefined {
  const json = convertToJson(schema, value, opts);
  return opts.numericDecimals ? stringifyWithRaw(json) : (stringifyExactJson(json) as string | undefined);
}

/**
 * JsonConverter.convertToConnect's null handling for a payload read with its schema: a null (or
 * missing) field with a default reads as the default when replace.null.with.default is on, and a
 * null in a required field without one is an error.
 */
export function withDefaults(schema: Schema | null, value: unknown, opts: JsonOptions = DEFAULT_OPTIONS): unknown {
  if (!schema) return value;
  if (value === null || value === undefined) {
    if (schema.default !== undefined && schema.default !== null && opts.replaceNullWithDefault) return schema.default;
    if (schema.optional) return null;
    throw new DataException(`Invalid null value for required ${schemaTypeName(schema.type)} field`);
  }
  switch (schema.type) {
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      let out: Record<string, unknown> | undefined;
      for (const f of schema.fields ?? []) {
        const v = (value as Record<string, unknown>)[f.field!];
        const w = withDefaults(f, v, opts);
        if (w !== v) (out ??= { ...(value as Record<string, unknown>) })[f.field!] = w;
      }
      return out ?? value;
    }
    case 'array':
      return Array.isArray(value) ? value.map((v) => withDefaults(schema.items ?? null, v, opts)) : value;
    case 'float32':
    case 'float64':
      // an integer beyond 2^53 in a FLOAT/DOUBLE field is read as a bigint; Jackson's doubleValue()
      return typeof value === 'bigint' ? Number(value) : value;
    default:
      return value;
  }
}

/** Schema.Type's enum name, as Java prints it in messages. */
function schemaTypeName(t: Schema['type']): string {
  return t.toUpperCase();
}

/**
 * `JSON.stringify(convertToJson(schema, value))` without building the converted object: a
 * serializer compiled once per schema object (schemas are not changed once records use them).
 * Structs of primitive fields (nested structs too) are written field by field; anything the
 * compiled form cannot reproduce exactly — arrays, maps, a field name V8 would reorder (an
 * array index) or treat specially (`__proto__`), a duplicate name, a value that is not a string,
 * number, bigint or boolean — takes the general path for the whole value. Byte-identical by construction
 * and by test (json-converter.test.ts).
 */
export function payloadJson(schema: Schema, value: unknown, opts: JsonOptions = DEFAULT_OPTIONS): string | undefined {
  const cache = compiledFor(opts);
  let ser = cache.get(schema);
  if (!ser) cache.set(schema, (ser = compile(schema, opts)));
  if (ser !== GENERAL) {
    try {
      return ser(value);
    } catch (err) {
      if (err !== FALLBACK) throw err;
    }
  }
  return jsonText(schema, value, opts);
}

type Serializer = (value: unknown) => string;
const FALLBACK = Symbol('general path');
const GENERAL: Serializer = () => {
  throw FALLBACK;
};
/** Compiled serializers per schema object, one cache per combination of options (index: 2 bits). */
const compiled: WeakMap<Schema, Serializer>[] = [new WeakMap(), new WeakMap(), new WeakMap(), new WeakMap()];
function compiledFor(opts: JsonOptions): WeakMap<Schema, Serializer> {
  return compiled[(opts.numericDecimals ? 2 : 0) + (opts.replaceNullWithDefault ? 1 : 0)]!;
}
const PRIMITIVE = new Set<Schema['type']>(['int8', 'int16', 'int32', 'int64', 'float32', 'float64', 'boolean', 'string']);
/** Property names V8 orders before the others (array indices). */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** What convertToJson gives for a null or undefined value, as JSON text. */
function nullJson(schema: Schema, opts: JsonOptions): string {
  if (schema.default !== undefined && schema.default !== null && opts.replaceNullWithDefault) throw FALLBACK;
  if (schema.optional) return 'null';
  throw new DataException('Conversion error: null value for field that is required and has no default value');
}

function compile(schema: Schema, opts: JsonOptions): Serializer {
  if (opts.numericDecimals && schema.name === DECIMAL) {
    const scale = Number(schema.parameters?.scale ?? 0);
    return (v) => {
      if (typeof v === 'string') return decimalText(v, scale);
      if (v === null || v === undefined) return nullJson(schema, opts);
      throw FALLBACK;
    };
  }
  if (PRIMITIVE.has(schema.type)) {
    return (v) => {
      switch (typeof v) {
        case 'string':
          return JSON.stringify(v);
        case 'number':
          return Number.isFinite(v) ? String(v) : 'null';
        case 'bigint':
          return v.toString();
        case 'boolean':
          return v ? 'true' : 'false';
        default:
          if (v === null || v === undefined) return nullJson(schema, opts);
          throw FALLBACK;
      }
    };
  }
  if (schema.type !== 'struct') return GENERAL;
  const names = (schema.fields ?? []).map((f) => f.field ?? '');
  if (new Set(names).size !== names.length || names.some((n) => ARRAY_INDEX.test(n) && Number(n) < 2 ** 32 - 1) || names.includes('__proto__')) return GENERAL;
  const fields = (schema.fields ?? []).map((f, i) => ({ name: names[i]!, prefix: (i === 0 ? '{' : ',') + JSON.stringify(names[i]) + ':', ser: compile(f, opts) }));
  if (fields.some((f) => f.ser === GENERAL)) return GENERAL;
  return (value) => {
    if (value === null || value === undefined) return nullJson(schema, opts);
    if (fields.length === 0) return '{}';
    let out = '';
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      out += f.prefix + f.ser((value as Record<string, unknown>)[f.name]);
    }
    return out + '}';
  };
}

/** A schema as JsonConverter writes it, as JSON text; once per schema object. */
const schemaTexts = new WeakMap<Schema, string>();
function schemaJson(schema: Schema): string {
  let text = schemaTexts.get(schema);
  // (a default may be a bigint)
  if (text === undefined) schemaTexts.set(schema, (text = stringifyExactJson(asJsonSchema(schema))));
  return text;
}

export class JsonConverter implements Converter {
  readonly class = JSON_CONVERTER_CLASS;
  readonly schemasEnable: boolean;
  private readonly opts: JsonOptions;

  constructor(config: Record<string, string> = {}) {
    const v = (config['schemas.enable'] ?? 'true').trim().toLowerCase();
    this.schemasEnable = v !== 'false';
    this.opts = {
      numericDecimals: (config['decimal.format'] ?? 'BASE64').trim().toUpperCase() === 'NUMERIC',
      replaceNullWithDefault: (config['replace.null.with.default'] ?? 'true').trim().toLowerCase() !== 'false',
    };
  }

  fromConnectData(_topic: string, schema: Schema | null, value: unknown): string | null {
    if (schema === null && (value === null || value === undefined)) return null;
    if (schema === null) return stringifyExactJson(this.schemasEnable ? { schema: null, payload: value } : value);
    const payload = payloadJson(schema, value, this.opts);
    // (undefined only for a value JSON cannot write, such as a function: the general path says what happens)
    if (payload === undefined) return this.schemasEnable ? stringifyExactJson({ schema: asJsonSchema(schema), payload: convertToJson(schema, value, this.opts) }) : (stringifyExactJson(convertToJson(schema, value, this.opts)) as string | null);
    if (!this.schemasEnable) return payload;
    // what JSON.stringify({schema, payload}) writes
    return `{"schema":${schemaJson(schema)},"payload":${payload}}`;
  }

  toConnectData(_topic: string, text: string | null): SchemaAndValue {
    if (text === null) return { schema: null, value: null };
    let json: unknown;
    try {
      json = parseExactJson(text);
    } catch (err) {
      throw new DataException(`Converting byte[] to Kafka Connect data failed due to serialization error: ${(err as Error).message}`);
    }
    if (!this.schemasEnable) return json !== null && typeof json === 'object' && !Array.isArray(json) ? { schema: null, value: json, json: text } : { schema: null, value: json };
    if (json === null || typeof json !== 'object' || Array.isArray(json) || Object.keys(json).length !== 2 || !('schema' in json) || !('payload' in json)) {
      throw new DataException(
        'JsonConverter with schemas.enable requires "schema" and "payload" fields and may not contain additional fields. If you are trying to deserialize plain JSON data, set schemas.enable=false in your converter configuration.',
      );
    }
    const env = json as { schema: unknown; payload: unknown };
    const schema = asConnectSchema(env.schema);
    return { schema, value: withDefaults(schema, env.payload, this.opts) };
  }
}
