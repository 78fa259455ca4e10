/**
 * MySQL column → Debezium's Connect schema and value, as the MySQL connector maps them under
 * decimal.handling.mode (precise | double | string), time.precision.mode
 * (adaptive_time_microseconds | connect) and bigint.unsigned.handling.mode (long | precise);
 * the defaults are the first of each. DATETIME has no zone: it is read as UTC, so
 * `2024-01-02 03:04:05` → 1704164645000 (io.debezium.time.Timestamp, epoch millis).
 */
import type { Schema } from '../../plugin.js';
import { GEOMETRY_SCHEMA_NAME, POINT_SCHEMA_NAME, spatialSchema, spatialSchemaKind, spatialValue } from './geometry.js';
import { JDBC_TYPES, sourceColumnType } from './source-column-type.js';
import { unquoteString } from '../../../source/mysql-ddl.js';
import { quoted } from '../../../source/mysql-type-display.js';
import { narrowInteger } from '../../../../common/exact-json.js';

export interface ColumnLike {
  name: string;
  baseType: string;
  args: string[];
  unsigned: boolean;
  nullable: boolean;
  defaultExpr: string | null;
  zerofill?: boolean;
  comment?: string;
}

export type DecimalMode = 'precise' | 'double' | 'string';

/** The connector settings that choose how column values are represented. */
export interface TypeModes {
  decimal: DecimalMode;
  timePrecision: 'adaptive_time_microseconds' | 'connect';
  bigintUnsigned: 'long' | 'precise';
  /** binary.handling.mode: BINARY, VARBINARY and BLOB columns as bytes, or as base64 or hex text. */
  binary?: 'bytes' | 'base64' | 'hex';
}

/** The modes for a decimal mode alone, the others at their defaults. */
export function typeModes(m: TypeModes | DecimalMode): TypeModes {
  return typeof m === 'string' ? { decimal: m, timePrecision: 'adaptive_time_microseconds', bigintUnsigned: 'long' } : m;
}

const BINARY_TYPES = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

/**
 * The converter of one column's values (the source stores binary values as hex text): base64
 * and hex modes write binary columns as strings (hex in lower case, as Debezium's HexConverter).
 */
export function columnConverter(c: ColumnLike, s: Schema, modes: TypeModes | DecimalMode): (v: unknown) => unknown {
  const m = typeModes(modes);
  if (BINARY_TYPES.has(c.baseType) && m.binary && m.binary !== 'bytes') {
    const hex = m.binary === 'hex';
    return (v) => (v === null || v === undefined ? null : hex ? String(v).toLowerCase() : Buffer.from(String(v), 'hex').toString('base64'));
  }
  const fallback = s.optional ? undefined : ZERO_DATE_FALLBACK[s.name ?? ''];
  if (fallback === undefined) return (v) => convertValue(c, s, v, m.decimal);
  // JdbcValueConverters.convertValue: a NOT NULL column's value read as null (a zero date, or a
  // date with a zero part) is the schema's default, else the converter's fallback (the epoch)
  return (v) => convertValue(c, s, v, m.decimal) ?? (v === null || v === undefined ? null : s.default ?? fallback);
}

/** What a NOT NULL column holds for a date Debezium reads as null: the epoch, as each converter writes it. */
const ZERO_DATE_FALLBACK: Record<string, unknown> = {
  'io.debezium.time.Date': 0,
  'org.apache.kafka.connect.data.Date': 0,
  'io.debezium.time.Timestamp': 0,
  'io.debezium.time.MicroTimestamp': 0,
  'org.apache.kafka.connect.data.Timestamp': 0,
  'io.debezium.time.ZonedTimestamp': '1970-01-01T00:00:00Z',
};

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?/;

/** The last DATETIME converted: rows written together mostly share one (DEFAULT CURRENT_TIMESTAMP). */
let lastDatetime: { text: string; ms: number | null } = { text: '', ms: null };

/**
 * Whether a DATE/DATETIME text is one Debezium reads as null: a zero year, month or day
 * (RowDeserializers.deserializeDate/Datetime on the binlog, containsZeroValuesInDatePart on a
 * snapshot), as '0000-00-00' or '2024-00-05', which MySQL stores outside NO_ZERO_DATE.
 */
const hasZeroPart = (m: RegExpExecArray) => !+m[1]! || !+m[2]! || !+m[3]!;

/** Epoch millis of a zone-less MySQL DATETIME text, read as UTC; null for a date with a zero part. */
export function datetimeToEpochMillis(text: string): number | null {
  if (text === lastDatetime.text) return lastDatetime.ms;
  const m = DATETIME.exec(text.trim());
  const ms = m && !hasZeroPart(m) ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), +(m[7] ?? '').padEnd(3, '0').slice(0, 3)) : null;
  lastDatetime = { text, ms };
  return ms;
}

function datetimeToEpochMicros(text: string): number | null {
  const m = DATETIME.exec(text.trim());
  if (!m || hasZeroPart(m)) return null;
  const micros = +(m[7] ?? '').padEnd(6, '0').slice(0, 6);
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) * 1000 + micros;
}

function precisionOf(c: ColumnLike): number {
  return c.args.length ? Number(c.args[0]) : 0;
}

/** Two's-complement big-endian bytes of the unscaled value, base64 (Connect's Decimal over JSON). */
export function decimalToBase64(text: string, scale: number): string {
  const neg = text.trim().startsWith('-');
  const [int = '0', frac = ''] = text.trim().replace(/^[-+]/, '').split('.');
  let unscaled = BigInt(int + frac.padEnd(scale, '0').slice(0, scale));
  if (neg) unscaled = -unscaled;
  const bytes: number[] = [];
  let v = unscaled;
  do {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (!(v === 0n && (bytes[0]! & 0x80) === 0) && !(v === -1n && (bytes[0]! & 0x80) !== 0));
  return Buffer.from(bytes).toString('base64');
}

/**
 * decimal.handling.mode=string: BigDecimal.toPlainString() of the value at the column's scale,
 * digit for digit from the source's exact text (a DECIMAL(30,2) has more digits than a double).
 */
export function decimalPlain(text: string, scale: number): string {
  const m = /^\s*([-+]?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!m || (!m[2] && !m[3])) return Number(text).toFixed(scale);
  const int = m[2]!.replace(/^0+(?=\d)/, '') || '0';
  const frac = (m[3] ?? '').padEnd(scale, '0').slice(0, scale);
  const sign = m[1] === '-' && /[1-9]/.test(int + frac) ? '-' : '';
  return sign + int + (scale > 0 ? `.${frac}` : '');
}

export function columnSchema(c: ColumnLike, modes: TypeModes | DecimalMode): Schema {
  const { decimal: decimalMode, timePrecision, bigintUnsigned, binary } = typeModes(modes);
  const connectTime = timePrecision === 'connect';
  const optional = c.nullable;
  const t = c.baseType;
  const base = (type: Schema['type'], extra: Partial<Schema> = {}): Schema => ({ type, optional, ...extra });
  // POINT and the other spatial types: Debezium's geometry structs (geometry.ts)
  const spatial = spatialSchemaKind(t);
  if (spatial) return spatialSchema(spatial, optional);
  let s: Schema;
  switch (t) {
    case 'tinyint':
    case 'int1':
    case 'smallint':
    case 'int2':
    case 'mediumint':
    case 'int3':
    case 'middleint':
    case 'int':
    case 'integer':
    case 'int4':
    case 'bigint':
    case 'int8':
    case 'serial':
    case 'bool':
    case 'boolean':
    case 'float':
    case 'float4':
    case 'double':
    case 'double precision':
    case 'float8':
    case 'real':
      s = numericSchema(c, bigintUnsigned, base);
      break;
    case 'decimal':
    case 'numeric':
    case 'dec':
    case 'fixed': {
      const precision = c.args[0] ?? '10';
      const scale = c.args[1] ?? '0';
      if (decimalMode === 'double') s = base('float64');
      else if (decimalMode === 'string') s = base('string');
      else s = base('bytes', { name: 'org.apache.kafka.connect.data.Decimal', version: 1, parameters: { scale, 'connect.decimal.precision': precision } });
      break;
    }
    case 'date':
      s = base('int32', { name: connectTime ? 'org.apache.kafka.connect.data.Date' : 'io.debezium.time.Date', version: 1 });
      break;
    case 'datetime':
      if (connectTime) s = base('int64', { name: 'org.apache.kafka.connect.data.Timestamp', version: 1 });
      else s = precisionOf(c) > 3 ? base('int64', { name: 'io.debezium.time.MicroTimestamp', version: 1 }) : base('int64', { name: 'io.debezium.time.Timestamp', version: 1 });
      break;
    case 'timestamp':
      s = base('string', { name: 'io.debezium.time.ZonedTimestamp', version: 1 });
      break;
    case 'time':
      s = connectTime ? base('int32', { name: 'org.apache.kafka.connect.data.Time', version: 1 }) : base('int64', { name: 'io.debezium.time.MicroTime', version: 1 });
      break;
    case 'year':
      s = base('int32', { name: 'io.debezium.time.Year', version: 1 });
      break;
    case 'enum':
      s = base('string', { name: 'io.debezium.data.Enum', version: 1, parameters: { allowed: c.args.map(allowedMember).join(',') } });
      break;
    case 'set':
      s = base('string', { name: 'io.debezium.data.EnumSet', version: 1, parameters: { allowed: c.args.map(allowedMember).join(',') } });
      break;
    case 'json':
      s = base('string', { name: 'io.debezium.data.Json', version: 1 });
      break;
    case 'bit':
      s = precisionOf(c) > 1 ? base('bytes', { name: 'io.debezium.data.Bits', version: 1, parameters: { length: String(precisionOf(c)) } }) : base('boolean');
      break;
    case 'binary':
    case 'varbinary':
    case 'tinyblob':
    case 'blob':
    case 'mediumblob':
    case 'longblob':
      // BinaryHandlingMode: SchemaBuilder.bytes for bytes, SchemaBuilder.string for base64 and hex
      s = base(binary === 'base64' || binary === 'hex' ? 'string' : 'bytes');
      break;
    default:
      s = base('string');
  }
  const dflt = defaultValue(c, s, modes);
  if (dflt !== undefined) s.default = dflt;
  return s;
}

/**
 * A double narrowed to Java's float, as the number Float.toString prints: the shortest decimal
 * that reads back as the same float (so 0.30000000000000004 is 0.3, not 0.30000001192092896).
 */
export function toFloat32(v: number): number {
  const f = Math.fround(v);
  if (!Number.isFinite(f) || f === 0) return f;
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(f.toPrecision(digits));
    if (Math.fround(shortest) === f) return shortest;
  }
  return Number(f.toPrecision(9));
}

/**
 * MySqlValueConverters.schemaBuilder for numbers: the unsigned types it names widen ("SMALLINT
 * UNSIGNED" to int32, "INT UNSIGNED" to int64, "BIGINT UNSIGNED" per bigint.unsigned.handling.mode;
 * matched on the type name as written, so INTEGER UNSIGNED or INT ZEROFILL are not), the rest
 * follow their java.sql.Types code (JdbcValueConverters): SMALLINT int16 (TINYINT is registered
 * as SMALLINT), INTEGER int32, BIGINT int64, BOOLEAN boolean, REAL float32, FLOAT and DOUBLE float64.
 */
function numericSchema(c: ColumnLike, bigintUnsigned: TypeModes['bigintUnsigned'], base: (type: Schema['type'], extra?: Partial<Schema>) => Schema): Schema {
  const { typeName, jdbcType } = sourceColumnType(c);
  const is = (...names: string[]) => names.some((n) => typeName === n || typeName === `${n} ZEROFILL`);
  if (is('SMALLINT UNSIGNED', 'INT2 UNSIGNED')) return base('int32');
  if (is('INT UNSIGNED', 'INT4 UNSIGNED')) return base('int64');
  // `precise` carries it as Decimal.builder(0), which has no precision parameter
  if (is('BIGINT UNSIGNED', 'INT8 UNSIGNED')) return bigintUnsigned === 'precise' ? base('bytes', { name: 'org.apache.kafka.connect.data.Decimal', version: 1, parameters: { scale: '0' } }) : base('int64');
  switch (jdbcType) {
    case JDBC_TYPES.SMALLINT:
      return base('int16');
    case JDBC_TYPES.INTEGER:
      return base('int32');
    case JDBC_TYPES.BIGINT:
      return base('int64');
    case JDBC_TYPES.BOOLEAN:
      return base('boolean');
    case JDBC_TYPES.REAL:
      return base('float32');
    default:
      return base('float64');
  }
}

/** TIME text → microseconds (negative and over 24 h allowed, as MySQL's TIME is). */
function timeToMicros(text: string): number | null {
  const m = /^(-)?(\d+):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/.exec(text.trim());
  if (!m) return null;
  const us = ((+m[2]! * 60 + +m[3]!) * 60 + +(m[4] ?? 0)) * 1_000_000 + +(m[5] ?? '').padEnd(6, '0');
  return m[1] ? -us : us;
}

/**
 * A member as Debezium's `allowed` parameter lists it: MySqlAntlrDdlParser.extractEnumAndSetOptions
 * takes the member's text from the DDL it parses (on a snapshot SHOW CREATE TABLE's, where MySQL 8.0
 * writes it with append_unescaped), strips its quotes, escapes a comma as \, and undoes only \' and
 * '' (escapeOption). So a member n⏎l is listed as n\nl and a\b as a\\b, while a row's value is the
 * member itself.
 */
function allowedMember(arg: string): string {
  return quoted(unquoteString(arg)).slice(1, -1).replace(/,/g, '\\,').replace(/\\'/g, "'").replace(/''/g, "'");
}

/** Debezium's default-value conversion; CURRENT_TIMESTAMP on DATETIME becomes epoch 0. */
function defaultValue(c: ColumnLike, s: Schema, modes: TypeModes | DecimalMode): unknown {
  const { decimal: decimalMode } = typeModes(modes);
  const e = c.defaultExpr;
  if (e === null || /^null$/i.test(e)) return undefined;
  if (BINARY_TYPES.has(c.baseType)) {
    // DefaultValueParserListener.enterDefaultValue keeps a string literal's text, which the
    // binary converter (JdbcValueConverters.convertBinary) takes as its bytes: DEFAULT 'ab' is
    // the bytes 61 62, not the hex text the source stores row values as. It has no branch for a
    // hexadecimal literal (X'4142', 0x4142), so such a column has no default in the schema.
    if (!/^['"]/.test(e)) return undefined;
    return columnConverter(c, s, modes)(Buffer.from(unquoteString(e), 'utf8').toString('hex')) ?? undefined;
  }
  if (/^(current_timestamp|now|localtime|localtimestamp)(\(\d*\))?$/i.test(e)) {
    if (s.name === 'io.debezium.time.Timestamp' || s.name === 'io.debezium.time.MicroTimestamp' || s.name === 'org.apache.kafka.connect.data.Timestamp') return 0;
    if (s.name === 'io.debezium.time.ZonedTimestamp') return '1970-01-01T00:00:00Z';
    return undefined;
  }
  if (/^\(/.test(e)) return undefined;
  // the default's value, read as MySQL reads the literal (mysql-strings.ts): 'a\nb' is a⏎b and 'it''s' it's
  const v = convertValue(c, s, unquoteString(e), decimalMode);
  // MySqlDefaultValueConverter: a zero date (or one with a zero part) is no default for a
  // nullable column, and the epoch for a NOT NULL one
  if (v === null && !s.optional) return ZERO_DATE_FALLBACK[s.name ?? ''];
  return v ?? undefined;
}

const INTEGER_TEXT = /^\s*[-+]?\d+\s*$/;

/**
 * A whole number that is not a JS number: the source's bigint (a BIGINT beyond 2^53) or a text (a
 * DEFAULT). An INT64 keeps every digit, as a bigint where a double would round it, and takes the
 * low 64 bits as Java's longValue() does: BIGINT UNSIGNED under bigint.unsigned.handling.mode=long
 * is a signed long, so 18446744073709551615 is -1, as Debezium writes it.
 */
function integerValue(v: unknown, int64: boolean): number | bigint {
  if (!int64) return Number(v);
  if (typeof v === 'bigint') return narrowInteger(BigInt.asIntN(64, v));
  const n = Number(v);
  if (Number.isSafeInteger(n) || typeof v !== 'string' || !INTEGER_TEXT.test(v)) return n;
  return narrowInteger(BigInt.asIntN(64, BigInt(v)));
}

/** A source value (as the embedded source stores it) in Debezium's representation. */
export function convertValue(c: ColumnLike, s: Schema, v: unknown, decimalMode: DecimalMode): unknown {
  if (v === null || v === undefined) return null;
  switch (s.name) {
    case 'io.debezium.time.Timestamp':
    case 'org.apache.kafka.connect.data.Timestamp':
      return datetimeToEpochMillis(String(v));
    case 'io.debezium.time.MicroTimestamp':
      return datetimeToEpochMicros(String(v));
    case 'io.debezium.time.Date':
    case 'org.apache.kafka.connect.data.Date': {
      const ms = datetimeToEpochMillis(String(v));
      return ms === null ? null : Math.floor(ms / 86_400_000);
    }
    case 'io.debezium.time.ZonedTimestamp': {
      const ms = datetimeToEpochMillis(String(v));
      return ms === null ? null : new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
    }
    case 'io.debezium.time.MicroTime':
      return timeToMicros(String(v));
    case 'org.apache.kafka.connect.data.Time': {
      const us = timeToMicros(String(v));
      return us === null ? null : Math.trunc(us / 1000);
    }
    case 'io.debezium.time.Year':
      return Number(v);
    case 'org.apache.kafka.connect.data.Decimal':
      return decimalToBase64(String(v), Number(s.parameters?.scale ?? 0));
    case POINT_SCHEMA_NAME:
      return spatialValue('point', c.name, v);
    case GEOMETRY_SCHEMA_NAME:
      return spatialValue('geometry', c.name, v);
  }
  if (s.type === 'bytes') return Buffer.from(String(v), 'hex').toString('base64');
  // JdbcValueConverters.convertBoolean: any non-zero number is true
  if (s.type === 'boolean') return typeof v === 'boolean' ? v : /^true$/i.test(String(v)) || (Number(v) !== 0 && !Number.isNaN(Number(v)));
  if (s.type.startsWith('int')) return typeof v === 'number' ? Math.trunc(v) : integerValue(v, s.type === 'int64');
  if (s.type === 'float32') return toFloat32(Number(v));
  if (s.type.startsWith('float')) return Number(v);
  if (s.type === 'string') {
    if (decimalMode === 'string' && (c.baseType === 'decimal' || c.baseType === 'numeric')) {
      return decimalPlain(String(v), Number(c.args[1] ?? 0));
    }
    return String(v);
  }
  return v;
}
