/**
 * A value as a MySQL 8.0 column in strict mode (STRICT_TRANS_TABLES, NO_ZERO_DATE,
 * NO_ZERO_IN_DATE) stores it, or the error the server gives instead: the Field_*::store rules of
 * mysql-server's sql/field.cc, for the column types the embedded source has.
 *
 *   integers   rounded half away from zero; out of the type's range → 1264; text read as a number
 *              (leading and trailing blanks allowed), none at all → 1366, something after it → 1265
 *   YEAR       1-69 → 2001-2069, 70-99 → 1970-1999, '0'/'00' → 2000, 0 → 0, else 1901-2155 → 1264
 *   BIT(n)     0 … 2ⁿ-1, else 1406
 *   DECIMAL    rounded to its scale half away from zero (a note only); more integer digits than
 *              M-D, or negative when UNSIGNED → 1264; text as for integers (1366 / 1265)
 *   FLOAT/DOUBLE  (M,D) rounded to D and bounded by M; FLOAT within ±3.402823466e38; UNSIGNED
 *              not negative (1264); text that is no number → 1265 (Field_double::store(const char*))
 *   CHAR/VARCHAR/TEXT  longer than the column → 1406, unless what is over is blanks (cut, a note);
 *              CHAR reads back without trailing blanks; TEXT types count bytes (255, 65535, 2²⁴-1)
 *   ENUM       a member (case and trailing blanks ignored, stored as declared) or its 1-based
 *              index; anything else ('' and 0 included) → 1265
 *   SET        members separated by commas, stored in declaration order once each, or a bit
 *              mask; an unknown member → 1265
 *   DATE/DATETIME/TIMESTAMP  MySQL's relaxed forms ('2024-1-2 3:4:5', '2024/01/02',
 *              '20240102030405', '240102', 20240102, a T between date and time), stored as
 *              'YYYY-MM-DD[ HH:MM:SS[.f]]' with the fraction rounded to the column's digits; no
 *              impossible days, TIMESTAMP within 1970-01-01 00:00:01 … 2038-01-19 03:14:07 (UTC, the
 *              embedded server's zone) → 1292; the zero date and zero parts ('2024-00-05') as the
 *              sql_mode's NO_ZERO_DATE and NO_ZERO_IN_DATE say (storeDateTime); a DATE drops a time
 *   TIME       '[-][D ]H:M[:S[.f]]', 'HHMMSS', 'MMSS', numbers alike, or a datetime's time; within
 *              ±838:59:59 → 1292, the fraction rounded to the column's digits as for DATETIME
 *   BINARY/VARBINARY/BLOB  bytes; a number is its decimal text ('255', as Field_str::store writes a
 *              number); longer than the column → 1406 (blanks too: binary strings have no pad
 *              character to cut); BINARY(n) right-padded with 0x00 to n bytes ("The BINARY and
 *              VARBINARY Types")
 *   GEOMETRY, POINT, …  a geometry in MySQL's internal format of the column's type → else 1416;
 *              of the column's SRID when it has one → else 3643 (spatial-column.ts)
 *
 * The reference is MariaDB 10.11 in MySQL's strict sql_mode, which agrees with MySQL 8.0 on these
 * rules except where MySQL 8.0 differs and is followed here: fractional seconds are rounded
 * (MySQL 8.0 reference manual, "Fractional Seconds in Time Values"; MariaDB truncates), 1366 is
 * worded "for column 'c' at row N" with SQLSTATE HY000.
 *
 * Under INSERT/UPDATE IGNORE (`strict` false) the server stores the nearest value instead and
 * warns: numbers are clipped to the range, text is cut, an unknown ENUM value is '', unknown SET
 * members are dropped, a date that is none is the zero date. Times it cannot read stay errors here.
 */
import type { SqlValue } from 'sql.js';
import { daysIn, pad } from './calendar.js';
import { warn } from './diagnostics.js';
import { statementScope } from './statement-scope.js';
import { stringValue } from './mysql-strings.js';
import { firstInvalidUtf8, utf8Text } from './charset-introducers.js';
import type { ColumnDef } from './mysql-ddl.js';
import { isSpatial, spatialKind, storeGeometry, type SpatialKind } from './spatial-column.js';
import { DEFAULT_SQL_MODE, sqlModeEffects, type SqlModeEffects } from './sql-mode.js';

/** The error a value gets, as `ERROR<errno>:<message>` (a function inside SQLite can only fail with a message; translateError reads it back). */
export class StoreError extends Error {
  constructor(
    readonly errno: number,
    readonly text: string,
  ) {
    super(`ERROR${errno}:${text}`);
  }
}

/** Strict mode refuses the value; under IGNORE the nearest value is stored, and the error is the statement's warning. */
function refuse(strict: boolean, err: StoreError): void {
  if (strict) throw err;
  warn(err.errno, err.text);
}

/** What the statement running now follows of its session's sql_mode (sql-mode.ts). */
const modeNow = statementScope<SqlModeEffects>();

/** Outside a statement (a definition read back), MySQL 8.0's default. */
const DEFAULT_MODE = sqlModeEffects(DEFAULT_SQL_MODE);

/**
 * Runs a statement under its session's sql_mode: strict mode off changes how a cut string is
 * reported, NO_ZERO_DATE and NO_ZERO_IN_DATE which dates a temporal column takes.
 */
export function inSqlMode<R>(mode: SqlModeEffects, run: () => R): R {
  return modeNow.run(mode, run);
}

/** The sql_mode of the statement running now. */
export const sqlModeNow = (): SqlModeEffects => modeNow.current ?? DEFAULT_MODE;

/** Runs `run` reading dates as a comparison does (TIME_FUZZY_DATE): zero dates and zero parts whatever the sql_mode. */
export function withZeroDates<R>(run: () => R): R {
  return modeNow.run({ ...sqlModeNow(), noZeroDate: false, noZeroInDate: false }, run);
}

/**
 * Text or bytes cut to the column: 1406 in strict mode, as an error or (under IGNORE) a warning,
 * but 1265 "Data truncated" outside strict mode (Field_longstr::report_if_important_data asks
 * the sql_mode, not IGNORE).
 */
function refuseLong(strict: boolean, c: ColumnDef, row: number): void {
  if (!strict && modeNow.current && !modeNow.current.strict) warn(1265, truncated(c, row).text);
  else refuse(strict, tooLong(c, row));
}

/** The SQLSTATE of each error the store rules give (errmsg-utf8.txt). */
const INT64_MAX = (1n << 63n) - 1n;

const STORE_ERROR_STATES: Record<number, string> = { 1210: 'HY000', 1235: '42000', 1582: '42000', 3165: '42000', 3140: '22032', 3141: '22032', 3143: '42000', 3149: '42000', 3150: '42000', 3153: '42000', 3158: '22032', 1365: '22012', 1451: '23000', 1452: '23000', 1264: '22003', 1265: '01000', 1292: '22007', 1364: 'HY000', 1366: 'HY000', 1406: '22001', 1416: '22003', 3037: '22023', 3616: '22S02', 3617: '22S03', 3643: 'HY000' };
export const storeErrorState = (errno: number): string => STORE_ERROR_STATES[errno] ?? 'HY000';

const outOfRange = (c: ColumnDef, row: number) => new StoreError(1264, `Out of range value for column '${c.name}' at row ${row}`);
const truncated = (c: ColumnDef, row: number) => new StoreError(1265, `Data truncated for column '${c.name}' at row ${row}`);
const tooLong = (c: ColumnDef, row: number) => new StoreError(1406, `Data too long for column '${c.name}' at row ${row}`);
const incorrect = (errno: 1366 | 1292, kind: string, v: string, c: ColumnDef, row: number) => new StoreError(errno, `Incorrect ${kind} value: '${v}' for column '${c.name}' at row ${row}`);

/** What the store rules need of a column: its kind and limits, worked out once per column. */
export type StoreKind =
  | { kind: 'int'; min: bigint; max: bigint; minNumber: number; maxNumber: number }
  | { kind: 'year' }
  | { kind: 'bit'; max: number }
  | { kind: 'decimal'; precision: number; scale: number; unsigned: boolean }
  | { kind: 'real'; float: boolean; precision?: number; scale?: number; unsigned: boolean }
  | { kind: 'text'; max: number; bytes: boolean; char: boolean }
  | { kind: 'enum'; members: string[] }
  | { kind: 'set'; members: string[] }
  | { kind: 'date' | 'datetime' | 'timestamp'; fsp: number }
  | { kind: 'time'; fsp: number }
  | { kind: 'binary'; max: number; pad: boolean }
  | SpatialKind
  | { kind: 'none' };

const INT_BITS: Record<string, number> = { tinyint: 8, int1: 8, bool: 8, boolean: 8, smallint: 16, int2: 16, mediumint: 24, int3: 24, middleint: 24, int: 32, integer: 32, int4: 32, bigint: 64, int8: 64, serial: 64 };
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65_535, mediumtext: 16_777_215, longtext: 4_294_967_295 };
const BLOB_BYTES: Record<string, number> = { tinyblob: 255, blob: 65_535, mediumblob: 16_777_215, longblob: 4_294_967_295 };
const FLOAT_MAX = 3.402823466e38;

const num = (s: string | undefined, d: number) => (s !== undefined && /^\s*\d+\s*$/.test(s) ? Number(s) : d);

export function storeKind(c: ColumnDef): StoreKind {
  const base = c.baseType.toLowerCase();
  const unsigned = c.unsigned || c.zerofill === true;
  const bits = INT_BITS[base];
  if (bits) {
    const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
    const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
    return { kind: 'int', min, max, minNumber: Number(min), maxNumber: Number(max) };
  }
  if (base === 'year') return { kind: 'year' };
  if (base === 'bit') return { kind: 'bit', max: 2 ** num(c.args[0], 1) - 1 };
  if (base === 'decimal' || base === 'dec' || base === 'numeric' || base === 'fixed') return { kind: 'decimal', precision: num(c.args[0], 10), scale: num(c.args[1], 0), unsigned };
  if (base === 'float' || base === 'float4' || base === 'double' || base === 'double precision' || base === 'real' || base === 'float8') {
    const float = (base === 'float' || base === 'float4') && !(c.args.length === 1 && num(c.args[0], 0) > 24);
    return c.args.length === 2 ? { kind: 'real', float, precision: num(c.args[0], 0), scale: num(c.args[1], 0), unsigned } : { kind: 'real', float, unsigned };
  }
  if (base === 'char' || base === 'varchar') return { kind: 'text', max: num(c.args[0], base === 'char' ? 1 : Infinity), bytes: false, char: base === 'char' };
  if (TEXT_BYTES[base] !== undefined) return { kind: 'text', max: c.args.length ? Math.min(num(c.args[0], Infinity) * 4, TEXT_BYTES[base]!) : TEXT_BYTES[base]!, bytes: true, char: false };
  if (base === 'binary' || base === 'varbinary') return { kind: 'binary', max: num(c.args[0], base === 'binary' ? 1 : Infinity), pad: base === 'binary' };
  if (BLOB_BYTES[base] !== undefined) return { kind: 'binary', max: c.args.length ? Math.min(num(c.args[0], Infinity), BLOB_BYTES[base]!) : BLOB_BYTES[base]!, pad: false };
  if (base === 'enum' || base === 'set') return { kind: base, members: c.args.map(unquoteMember) };
  if (base === 'date' || base === 'datetime' || base === 'timestamp') return { kind: base, fsp: base === 'date' ? 0 : num(c.args[0], 0) };
  if (base === 'time') return { kind: 'time', fsp: num(c.args[0], 0) };
  if (isSpatial(base)) return spatialKind(c);
  return { kind: 'none' };
}

/** A member's value: read as MySQL reads any literal (stringValue), so `'n\\nl'`, kept so by mysql-ddl.ts, is n⏎l and not nnl. */
function unquoteMember(a: string): string {
  const t = a.trim();
  return /^(['"])[\s\S]*\1$/.test(t) && t.length > 1 ? stringValue(t) : t;
}

/**
 * A value given to a column, as it comes: from SQLite (a number, text, bytes or NULL), or from the
 * statement's text, where a numeric literal keeps its digits (`numeric`: MySQL reads 1.50 as the
 * exact decimal 1.50, SQLite as the double 1.5).
 */
export interface GivenValue {
  value: SqlValue;
  numeric?: string;
  /** The bytes of a hexadecimal literal given as a number (a DEFAULT X'4142'): a binary string column stores these, any other column the number. */
  bytes?: Uint8Array;
}

/** The value `c` stores for `given` in row `row` of the statement, or a StoreError. */
export function storeValue(c: ColumnDef, k: StoreKind, given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  // a spatial column checks bytes too (spatial-column.ts)
  if (k.kind === 'geometry') return storeGeometry(c, k, v);
  if (k.kind === 'binary') return v === null ? v : storeBinary(c, k, given, row, strict);
  if (v instanceof Uint8Array) return storeBytes(c, k, v, given, row, strict);
  if (v === null) return v;
  switch (k.kind) {
    case 'none':
      return v;
    case 'int':
      return storeInt(c, k, given, row, strict);
    case 'year':
      return storeYear(c, given, row, strict);
    case 'bit': {
      if (typeof v !== 'number') return v;
      if (v < 0 || v > k.max || !Number.isInteger(v)) {
        refuseLong(strict, c, row);
        return v < 0 ? 0 : Math.min(k.max, Math.round(v));
      }
      return v;
    }
    case 'decimal':
      return storeDecimal(c, k, given, row, strict);
    case 'real':
      return storeReal(c, k, given, row, strict);
    case 'text':
      return storeText(c, k, given.numeric ?? (typeof v === 'number' ? numberText(v) : v), row, strict);
    case 'enum':
      return storeEnum(c, k.members, given, row, strict);
    case 'set':
      return storeSet(c, k.members, given, row, strict);
    case 'date':
    case 'datetime':
    case 'timestamp':
      return storeDateTime(c, k, given, row, strict);
    case 'time':
      return storeTime(c, k.fsp, given, row);
  }
}

/**
 * A value given to a binary string column (Field_string/Field_varstring/Field_blob with the
 * binary charset). Text stays text to SQLite, NULs and all, so that SQLite compares it with a
 * string literal byte for byte as MySQL does (f = 'a\0'); bytes (x'…') stay bytes, and so does
 * text cut inside a character under IGNORE, which is no UTF-8 any more.
 */
function storeBinary(c: ColumnDef, k: { max: number; pad: boolean }, given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  // a literal's bytes that are UTF-8 as text, as a string written to the column is
  if (given.bytes) return storeBinary(c, k, { value: firstInvalidUtf8(given.bytes) === given.bytes.length ? utf8Text(given.bytes) : given.bytes }, row, strict);
  let out: string | Uint8Array = v instanceof Uint8Array ? v : given.numeric ?? (typeof v === 'number' ? numberText(v) : String(v));
  let length = typeof out === 'string' ? encoder.encode(out).length : out.length;
  if (length > k.max) {
    refuseLong(strict, c, row);
    const bytes = (typeof out === 'string' ? encoder.encode(out) : out).subarray(0, k.max);
    out = typeof out === 'string' && firstInvalidUtf8(bytes) === bytes.length ? utf8Text(bytes) : bytes;
    length = k.max;
  }
  if (!k.pad || length >= k.max) return out;
  return typeof out === 'string' ? out + '\0'.repeat(k.max - length) : Uint8Array.from([...out, ...new Uint8Array(k.max - length)]);
}

/**
 * A binary string (x'…', _binary '…', B'…') given to a column: a BIT takes the number its bytes
 * are; a text, ENUM or SET column, and a number column, the text they spell in utf8mb4, where bytes
 * that are no UTF-8 are 1366 (under IGNORE each is stored as ?, as MariaDB 10.11 stores it); a
 * column without store rules keeps the bytes (a binary string column has its own, storeBinary).
 */
function storeBytes(c: ColumnDef, k: StoreKind, v: Uint8Array, given: GivenValue, row: number, strict: boolean): SqlValue {
  if (k.kind === 'bit') return storeValue(c, k, { ...given, value: Number(v.reduce((n, b) => (n << 8n) | BigInt(b), 0n)) }, row, strict);
  if (k.kind === 'none') return v;
  const bad = firstInvalidUtf8(v);
  if (bad < v.length) {
    // Field::check_string_copy_error: up to six bytes from the first that is wrong, as \xNN
    const shown = [...v.subarray(bad, bad + 6)].map((b) => (b >= 0x20 && b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
    refuse(strict, incorrect(1366, 'string', `${shown}${v.length - bad > 6 ? '...' : ''}`, c, row));
  }
  return storeValue(c, k, { value: utf8Text(v) }, row, strict);
}

/** How MySQL prints a double it turns into text (%.15g, without trailing zeros). */
function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const s = n.toPrecision(15);
  return s.includes('e') ? s.replace(/\.?0+e/, 'e').replace(/e\+?/, 'e') : s.replace(/\.?0+$/, '');
}

// ------------------------------------------------------------------------------------ numbers

/** A number read from text as MySQL reads it: its digits (sign, integer part, fraction, exponent), and whether anything but blanks follows. */
interface ReadNumber {
  negative: boolean;
  int: string;
  frac: string;
  exp: number;
  /** Something other than blanks after the number. */
  rest: boolean;
}

const NUMBER_TEXT = /^[ \t\n\r]*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?/;

function readNumber(s: string): ReadNumber | undefined {
  const m = NUMBER_TEXT.exec(s)!;
  if (!m[2] && !m[3]) return undefined;
  return { negative: m[1] === '-', int: m[2] ?? '', frac: m[3] ?? '', exp: m[4] ? Number(m[4]) : 0, rest: s.slice(m[0].length).trim() !== '' };
}

/** The number `given` holds: its exact digits, or undefined when it is text that is no number (`bad` then tells 1366 from 1265). */
function numberOf(given: GivenValue): { n: ReadNumber; text: string } | undefined {
  const v = given.value;
  const text = given.numeric ?? (typeof v === 'number' ? exactText(v) : String(v));
  const n = readNumber(text);
  return n ? { n, text } : undefined;
}

/** A double's digits without an exponent (so that rounding works on its decimal digits). */
function exactText(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return BigInt(v).toString();
  const s = String(v);
  if (!/e/i.test(s)) return s;
  return v.toFixed(Math.min(100, Math.max(0, 20 - Math.floor(Math.log10(Math.abs(v))))));
}

/** The number's digits shifted by its exponent: `digits` scaled by 10^-scale. */
function scaled(n: ReadNumber): { digits: string; scale: number } {
  let int = n.int.replace(/^0+/, '');
  let frac = n.frac;
  if (n.exp > 0) {
    const moved = frac.slice(0, n.exp).padEnd(n.exp, '0');
    int += moved;
    frac = frac.slice(n.exp);
  } else if (n.exp < 0) {
    const k = -n.exp;
    const all = int.padStart(k, '0');
    frac = all.slice(all.length - k) + frac;
    int = all.slice(0, all.length - k);
  }
  return { digits: `${int}${frac}`, scale: frac.length };
}

/** The number rounded to `scale` decimals, half away from zero, as a BigInt of units of 10^-scale. */
function roundTo(n: ReadNumber, scale: number): bigint {
  const { digits, scale: has } = scaled(n);
  let units: bigint;
  if (has <= scale) units = BigInt((digits || '0') + '0'.repeat(scale - has));
  else {
    const keep = digits.slice(0, digits.length - (has - scale));
    units = BigInt(keep || '0');
    if (Number(digits[digits.length - (has - scale)] ?? '0') >= 5) units += 1n;
  }
  return n.negative ? -units : units;
}

function storeInt(c: ColumnDef, k: { min: bigint; max: bigint; minNumber: number; maxNumber: number }, given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  // the common case: an integer well within the range
  if (typeof v === 'number' && given.numeric === undefined && Number.isSafeInteger(v) && v > k.minNumber && v < k.maxNumber) return v;
  let units: bigint;
  if (typeof v === 'number' && given.numeric === undefined && Number.isInteger(v)) units = BigInt(v);
  else {
    const read = numberOf(given);
    if (!read) {
      refuse(strict, incorrect(1366, 'integer', String(v), c, row));
      return 0;
    }
    if (read.n.rest) refuse(strict, truncated(c, row));
    // a double is rounded by rint() (half to even), text and exact literals half away from zero
    units = typeof v === 'number' && given.numeric === undefined ? BigInt(roundHalfEven(v)) : roundTo(read.n, 0);
  }
  // SQLite's INTEGER is signed: a BIGINT UNSIGNED above it would turn into a double (and SQLite
  // reads such a literal as one before it gets here, so its digits are gone: no 1264 either)
  if (units > INT64_MAX && k.max > INT64_MAX) throw new StoreError(1235, `This version of MySQL doesn't yet support 'BIGINT UNSIGNED values above ${INT64_MAX} in the embedded source'`);
  if (units < k.min || units > k.max) {
    refuse(strict, outOfRange(c, row));
    units = units < k.min ? k.min : k.max;
  }
  return units >= BigInt(Number.MIN_SAFE_INTEGER) && units <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : (units.toString() as unknown as SqlValue);
}

function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function storeYear(c: ColumnDef, given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  const isText = typeof v === 'string';
  const read = numberOf(given);
  if (!read) {
    refuse(strict, incorrect(1366, 'integer', String(v), c, row));
    return 0;
  }
  if (read.n.rest) refuse(strict, truncated(c, row));
  let y = Number(roundTo(read.n, 0));
  // Field_year::store: text '0', '00' is 2000, the number 0 stays 0 (0000)
  if (isText && y === 0 && read.n.int.length > 0 && read.n.int.length <= 2 && !read.n.frac) return 2000;
  if (y === 0) return 0;
  if (y >= 1 && y <= 69) y += 2000;
  else if (y >= 70 && y <= 99) y += 1900;
  if (y < 1901 || y > 2155) {
    refuse(strict, outOfRange(c, row));
    return 0;
  }
  return y;
}

function storeDecimal(c: ColumnDef, k: { precision: number; scale: number; unsigned: boolean }, given: GivenValue, row: number, strict: boolean): SqlValue {
  const read = numberOf(given);
  if (!read) {
    refuse(strict, incorrect(1366, 'decimal', String(given.value), c, row));
    return decimalText(0n, k.scale);
  }
  if (read.n.rest) refuse(strict, truncated(c, row));
  let units = roundTo(read.n, k.scale);
  // digits past the scale are rounded off with a note, strict or not (Field_new_decimal::store_value)
  const { digits, scale: has } = scaled(read.n);
  if (has > k.scale && /[1-9]/.test(digits.slice(digits.length - (has - k.scale)))) warn(1265, truncated(c, row).text, 'Note');
  const limit = 10n ** BigInt(k.precision) - 1n;
  const min = k.unsigned ? 0n : -limit;
  if (units > limit || units < min) {
    refuse(strict, outOfRange(c, row));
    units = units > limit ? limit : min;
  }
  return decimalText(units, k.scale);
}

/**
 * x as CAST(x AS DECIMAL(M,D)) makes it (Item_typecast_decimal), as its text: rounded half away
 * from zero to D decimals, the largest value of its sign past M digits (warning 1264 naming the
 * expression); text read as a column reads it (readNumber), 1292 Truncated incorrect DECIMAL value
 * where more than a number is there, a note where only blanks are around it.
 */
export function castAsDecimal(v: number | bigint | string, precision: number, scale: number, name: string): string {
  const text = typeof v === 'number' ? exactText(v) : String(v);
  const n = readNumber(text);
  if (typeof v === 'string') {
    if (!n || n.rest) warn(1292, `Truncated incorrect DECIMAL value: '${text}'`);
    else if (/^\s|\s$/.test(text)) warn(1292, `Truncated incorrect DECIMAL value: '${text}'`, 'Note');
  }
  let units = n ? roundTo(n, scale) : 0n;
  const limit = 10n ** BigInt(precision) - 1n;
  if (units > limit || units < -limit) {
    units = units > 0n ? limit : -limit;
    warn(1264, `Out of range value for column '${name}' at row 1`);
  }
  return decimalText(units, scale);
}

function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}

function storeReal(c: ColumnDef, k: { float: boolean; precision?: number; scale?: number; unsigned: boolean }, given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  let n: number;
  if (typeof v === 'number') n = v;
  else {
    const read = numberOf(given);
    // Field_double::store(const char*): text that is no number, or has more after it, is WARN_DATA_TRUNCATED
    if (!read || read.n.rest) {
      refuse(strict, truncated(c, row));
      if (!read) return 0;
    }
    n = Number(read.text.trim().match(NUMBER_TEXT)![0]);
  }
  if (!Number.isFinite(n)) {
    refuse(strict, outOfRange(c, row));
    return null;
  }
  if (k.scale !== undefined && k.precision !== undefined) {
    n = Number(n.toFixed(k.scale));
    const max = 10 ** (k.precision - k.scale) - 10 ** -k.scale;
    if (Math.abs(n) > max) {
      refuse(strict, outOfRange(c, row));
      n = Math.sign(n) * max;
    }
  }
  if (k.float && Math.abs(n) > FLOAT_MAX) {
    refuse(strict, outOfRange(c, row));
    n = Math.sign(n) * FLOAT_MAX;
  }
  if (k.unsigned && n < 0) {
    refuse(strict, outOfRange(c, row));
    n = 0;
  }
  return n;
}

// -------------------------------------------------------------------------------------- text

const encoder = new TextEncoder();

function storeText(c: ColumnDef, k: { max: number; bytes: boolean; char: boolean }, s: string, row: number, strict: boolean): SqlValue {
  let out = s;
  // a length in characters (code points) or, for the TEXT types, in utf8mb4 bytes
  const length = (x: string) => (k.bytes ? encoder.encode(x).length : x.length > k.max ? [...x].length : x.length);
  if (out.length > k.max || (k.bytes && out.length * 4 > k.max && length(out) > k.max)) {
    if (length(out) > k.max) {
      const trimmed = out.replace(/ +$/, '');
      // blanks past the end are cut with a note (Field_longstr::check_string_copy_error), anything else is an error
      if (length(trimmed) > k.max) refuseLong(strict, c, row);
      else warn(1265, truncated(c, row).text, 'Note');
      out = cut(out, k.max, k.bytes);
    }
  }
  // CHAR is read back without its trailing blanks (PAD_CHAR_TO_FULL_LENGTH is off)
  if (k.char) out = out.replace(/ +$/, '');
  return out;
}

function cut(s: string, max: number, bytes: boolean): string {
  const chars = [...s];
  if (!bytes) return chars.slice(0, max).join('');
  let out = '';
  let used = 0;
  for (const ch of chars) {
    used += encoder.encode(ch).length;
    if (used > max) break;
    out += ch;
  }
  return out;
}

function storeEnum(c: ColumnDef, members: string[], given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  if (typeof v === 'string' && given.numeric === undefined) {
    const want = v.replace(/ +$/, '').toLowerCase();
    const found = members.find((m) => m.replace(/ +$/, '').toLowerCase() === want);
    if (found !== undefined) return found;
  }
  // a number, or text that is one, is the member's index (Field_enum::store)
  const index = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(String(v)) ? Number(v) : NaN;
  if (Number.isInteger(index) && index >= 1 && index <= members.length) return members[index - 1]!;
  refuse(strict, truncated(c, row));
  return '';
}

function storeSet(c: ColumnDef, members: string[], given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  let mask = 0n;
  let bad = false;
  if (typeof v === 'number' || given.numeric !== undefined || /^\s*\d+\s*$/.test(String(v))) {
    const n = BigInt(Math.trunc(Number(given.numeric ?? v)));
    const all = (1n << BigInt(members.length)) - 1n;
    if (n < 0n || n > all) bad = true;
    mask = n & all;
  } else {
    const s = String(v);
    if (s !== '') {
      for (const part of s.split(',')) {
        const want = part.replace(/ +$/, '').toLowerCase();
        const i = members.findIndex((m) => m.replace(/ +$/, '').toLowerCase() === want);
        if (i < 0) bad = true;
        else mask |= 1n << BigInt(i);
      }
    }
  }
  if (bad) refuse(strict, truncated(c, row));
  return members.filter((_m, i) => (mask >> BigInt(i)) & 1n).join(',');
}

// --------------------------------------------------------------------------------- temporals

interface DateParts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  /** The fraction's digits as given. */
  frac: string;
  hasTime: boolean;
}

const twoDigitYear = (y: number) => (y < 70 ? 2000 + y : 1900 + y);

/** MySQL's relaxed DATE/DATETIME text (str_to_datetime): any punctuation between parts, or digits only. */
function parseDateTime(raw: string): DateParts | undefined {
  const s = raw.trim();
  const digitsOnly = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (digitsOnly) {
    const d = digitsOnly[1]!;
    const frac = digitsOnly[2] ?? '';
    // YYYYMMDD[HHMMSS] or YYMMDD[HHMMSS]
    const layouts: Record<number, [number, boolean]> = { 14: [4, true], 12: [2, true], 8: [4, false], 6: [2, false] };
    const layout = layouts[d.length];
    if (!layout) return undefined;
    const [yw, hasTime] = layout;
    const y = Number(d.slice(0, yw));
    const rest = d.slice(yw);
    const part = (i: number) => Number(rest.slice(i * 2, i * 2 + 2));
    return { y: yw === 2 ? twoDigitYear(y) : y, mo: part(0), d: part(1), h: hasTime ? part(2) : 0, mi: hasTime ? part(3) : 0, s: hasTime ? part(4) : 0, frac: hasTime ? frac : '', hasTime };
  }
  const m = /^(\d{1,4})[^\d\s]+(\d{1,2})[^\d\s]+(\d{1,2})(?:(?:[T ]+|[^\d\s])(\d{1,2})(?:[^\d\s](\d{1,2})(?:[^\d\s](\d{1,2})(?:\.(\d*))?)?)?)?$/.exec(s);
  if (!m) return undefined;
  const yText = m[1]!;
  const y = yText.length <= 2 ? twoDigitYear(Number(yText)) : Number(yText);
  return { y, mo: Number(m[2]), d: Number(m[3]), h: Number(m[4] ?? 0), mi: Number(m[5] ?? 0), s: Number(m[6] ?? 0), frac: m[7] ?? '', hasTime: m[4] !== undefined };
}


/** The fraction rounded to `fsp` digits (MySQL 8.0 rounds; TIME_TRUNCATE_FRACTIONAL is off): its digits, and a carry into the seconds. */
function roundFraction(frac: string, fsp: number): { digits: string; carry: boolean } {
  if (frac.length <= fsp) return { digits: frac.padEnd(fsp, '0'), carry: false };
  let kept = BigInt(frac.slice(0, fsp) || '0');
  if (Number(frac[fsp]) >= 5) kept += 1n;
  if (kept >= 10n ** BigInt(fsp)) return { digits: '0'.repeat(fsp), carry: true };
  return { digits: fsp ? kept.toString().padStart(fsp, '0') : '', carry: false };
}

const TIMESTAMP_MIN = Date.UTC(1970, 0, 1, 0, 0, 1);
const TIMESTAMP_MAX = Date.UTC(2038, 0, 19, 3, 14, 7);

/** The zero value of a DATE, DATETIME or TIMESTAMP column, as it is stored. */
export function zeroDate(k: { kind: 'date' | 'datetime' | 'timestamp'; fsp: number }): string {
  return k.kind === 'date' ? '0000-00-00' : `0000-00-00 00:00:00${k.fsp ? `.${'0'.repeat(k.fsp)}` : ''}`;
}

const ZERO_PARTS: DateParts = { y: 0, mo: 0, d: 0, h: 0, mi: 0, s: 0, frac: '', hasTime: false };

/**
 * Field_temporal::store (MySQL 8.0): a date the column cannot take is an error in strict mode
 * (1292, "datetime" for a TIMESTAMP too); under IGNORE or outside strict mode the column gets its
 * zero value and one warning: 1265 for text that is no date (or a number that is none), 1264 for
 * the rest (a zero date under NO_ZERO_DATE, a zero month or day under NO_ZERO_IN_DATE or in a
 * TIMESTAMP, an impossible day, a TIMESTAMP out of its range). A zero date is zero in its time
 * of day too: '0000-00-00 10:11:12' has zero parts, and DATETIME keeps it outside NO_ZERO_IN_DATE.
 */
function storeDateTime(c: ColumnDef, k: { kind: 'date' | 'datetime' | 'timestamp'; fsp: number }, given: GivenValue, row: number, strict: boolean): SqlValue {
  const v = given.value;
  const numeric = typeof v === 'number' || given.numeric !== undefined;
  const text = given.numeric ?? (typeof v === 'number' ? exactText(v) : String(v));
  const mode = sqlModeNow();
  const fail = (lenient: 1264 | 1265): string => {
    if (strict) throw incorrect(1292, k.kind === 'date' ? 'date' : 'datetime', String(v), c, row);
    warn(lenient, (lenient === 1264 ? outOfRange : truncated)(c, row).text);
    return zeroDate(k);
  };
  // the number 0 is the zero date (number_to_datetime); the text '0' is no date
  const p = numeric && Number(text) === 0 ? ZERO_PARTS : parseDateTime(text);
  if (!p || p.mo > 12 || p.h > 23 || p.mi > 59 || p.s > 59) return fail(1265);
  // number_to_datetime reports any date check a number fails as a cut value
  const invalid = numeric ? 1265 : 1264;
  const { digits, carry } = roundFraction(p.frac, k.fsp);
  if (!(p.y || p.mo || p.d || p.h || p.mi || p.s || /[1-9]/.test(p.frac))) return mode.noZeroDate ? fail(1264) : zeroDate(k);
  if (p.mo === 0 || p.d === 0) {
    // a TIMESTAMP never takes zero parts (Field_timestampf::date_flags)
    if (mode.noZeroInDate || k.kind === 'timestamp') return fail(invalid);
    return partsText(k, p, digits, carry) ?? fail(invalid);
  }
  if (p.d > daysIn(p.y, p.mo)) return fail(invalid);
  if (k.kind === 'date') return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}`;
  let ms = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) + (carry ? 1000 : 0);
  if (p.y < 100) ms = new Date(ms).setUTCFullYear(p.y);
  if (k.kind === 'timestamp' && (ms < TIMESTAMP_MIN || ms > TIMESTAMP_MAX)) return fail(1264);
  const t = new Date(ms);
  const date = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
  return k.fsp ? `${date}.${digits}` : date;
}

/**
 * A date with zero parts written as the column stores it, its parts as given: the calendar cannot
 * carry a rounded fraction into a day that does not exist, so a carry past 23:59:59 is undefined.
 */
function partsText(k: { kind: 'date' | 'datetime' | 'timestamp'; fsp: number }, p: DateParts, digits: string, carry: boolean): string | undefined {
  const date = `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}`;
  if (k.kind === 'date') return date;
  const seconds = p.h * 3600 + p.mi * 60 + p.s + (carry ? 1 : 0);
  if (seconds >= 86_400) return undefined;
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return `${date} ${time}${k.fsp ? `.${digits}` : ''}`;
}

const TIME_MAX_SECONDS = 838 * 3600 + 59 * 60 + 59;

function storeTime(c: ColumnDef, fsp: number, given: GivenValue, row: number): SqlValue {
  const v = given.value;
  const text = (given.numeric ?? (typeof v === 'number' ? exactText(v) : String(v))).trim();
  const bad = () => incorrect(1292, 'time', String(v), c, row);
  let negative = false;
  let h: number, mi: number, s: number;
  let frac: string;
  const colon = /^(-)?(?:(\d+)\s+)?(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d*))?$/.exec(text);
  const digits = /^(-)?(\d+)(?:\.(\d*))?$/.exec(text);
  if (colon) {
    negative = colon[1] === '-';
    h = Number(colon[3]) + Number(colon[2] ?? 0) * 24;
    mi = Number(colon[4]);
    s = Number(colon[5] ?? 0);
    frac = colon[6] ?? '';
  } else if (digits && digits[2]!.length <= 7) {
    // [H…]HHMMSS read from the right: 1112 is 00:11:12
    negative = digits[1] === '-';
    const d = digits[2]!.padStart(6, '0');
    h = Number(d.slice(0, -4));
    mi = Number(d.slice(-4, -2));
    s = Number(d.slice(-2));
    frac = digits[3] ?? '';
  } else {
    const dt = parseDateTime(text);
    if (!dt || !dt.hasTime) throw bad();
    ({ h, mi, s } = dt);
    frac = dt.frac;
  }
  if (mi > 59 || s > 59) throw bad();
  const r = roundFraction(frac, fsp);
  const total = h * 3600 + mi * 60 + s + (r.carry ? 1 : 0);
  if (total > TIME_MAX_SECONDS || (total === TIME_MAX_SECONDS && /[1-9]/.test(r.digits))) throw bad();
  const out = `${negative && (total > 0 || /[1-9]/.test(r.digits)) ? '-' : ''}${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
  return r.digits ? `${out}.${r.digits}` : out;
}
