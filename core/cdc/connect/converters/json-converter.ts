/**
 * org.apache.kafka.connect.json.JsonConverter: with `schemas.enable=true` (the default) every
 * message is `{"schema": …, "payload": …}` where the schema is written exactly as JsonConverter
 * writes it (type, fields/items/keys/values, optional, name, version, doc, parameters, default,
 * and `field` last on struct fields); with `false` only the payload. Null schema and null value
 * serialize to a tombstone.
 */
import { DataException, type Schema } from '../plugin.js';
import type { Converter, SchemaAndValue } from './converter.js';

export const JSON_CONVERTER_CLASS = 'org.apache.kafka.connect.json.JsonConverter';

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

export function convertToJson(schema: Schema | null, value: unknown): unknown {
  if (value === null || value === undefined) {
    if (!schema) return null;
    if (schema.default !== undefined && schema.default !== null) return convertToJson({ ...schema, default: undefined }, schema.default);
    if (schema.optional) return null;
    throw new DataException('Conversion error: null value for field that is required and has no default value');
  }
  if (!schema) return value;
  switch (schema.type) {
    case 'struct': {
      const obj = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const f of schema.fields ?? []) out[f.field!] = convertToJson(f, obj[f.field!]);
      return out;
    }
    case 'array':
      return (value as unknown[]).map((v) => convertToJson(schema.items ?? null, v));
    case 'map': {
      const obj = value as Record<string, unknown>;
      if (schema.keys?.type === 'string') return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, convertToJson(schema.values ?? null, v)]));
      return Object.entries(obj).map(([k, v]) => [k, convertToJson(schema.values ?? null, v)]);
    }
    default:
      return value;
  }
}

/**
 * `JSON.stringify(convertToJson(schema, value))` without building the converted object: a
 * serializer compiled once per schema object (schemas are not changed once records use them).
 * Structs of primitive fields (nested structs too) are written field by field; anything the
 * compiled form cannot reproduce exactly — arrays, maps, a field name V8 would reorder (an
 * array index) or treat specially (`__proto__`), a duplicate name, a value that is not a string,
 * number or boolean — takes the general path for the whole value. Byte-identical by construction
 * and by test (json-converter.test.ts).
 */
export function payloadJson(schema: Schema, value: unknown): string | undefined {
  let ser = compiled.get(schema);
  if (!ser) compiled.set(schema, (ser = compile(schema)));
  if (ser !== GENERAL) {
    try {
      return ser(value);
    } catch (err) {
      if (err !== FALLBACK) throw err;
    }
  }
  return JSON.stringify(convertToJson(schema, value));
}

type Serializer = (value: unknown) => string;
const FALLBACK = Symbol('general path');
const GENERAL: Serializer = () => {
  throw FALLBACK;
};
const compiled = new WeakMap<Schema, Serializer>();
const PRIMITIVE = new Set<Schema['type']>(['int8', 'int16', 'int32', 'int64', 'float32', 'float64', 'boolean', 'string']);
/** Property names V8 orders before the others (array indices). */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** What convertToJson gives for a null or undefined value, as JSON text. */
function nullJson(schema: Schema): string {
  if (schema.default !== undefined && schema.default !== null) throw FALLBACK;
  if (schema.optional) return 'null';
  throw new DataException('Conversion error: null value for field that is required and has no default value');
}

function compile(schema: Schema): Serializer {
  if (PRIMITIVE.has(schema.type)) {
    return (v) => {
      switch (typeof v) {
        case 'string':
          return JSON.stringify(v);
        case 'number':
          return Number.isFinite(v) ? String(v) : 'null';
        case 'boolean':
          return v ? 'true' : 'false';
        default:
          if (v === null || v === undefined) return nullJson(schema);
          throw FALLBACK;
      }
    };
  }
  if (schema.type !== 'struct') return GENERAL;
  const names = (schema.fields ?? []).map((f) => f.field ?? '');
  if (new Set(names).size !== names.length || names.some((n) => ARRAY_INDEX.test(n) && Number(n) < 2 ** 32 - 1) || names.includes('__proto__')) return GENERAL;
  const fields = (schema.fields ?? []).map((f, i) => ({ name: names[i]!, prefix: (i === 0 ? '{' : ',') + JSON.stringify(names[i]) + ':', ser: compile(f) }));
  if (fields.some((f) => f.ser === GENERAL)) return GENERAL;
  return (value) => {
    if (value === null || value === undefined) return nullJson(schema);
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
  if (text === undefined) schemaTexts.set(schema, (text = JSON.stringify(asJsonSchema(schema))));
  return text;
}

export class JsonConverter implements Converter {
  readonly class = JSON_CONVERTER_CLASS;
  readonly schemasEnable: boolean;

  constructor(config: Record<string, string> = {}) {
    const v = (config['schemas.enable'] ?? 'true').trim().toLowerCase();
    this.schemasEnable = v !== 'false';
  }

  fromConnectData(_topic: string, schema: Schema | null, value: unknown): string | null {
    if (schema === null && (value === null || value === undefined)) return null;
    if (schema === null) return JSON.stringify(this.schemasEnable ? { schema: null, payload: value } : value);
    const payload = payloadJson(schema, value);
    // (undefined only for a value JSON cannot write, such as a function: the general path says what happens)
    if (payload === undefined) return this.schemasEnable ? JSON.stringify({ schema: asJsonSchema(schema), payload: convertToJson(schema, value) }) : (JSON.stringify(convertToJson(schema, value)) as string | null);
    if (!this.schemasEnable) return payload;
    // what JSON.stringify({schema, payload}) writes
    return `{"schema":${schemaJson(schema)},"payload":${payload}}`;
  }

  toConnectData(_topic: string, text: string | null): SchemaAndValue {
    if (text === null) return { schema: null, value: null };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new DataException(`Converting byte[] to Kafka Connect data failed due to serialization error: ${(err as Error).message}`);
    }
    if (!this.schemasEnable) return { schema: null, value: json };
    if (json === null || typeof json !== 'object' || Array.isArray(json) || Object.keys(json).length !== 2 || !('schema' in json) || !('payload' in json)) {
      throw new DataException(
        'JsonConverter with schemas.enable requires "schema" and "payload" fields and may not contain additional fields. If you are trying to deserialize plain JSON data, set schemas.enable=false in your converter configuration.',
      );
    }
    const env = json as { schema: unknown; payload: unknown };
    return { schema: asConnectSchema(env.schema), value: env.payload };
  }
}
