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

export class JsonConverter implements Converter {
  readonly class = JSON_CONVERTER_CLASS;
  readonly schemasEnable: boolean;

  constructor(config: Record<string, string> = {}) {
    const v = (config['schemas.enable'] ?? 'true').trim().toLowerCase();
    this.schemasEnable = v !== 'false';
  }

  fromConnectData(_topic: string, schema: Schema | null, value: unknown): string | null {
    if (schema === null && (value === null || value === undefined)) return null;
    const payload = convertToJson(schema, value);
    if (!this.schemasEnable) return JSON.stringify(payload);
    return JSON.stringify({ schema: schema ? asJsonSchema(schema) : null, payload });
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
