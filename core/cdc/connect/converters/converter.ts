/**
 * Kafka Connect converters: Connect data (schema + value) ⇄ the bytes (here: text) stored in the
 * log. `null` text is a tombstone.
 */
import type { Schema } from '../plugin.js';

export interface SchemaAndValue {
  schema: Schema | null;
  value: unknown;
  /** The text when `value` is a JSON object parsed from it as it is (no schema envelope): a sink may write it again instead of serializing the value. */
  json?: string;
}

export interface Converter {
  readonly class: string;
  fromConnectData(topic: string, schema: Schema | null, value: unknown): string | null;
  toConnectData(topic: string, text: string | null): SchemaAndValue;
}

export type ConverterFactory = (config: Record<string, string>, isKey: boolean) => Converter;
