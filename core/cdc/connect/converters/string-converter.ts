/**
 * org.apache.kafka.connect.storage.StringConverter: values become their string form (a struct
 * prints as Java's `Struct{a=1,b=x}`); reading gives an optional string.
 */
import type { Schema } from '../plugin.js';
import type { Converter, SchemaAndValue } from './converter.js';

export const STRING_CONVERTER_CLASS = 'org.apache.kafka.connect.storage.StringConverter';

export class StringConverter implements Converter {
  readonly class = STRING_CONVERTER_CLASS;
  fromConnectData(_topic: string, _schema: Schema | null, value: unknown): string | null {
    if (value === null || value === undefined) return null;
    return javaToString(value);
  }
  toConnectData(_topic: string, text: string | null): SchemaAndValue {
    return { schema: { type: 'string', optional: true }, value: text };
  }
}

function javaToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(javaToString).join(', ')}]`;
  if (typeof v === 'object') return `Struct{${Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => `${k}=${javaToString(x)}`).join(',')}}`;
  return String(v);
}
