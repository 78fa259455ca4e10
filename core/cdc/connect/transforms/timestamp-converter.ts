/**
 * org.apache.kafka.connect.transforms.TimestampConverter$Key / $Value (Kafka 3.9): converts a
 * timestamp (the whole key/value, or `field`) between string (SimpleDateFormat `format`, UTC),
 * unix (a long in `unix.precision`), and the Connect Date, Time and Timestamp logical types.
 *
 * With a schema the source format comes from the schema (logical name, else string or int64) and
 * Date/Time/Timestamp values are the numbers JsonConverter writes (days, millis of day, epoch
 * millis). Without a schema it comes from the value: a JS Date is a Timestamp (Java's
 * java.util.Date), an integer a unix long, a string a formatted string; Date/Time/Timestamp
 * results are JS Dates, as Kafka gives java.util.Date objects.
 */
import { ConnectException, DataException, type ConnectRecord, type Schema } from '../plugin.js';
import { ConfigException, key, NO_DEFAULT, replaceNullWithDefaultKey, validString } from './config-def.js';
import { asField, checkPut, copySchemaBasics, copyMap, DATE, javaClass, MILLIS_PER_DAY, own, putEntry, requireMap, requireStructOrNull, schemaString, structGet, TIME, TIMESTAMP, type Side } from './connect-data.js';
import { keyValueTransforms, transformation } from './kafka-plugin.js';
import { IllegalPatternError, ParseError, SimpleDateFormat } from './simple-date-format.js';

const PURPOSE = 'converting timestamp formats';
type Format = 'string' | 'unix' | 'Date' | 'Time' | 'Timestamp';
type Precision = 'seconds' | 'milliseconds' | 'microseconds' | 'nanoseconds';

const SPECS = [
  key('field', 'STRING', '', 'HIGH', 'The field containing the timestamp, or empty if the entire value is a timestamp'),
  key('target.type', 'STRING', NO_DEFAULT, 'HIGH', 'The desired timestamp representation: string, unix, Date, Time, or Timestamp', validString('string', 'unix', 'Date', 'Time', 'Timestamp')),
  key('format', 'STRING', '', 'MEDIUM', 'A SimpleDateFormat-compatible format for the timestamp. Used to generate the output when type=string or used to parse the input if the input is a string.'),
  key(
    'unix.precision',
    'STRING',
    'milliseconds',
    'LOW',
    'The desired Unix precision for the timestamp: seconds, milliseconds, microseconds, or nanoseconds. Used to generate the output when type=unix or used to parse the input if the input is a Long.Note: This SMT will cause precision loss during conversions from, and to, values with sub-millisecond components.',
    validString('nanoseconds', 'microseconds', 'milliseconds', 'seconds'),
  ),
  replaceNullWithDefaultKey(),
];

/** Long.MAX_VALUE as the nearest double. */
const LONG_MAX = 2 ** 63;
/** TimeUnit conversions: division truncates, multiplication saturates at Long.MIN/MAX_VALUE. */
const scaleUp = (v: number, f: number) => Math.max(-LONG_MAX, Math.min(LONG_MAX, v * f));
const scaleDown = (v: number, f: number) => Math.trunc(v / f);

const TYPE_SCHEMAS: Record<Format, Omit<Schema, 'optional'>> = {
  string: { type: 'string' },
  unix: { type: 'int64' },
  Date: { type: 'int32', name: DATE, version: 1 },
  Time: { type: 'int32', name: TIME, version: 1 },
  Timestamp: { type: 'int64', name: TIMESTAMP, version: 1 },
};

function typeFromSchema(schema: Schema): Format {
  if (schema.name === TIMESTAMP) return 'Timestamp';
  if (schema.name === DATE) return 'Date';
  if (schema.name === TIME) return 'Time';
  if (schema.type === 'string') return 'string';
  if (schema.type === 'int64') return 'unix';
  throw new ConnectException(`Schema ${schemaString(schema)} does not correspond to a known timestamp type format`);
}

function inferType(v: unknown): Format {
  if (v instanceof Date) return 'Timestamp';
  if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return 'unix';
  if (typeof v === 'string') return 'string';
  throw new DataException(`TimestampConverter does not support ${javaClass(v)} objects as timestamps`);
}

export const [timestampConverterKeyPlugin, timestampConverterValuePlugin] = keyValueTransforms('org.apache.kafka.connect.transforms.TimestampConverter', SPECS, (c, side: Side) => {
  const field = c.field as string;
  const type = c['target.type'] as Format;
  const pattern = c.format as string;
  const precision = c['unix.precision'] as Precision;
  const replaceNullWithDefault = c['replace.null.with.default'] as boolean;
  if (type === 'string' && pattern.trim() === '') throw new ConfigException('TimestampConverter requires format option to be specified when using string timestamps');
  let format: SimpleDateFormat | null = null;
  if (pattern.trim() !== '') {
    try {
      format = new SimpleDateFormat(pattern);
    } catch (err) {
      if (err instanceof IllegalPatternError) throw new ConfigException('TimestampConverter requires a SimpleDateFormat-compatible pattern for string timestamps: ' + pattern);
      throw err;
    }
  }

  /** TimestampTranslator.toRaw: epoch millis. */
  const toRaw = (from: Format, v: unknown, withSchema: boolean): number => {
    switch (from) {
      case 'string':
        if (typeof v !== 'string') throw new DataException(`Expected string timestamp to be a String, but found ${javaClass(v)}`);
        try {
          // format is set whenever a string can arrive: the target is string or a format was given
          if (!format) throw new ParseError('no format');
          return format.parse(v);
        } catch (err) {
          if (err instanceof ParseError) throw new DataException(`Could not parse timestamp: value (${v}) does not match pattern (${pattern})`);
          throw err;
        }
      case 'unix': {
        // a long beyond 2^53 (a bigint): nanoseconds since 1970, say
        if (typeof v === 'bigint') {
          if (precision === 'microseconds') return Number(v / 1000n);
          if (precision === 'nanoseconds') return Number(v / 1_000_000n);
          v = Number(v);
        }
        if (typeof v !== 'number' || !Number.isInteger(v)) throw new DataException(`Expected Unix timestamp to be a Long, but found ${javaClass(v, withSchema ? { type: 'int64', optional: true } : null)}`);
        if (precision === 'seconds') return scaleUp(v, 1000);
        if (precision === 'microseconds') return scaleDown(v, 1000);
        if (precision === 'nanoseconds') return scaleDown(v, 1_000_000);
        return v;
      }
      default: {
        if (v instanceof Date) return v.getTime();
        if (!withSchema || typeof v !== 'number') throw new DataException(`Expected ${from} to be a java.util.Date, but found ${javaClass(v)}`);
        return from === 'Date' ? v * MILLIS_PER_DAY : v;
      }
    }
  };

  /** TimestampTranslator.toType of the target type. */
  const toType = (millis: number, withSchema: boolean): unknown => {
    switch (type) {
      case 'string':
        return format!.format(millis);
      case 'unix':
        if (precision === 'seconds') return scaleDown(millis, 1000);
        if (precision === 'microseconds') return scaleUp(millis, 1000);
        if (precision === 'nanoseconds') return scaleUp(millis, 1_000_000);
        return millis;
      case 'Date': {
        const days = Math.floor(millis / MILLIS_PER_DAY);
        return withSchema ? days : new Date(days * MILLIS_PER_DAY);
      }
      case 'Time': {
        const ofDay = ((millis % MILLIS_PER_DAY) + MILLIS_PER_DAY) % MILLIS_PER_DAY;
        return withSchema ? ofDay : new Date(ofDay);
      }
      case 'Timestamp':
        return withSchema ? millis : new Date(millis);
    }
  };

  const convert = (v: unknown, from: Format | null, withSchema: boolean): unknown => {
    if (v === null || v === undefined) return null;
    return toType(toRaw(from ?? inferType(v), v, withSchema), withSchema);
  };

  const typeSchema = (optional: boolean): Schema => ({ ...TYPE_SCHEMAS[type], optional });
  const cache = new WeakMap<Schema, Schema>();
  const updatedSchema = (schema: Schema): Schema => {
    let s = cache.get(schema);
    if (s) return s;
    s = { ...copySchemaBasics(schema), fields: (schema.fields ?? []).map((f) => (f.field === field ? asField(f.field, typeSchema(f.optional)) : f)) };
    if (schema.optional) s.optional = true;
    cache.set(schema, s);
    return s;
  };

  return transformation((record: ConnectRecord) => {
    const schema = side.schema(record);
    const raw = side.value(record);
    if (!schema) {
      if (raw === null || raw === undefined || field === '') return side.with(record, null, convert(raw, null, false));
      const map = requireMap(raw, PURPOSE);
      const updated = copyMap(map);
      putEntry(updated, field, convert(own(map, field), null, false));
      return side.with(record, null, updated);
    }
    if (field === '') {
      const from = typeFromSchema(schema);
      return side.with(record, typeSchema(schema.optional), convert(raw, from, true));
    }
    const struct = requireStructOrNull(raw, schema, PURPOSE);
    const newSchema = updatedSchema(schema);
    if (!struct) return side.with(record, newSchema, null);
    const updated: Record<string, unknown> = {};
    (schema.fields ?? []).forEach((f, i) => {
      const v = structGet(struct, f, replaceNullWithDefault);
      updated[f.field!] = checkPut(newSchema.fields![i]!, f.field === field ? convert(v, typeFromSchema(f), true) : v);
    });
    return side.with(record, newSchema, updated);
  });
});
