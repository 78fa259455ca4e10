/** Converter lookup by class name (Kafka Connect accepts the simple name as an alias too). */
import type { Converter } from './converter.js';
import { JSON_CONVERTER_CLASS, JsonConverter } from './json-converter.js';
import { STRING_CONVERTER_CLASS, StringConverter } from './string-converter.js';

export type { Converter, SchemaAndValue } from './converter.js';
export { JsonConverter, JSON_CONVERTER_CLASS } from './json-converter.js';
export { StringConverter, STRING_CONVERTER_CLASS } from './string-converter.js';

export const CONVERTER_CLASSES = [JSON_CONVERTER_CLASS, STRING_CONVERTER_CLASS] as const;

export function resolveConverterClass(name: string): string | undefined {
  const n = name.trim();
  return CONVERTER_CLASSES.find((c) => c === n || c.split('.').pop() === n);
}

/**
 * Builds the key or value converter of a connector config: `key.converter` / `value.converter`
 * with their `key.converter.*` settings; JsonConverter when unset (the worker default).
 */
export function converterFor(config: Record<string, string>, isKey: boolean, workerDefault = JSON_CONVERTER_CLASS): Converter {
  const prefix = isKey ? 'key.converter' : 'value.converter';
  const cls = resolveConverterClass(config[prefix] ?? workerDefault);
  const sub: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) if (k.startsWith(prefix + '.')) sub[k.slice(prefix.length + 1)] = v;
  if (cls === STRING_CONVERTER_CLASS) return new StringConverter();
  if (cls === JSON_CONVERTER_CLASS) return new JsonConverter(sub);
  throw new Error(`Failed to find any class that implements Converter and which name matches ${config[prefix]}, available converters are: ${CONVERTER_CLASSES.join(', ')}`);
}
