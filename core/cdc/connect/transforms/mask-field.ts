/**
 * org.apache.kafka.connect.transforms.MaskField$Key / $Value (Kafka 3.9): listed fields become
 * the "null value" of their Java type (0, false, "", empty list/map, epoch) or `replacement`
 * converted to that type (numbers and strings only). Which type a value has follows its field
 * schema, or without a schema the class JsonConverter would give it (Long, Double, String, …).
 */
import { DataException, type ConnectRecord, type Schema } from '../plugin.js';
import { key, NO_DEFAULT, nonEmptyList, nonEmptyString, replaceNullWithDefaultKey } from './config-def.js';
import { bigDecimalLongValue, copyMap, javaClass, javaClassName, own, putEntry, requireMap, requireStruct, shortestFloat, structGet, type Side } from './connect-data.js';
import { keyValueTransforms, transformation } from './kafka-plugin.js';
import { narrowInteger } from '../../../common/exact-json.js';

const PURPOSE = 'mask fields';

const SPECS = [
  key('fields', 'LIST', NO_DEFAULT, 'HIGH', 'Names of fields to mask.', nonEmptyList),
  key('replacement', 'STRING', null, 'LOW', "Custom value replacement, that will be applied to all 'fields' values (numeric or non-empty string values only).", nonEmptyString),
  replaceNullWithDefaultKey(),
];

const BIG_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Values.asLong / asDouble on a string (new BigDecimal(s)), as convertToX(null, s) uses them. */
function bigDecimal(s: string): number {
  if (!BIG_DECIMAL.test(s)) throw new DataException(`Unable to convert ${s} (class java.lang.String) to a number`);
  return Number(s);
}

/** Values.asLong(...).byteValue() and friends: the integer part, wrapped (a long beyond 2^53 a bigint). */
function wrap(s: string, bits: number): number | bigint {
  bigDecimal(s);
  return narrowInteger(BigInt.asIntN(bits, bigDecimalLongValue(s)!));
}

/** A Decimal value (base64 unscaled bytes) of `n` at the schema's scale. */
function decimalValue(n: string, schema: Schema): string {
  const scale = Number(schema.parameters?.scale ?? 0);
  const [int, frac = ''] = n.replace(/^\+/, '').split('.');
  let unscaled = BigInt((int === '-' || int === '' ? int + '0' : int) + frac.padEnd(scale, '0').slice(0, scale));
  if (unscaled === 0n) unscaled = 0n;
  let hex = BigInt.asUintN(8 * Math.max(1, Math.ceil((unscaled.toString(2).length + 1) / 8)), unscaled).toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Buffer.from(hex, 'hex').toString('base64');
}

function maskWithNullValue(value: unknown, schema: Schema | undefined): unknown {
  const cls = javaClassName(value, schema);
  switch (cls) {
    case 'java.lang.Boolean':
      return false;
    case 'java.lang.Byte':
    case 'java.lang.Short':
    case 'java.lang.Integer':
    case 'java.lang.Long':
    case 'java.lang.Float':
    case 'java.lang.Double':
      return 0;
    case 'java.lang.String':
      return '';
    case 'java.math.BigDecimal':
      return decimalValue('0', schema!);
    case 'java.util.Date':
      return value instanceof Date ? new Date(0) : 0;
    case 'java.util.ArrayList':
      return [];
    case 'java.util.HashMap':
      return {};
  }
  throw new DataException(`Cannot mask value of type: ${javaClass(value, schema)}`);
}

function maskWithCustomReplacement(value: unknown, schema: Schema | undefined, replacement: string): unknown {
  switch (javaClassName(value, schema)) {
    case 'java.lang.Byte':
      return wrap(replacement, 8);
    case 'java.lang.Short':
      return wrap(replacement, 16);
    case 'java.lang.Integer':
      return wrap(replacement, 32);
    case 'java.lang.Long':
      return wrap(replacement, 64);
    case 'java.lang.Float':
      return Number(shortestFloat(Math.fround(bigDecimal(replacement))));
    case 'java.lang.Double':
      return bigDecimal(replacement);
    case 'java.lang.String':
      return replacement;
    case 'java.math.BigDecimal':
      if (!BIG_DECIMAL.test(replacement) || /[eE]/.test(replacement)) throw new DataException(`Unable to convert ${replacement} (class java.lang.String) to number`);
      return decimalValue(replacement, schema!);
  }
  throw new DataException(`Cannot mask value of type ${javaClass(value, schema)} with custom replacement.`);
}

export const [maskFieldKeyPlugin, maskFieldValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.MaskField', SPECS, (c, side: Side) => {
  const masked = new Set(c.fields as string[]);
  const replacement = c.replacement as string | null;
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  const mask = (value: unknown, schema?: Schema): unknown => {
    if (value === null || value === undefined) return null;
    return replacement === null ? maskWithNullValue(value, schema) : maskWithCustomReplacement(value, schema, replacement);
  };
  return transformation((record: ConnectRecord) => {
    const schema = side.schema(record);
    if (!schema) {
      const value = requireMap(side.value(record), PURPOSE);
      const updated = copyMap(value);
      for (const f of masked) putEntry(updated, f, mask(own(value, f)));
      return side.with(record, null, updated);
    }
    const value = requireStruct(side.value(record), schema, PURPOSE);
    const updated: Record<string, unknown> = {};
    for (const f of schema.fields ?? []) {
      const orig = structGet(value, f, replaceNullWithDefault);
      updated[f.field!] = masked.has(f.field!) ? mask(orig, f) : orig;
    }
    return side.with(record, schema, updated);
  });
});

