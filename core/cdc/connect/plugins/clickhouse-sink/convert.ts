/**
 * Turns a sink record's value into a JSONEachRow row for the target table. Most values go
 * through unchanged (ClickHouse parses them; an integer beyond 2^53 is a bigint, which the
 * task's client writes as its digits); datetimes arrive as epoch numbers (Debezium's
 * io.debezium.time.Timestamp is milliseconds) and are converted for DateTime and DateTime64
 * columns, which would otherwise read them as seconds or as ticks of their own precision; a
 * Decimal field of a record with a schema becomes its decimal text.
 */
import type { Schema } from '../../plugin.js';
import { DataException } from '../../plugin.js';
import { decimalText } from '../../converters/json-converter.js';
import { stringifyExactJson } from '../../../../common/exact-json.js';

const DECIMAL = 'org.apache.kafka.connect.data.Decimal';

export interface ColumnType {
  /** The type with Nullable/LowCardinality removed. */
  base: string;
  /** DateTime64 precision, or 0 for DateTime; undefined for other types. */
  dateTimePrecision?: number;
}

export function parseColumnType(type: string): ColumnType {
  let base = type.trim();
  for (;;) {
    const m = /^(Nullable|LowCardinality)\((.*)\)$/.exec(base);
    if (!m) break;
    base = m[2]!;
  }
  const dt64 = /^DateTime64\((\d+)/.exec(base);
  if (dt64) return { base, dateTimePrecision: Number(dt64[1]) };
  if (/^DateTime64$/.test(base)) return { base, dateTimePrecision: 3 };
  if (/^DateTime(\(|$)/.test(base)) return { base, dateTimePrecision: 0 };
  return { base };
}

/** Units per second of a Connect/Debezium timestamp logical type. */
function unitsPerSecond(schemaName: string | undefined): bigint {
  switch (schemaName) {
    case 'io.debezium.time.MicroTimestamp':
      return 1_000_000n;
    case 'io.debezium.time.NanoTimestamp':
      return 1_000_000_000n;
    default:
      // io.debezium.time.Timestamp, org.apache.kafka.connect.data.Timestamp, and schemaless numbers
      return 1000n;
  }
}

/** Epoch number in `perSecond` units → the text/number ClickHouse reads exactly for the column. */
export function epochForColumn(value: number | bigint, precision: number, perSecond = 1000n): number | string {
  // DateTime64(3) reads an integer as milliseconds: the common case needs no conversion.
  if (precision === 3 && perSecond === 1000n && Number.isSafeInteger(value)) return value as number;
  // (nanoseconds since 1970 are beyond 2^53: a bigint)
  const units = typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
  let sec = units / perSecond;
  let rem = units % perSecond;
  if (rem < 0n) {
    sec -= 1n;
    rem += perSecond;
  }
  if (precision === 0) return Number(sec);
  // fraction scaled to the column's precision, as "seconds.fraction" which DateTime64 parses exactly
  const scale = 10n ** BigInt(precision);
  const frac = (rem * scale) / perSecond;
  return `${sec}.${frac.toString().padStart(precision, '0')}`;
}

export interface RowOptions {
  /** Leave out fields the table has no column for (ClickHouseWriter.cleanupExtraFields). */
  onlyTableColumns: boolean;
}

/**
 * The row ClickHouseWriter.doInsertJson sends: Gson leaves null fields out, so a column given
 * null gets its DEFAULT (NULL only for a Nullable column without one), and with
 * `onlyTableColumns` fields the table lacks are left out.
 */
/** Scale of each Decimal field of a struct schema (none: no entry), once per schema object. */
const decimalScales = new WeakMap<Schema, Map<string, number>>();
function decimalFields(schema: Schema): Map<string, number> {
  let m = decimalScales.get(schema);
  if (!m) {
    m = new Map();
    for (const f of schema.fields ?? []) if (f.name === DECIMAL && f.field !== undefined) m.set(f.field, Number(f.parameters?.scale ?? 0));
    decimalScales.set(schema, m);
  }
  return m;
}

export function convertRow(value: unknown, columns: Map<string, ColumnType>, schema: Schema | null, opts?: RowOptions): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DataException(`Expected a struct or map value for a ClickHouse row, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const src = value as Record<string, unknown>;
  const onlyColumns = opts?.onlyTableColumns === true;
  // With a schema, a Decimal field holds the base64 of its unscaled bytes (JsonConverter's BASE64
  // format): the connector hands ClickHouse the BigDecimal, so the row carries its decimal text.
  const decimals = schema?.fields ? decimalFields(schema) : undefined;
  // Most rows need no change: copy only when a field is converted or left out (less garbage per block).
  let leaveOut = false;
  let converted: Map<string, unknown> | undefined;
  let fieldSchemas: Map<string, Schema> | undefined;
  for (const k in src) {
    const v = src[k];
    const col = columns.get(k);
    if (v === null || (onlyColumns && !col)) {
      leaveOut = true;
      continue;
    }
    if (decimals?.size && typeof v === 'string') {
      const scale = decimals.get(k);
      if (scale !== undefined) (converted ??= new Map()).set(k, decimalText(v, scale));
      continue;
    }
    if (col?.dateTimePrecision === undefined || (typeof v !== 'number' && typeof v !== 'bigint')) continue;
    fieldSchemas ??= new Map((schema?.fields ?? []).map((f) => [f.field ?? '', f]));
    const c = epochForColumn(v, col.dateTimePrecision, unitsPerSecond(fieldSchemas.get(k)?.name));
    if (c !== v) (converted ??= new Map()).set(k, c);
  }
  if (!leaveOut) {
    if (!converted) return src;
    const row = { ...src };
    for (const [k, c] of converted) row[k] = c;
    return row;
  }
  // A fresh object rather than `delete` on a copy, which would drop it to a slow dictionary shape.
  const row: Record<string, unknown> = {};
  for (const k in src) {
    const v = src[k];
    if (v === null || (onlyColumns && !columns.has(k))) continue;
    row[k] = converted?.has(k) ? converted.get(k) : v;
  }
  return row;
}

/** A number JSON.parse reads as an integer but JSON.stringify would spell differently (1.0, 1e3, 10E-1). */
const NON_CANONICAL_NUMBER = /[0-9][.eE]/;

/**
 * Whether `text`, the JSON `row` was parsed from, says to ClickHouse what `rowJson(row)` says, so
 * that the text can be sent as it is. Only a one-line object of strings, booleans and integers
 * qualifies (nested values, floats and -0 are written again), with integers spelled as
 * JSON.stringify spells them, and with exactly one colon per field: then no colon sits inside a
 * string and no key is given twice (JSON.parse keeps the last value, ClickHouse the first).
 */
export function isVerbatimRow(row: Record<string, unknown>, text: string): boolean {
  let fields = 0;
  for (const k in row) {
    fields++;
    const v = row[k];
    switch (typeof v) {
      case 'string':
      case 'boolean':
      case 'bigint':
        break;
      case 'number':
        if (!Number.isSafeInteger(v) || Object.is(v, -0)) return false;
        break;
      default:
        return false;
    }
  }
  let colons = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) if (++colons > fields) return false;
  return colons === fields && !text.includes('\n') && !NON_CANONICAL_NUMBER.test(text);
}

/**
 * A JSONEachRow row's text, the client's JSON.stringify: bigints (Int64/UInt64 values beyond
 * 2^53) as their digits. A row holding one is written field by field, where JSON.stringify would
 * throw and stringifyExactJson write the row again with lossless-json (7.5 µs against 0.9 µs for a
 * seed row with a snowflake id); every other value is stringifyExactJson's (JSON.stringify's).
 */
export function rowJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return stringifyExactJson(value);
  const row = value as Record<string, unknown>;
  let big = false;
  for (const k in row) {
    if (typeof row[k] === 'bigint') {
      big = true;
      break;
    }
  }
  if (!big) return stringifyExactJson(row);
  let out = '';
  for (const k of Object.keys(row)) {
    const v = row[k];
    const text = typeof v === 'bigint' ? v.toString() : (stringifyExactJson(v) as string | undefined);
    if (text !== undefined) out += (out ? ',' : '{') + JSON.stringify(k) + ':' + text;
  }
  return out ? out + '}' : '{}';
}
