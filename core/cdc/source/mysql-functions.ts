/**
 * MySQL functions SQLite lacks (or has with other meanings: FORMAT is printf there, INSTR is case
 * sensitive, LOG(x) is base 10), as functions of each connection of the embedded source. Text compares as MySQL's
 * default collation does, ignoring case.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Database, SqlValue } from 'sql.js';
import { DAYS, daysIn, MONTHS } from './calendar.js';
import { dayOfWeek, dayOfYear } from './date-functions.js';
import { dateText, readDateTime, type MySqlDateTime } from './mysql-dates.js';
import { bitAnd, bitNot, bitOr, bitXor, logicalXor, shiftLeft, shiftRight, uint64Out } from './bitwise.js';
import { legacyDivide, MAX_OPERANDS, mysqlCalc, rint } from './mysql-arithmetic.js';
import { CONVERSION_FUNCTIONS } from './date-conversions.js';
import { castAsDecimal } from './column-values.js';
import { MySqlError } from './mysql-error.js';
import { warn } from './diagnostics.js';
import { TIME_FUNCTIONS } from './mysql-times.js';
import { conv, toBase } from './number-bases.js';

type Fn = (...args: SqlValue[]) => SqlValue;

const text = (v: SqlValue): string => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));
const isNull = (...vs: SqlValue[]) => vs.some((v) => v === null || v === undefined);
/** `f` as one function per argument count in `counts` (sql.js registers a function for its `length`). */
export const withArities = (counts: number[], f: Fn): Fn[] => counts.map((n) => Object.defineProperty((...a: SqlValue[]) => f(...a), 'length', { value: n }));
/** from, from + 1, … to */
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const epochDay = (p: { y: number; m: number; d: number }) => Date.UTC(p.y, p.m - 1, p.d) / 86_400_000;
/**
 * A function of the date, NULL with MySQL's warning for what is no date (mysql-dates.ts). `zeroInDate`:
 * YEAR, MONTH, DAY and QUARTER read '2024-02-00' (MySQL's TIME_FUZZY_DATE); the others refuse it.
 */
const datePart = (zeroInDate: boolean, f: (p: MySqlDateTime) => SqlValue): Fn => (v) => {
  const p = readDateTime(v, zeroInDate);
  return p ? f(p) : null;
};
const weekday = (p: { y: number; m: number; d: number }) => dayOfWeek(p.y, p.m, p.d);

/** LPAD/RPAD: MySQL cuts a longer string to `n` characters and pads a shorter one with `pad` repeated. */
function pad(s: SqlValue, n: SqlValue, p: SqlValue, left: boolean): SqlValue {
  if (isNull(s, n, p)) return null;
  const chars = [...text(s)];
  const len = Number(n);
  if (len < 0) return null;
  if (chars.length >= len) return chars.slice(0, len).join('');
  const fill = [...text(p)];
  if (!fill.length) return null;
  const padding = Array.from({ length: len - chars.length }, (_, i) => fill[i % fill.length]).join('');
  return left ? padding + chars.join('') : chars.join('') + padding;
}

/** GREATEST/LEAST: NULL if any argument is, numbers compared as numbers, text ignoring case. */
function extreme(args: SqlValue[], sign: 1 | -1): SqlValue {
  if (isNull(...args)) return null;
  const numeric = args.every((a) => typeof a === 'number');
  return args.reduce((best, a) => {
    const cmp = numeric ? (a as number) - (best as number) : text(a).toLowerCase().localeCompare(text(best).toLowerCase());
    return cmp * sign > 0 ? a : best;
  });
}

/** MySQL's FORMAT(x, d): rounded to d decimals with thousands separators, as '1,234.50'. */
function format(x: SqlValue, d: SqlValue): SqlValue {
  if (isNull(x, d)) return null;
  const decimals = Math.max(0, Math.min(30, Math.trunc(Number(d))));
  const [int, frac] = Math.abs(Number(x)).toFixed(decimals).split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${Number(x) < 0 && Number(int) + Number(frac ?? 0) !== 0 ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/** MySQL's REGEXP (ICU in MySQL 8.0): a search anywhere in the text, ignoring case as the default collation does. */
const regexps = new Map<string, RegExp>();
function regexp(pattern: SqlValue, value: SqlValue): SqlValue {
  if (isNull(pattern, value)) return null;
  const p = text(pattern);
  let re = regexps.get(p);
  if (!re) {
    try {
      re = new RegExp(p, 'iu');
    } catch (err) {
      throw new MySqlError(3685, 'HY000', `Illegal argument to a regular expression. (${(err as Error).message})`);
    }
    if (regexps.size > 500) regexps.clear();
    regexps.set(p, re);
  }
  return re.test(text(value)) ? 1 : 0;
}


/** CAST(v AS BINARY[(n)]): the value's bytes (a number's text), padded with 0x00 or cut to n bytes with warning 1292. */
function castBinary(v: SqlValue, n?: SqlValue): SqlValue {
  if (v === null || v === undefined) return null;
  const bytes = v instanceof Uint8Array ? v : Buffer.from(String(v), 'utf8');
  if (n === undefined || n === null) return new Uint8Array(bytes);
  const size = Number(n);
  if (bytes.length > size) warn(1292, `Truncated incorrect BINARY(${size}) value: '${Buffer.from(bytes).toString('utf8')}'`);
  const out = new Uint8Array(size);
  out.set(bytes.subarray(0, size));
  return out;
}

/**
 * CAST(x AS SIGNED|UNSIGNED) as MySQL 8.0 converts: a DECIMAL rounded half away from zero
 * (CAST(91.5 AS SIGNED) = 92; a DECIMAL column arrives as its text, '91.50'), a DOUBLE half to even
 * (rint), a string read as far as it is an integer (CAST('12abc' AS UNSIGNED) = 12, '91.5' is 91),
 * and UNSIGNED as the 64-bit two's complement (CAST(-1 AS UNSIGNED) = 18446744073709551615).
 * `hint` is what the statement shows of the operand: 'd' a DECIMAL literal, 's' a string literal.
 */
function castInteger(v: SqlValue, kind: SqlValue = 's', hint: SqlValue = ''): SqlValue {
  if (isNull(v)) return null;
  let n: bigint;
  if (typeof v === 'number') n = BigInt(Number.isInteger(v) ? v : hint === 'd' ? Math.sign(v) * Math.round(Math.abs(v)) : rint(v));
  else if (typeof v === 'bigint') n = v;
  else {
    const t = text(v);
    const decimal = hint === 's' ? null : /^\s*([-+]?)(\d+)\.(\d+)\s*$/.exec(t);
    if (decimal) n = BigInt(`${decimal[1]}${decimal[2]}`) + BigInt(decimal[3]![0]! >= '5' ? (decimal[1] === '-' ? -1 : 1) : 0);
    else {
      const m = /^\s*[-+]?\d+/.exec(t);
      n = m ? BigInt(m[0].trim()) : 0n;
      // a string that is not all an integer: a warning, a note when only blanks follow (as MySQL reads it)
      const rest = m ? t.slice(m[0].length) : t;
      if (!m || rest.trim() !== '') warn(1292, `Truncated incorrect INTEGER value: '${t}'`);
      else if (rest !== '') warn(1292, `Truncated incorrect INTEGER value: '${t}'`, 'Note');
    }
  }
  if (kind === 'u') return uint64Out(BigInt.asUintN(64, n));
  return Number.isSafeInteger(Number(n)) ? Number(n) : BigInt.asIntN(64, n).toString();
}

/**
 * CAST(x AS DECIMAL(M,D)) and CONVERT(x, DECIMAL(M,D)), as Item_typecast_decimal converts
 * (castAsDecimal, column-values.ts). A number while a double holds it exactly enough (so that it
 * compares and sorts as one), else its text; a select item that is one is shown with its D
 * decimals (decimal-display.ts).
 */
function castDecimal(v: SqlValue, m: SqlValue, d: SqlValue, name: SqlValue): SqlValue {
  if (isNull(v)) return null;
  const out = castAsDecimal(typeof v === 'number' || typeof v === 'bigint' ? v : text(v), Number(m), Number(d), text(name));
  return out.replace(/[-.]/g, '').length <= 15 ? Number(out) : out;
}

/** LENGTH and OCTET_LENGTH count bytes (utf8mb4), as MySQL does; CHAR_LENGTH counts characters. */
const byteLength = (v: SqlValue) => (v instanceof Uint8Array ? v.length : Buffer.byteLength(text(v), 'utf8'));

/** FIELD(s, a, b, …): the position of s among the rest, 0 if absent or NULL; numbers compared as numbers, text ignoring case. */
function field(s: SqlValue, ...list: SqlValue[]): SqlValue {
  if (isNull(s)) return 0;
  const numeric = typeof s === 'number';
  const key = numeric ? s : text(s).toLowerCase();
  const at = list.findIndex((x) => !isNull(x) && (numeric || typeof x === 'number' ? Number(x) === Number(s) : text(x).toLowerCase() === key));
  return at + 1;
}

/** INSERT(str, pos, len, newstr): str with len characters from pos replaced; str itself when pos is outside it. */
function insertString(s: SqlValue, pos: SqlValue, len: SqlValue, repl: SqlValue): SqlValue {
  if (isNull(s, pos, len, repl)) return null;
  const chars = [...text(s)];
  const p = Math.round(Number(pos));
  if (p < 1 || p > chars.length) return chars.join('');
  const l = Math.round(Number(len));
  const end = l < 0 || p - 1 + l > chars.length ? chars.length : p - 1 + l;
  return chars.slice(0, p - 1).join('') + text(repl) + chars.slice(end).join('');
}

/** QUOTE(s): s between single quotes with backslash, quote, NUL and Ctrl-Z escaped; NULL is the word NULL (MySQL 8.0 manual, QUOTE()). */
function quote(s: SqlValue): SqlValue {
  if (isNull(s)) return 'NULL';
  const escapes: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\0': '\\0', '\x1a': '\\Z' };
  return `'${[...text(s)].map((c) => escapes[c] ?? c).join('')}'`;
}

const FUNCTIONS: Record<string, Fn[]> = {
  loupe_cast_integer: withArities([1, 2, 3], castInteger),
  loupe_cast_binary: withArities([1, 2], castBinary),
  loupe_cast_decimal: [castDecimal],
  loupe_calc: withArities(range(1, MAX_OPERANDS + 1), mysqlCalc),
  loupe_div: [legacyDivide],
  loupe_bitnot: [bitNot],
  loupe_bitxor: [bitXor],
  loupe_bitand: [bitAnd],
  loupe_bitor: [bitOr],
  loupe_shl: [shiftLeft],
  loupe_shr: [shiftRight],
  loupe_xor: [logicalXor],
  loupe_insert: [insertString],
  length: [(s) => (isNull(s) ? null : byteLength(s))],
  octet_length: [(s) => (isNull(s) ? null : byteLength(s))],
  bit_length: [(s) => (isNull(s) ? null : 8 * byteLength(s))],
  field: withArities(range(2, 64), field),
  elt: withArities(range(2, 64), (n, ...list) => {
    const i = isNull(n) ? 0 : Math.round(Number(n));
    return i >= 1 && i <= list.length ? (list[i - 1] ?? null) : null;
  }),
  // the first byte, and ORD the first character's bytes as one number (big-endian)
  ascii: [(s) => (isNull(s) ? null : (Buffer.from(text(s), 'utf8')[0] ?? 0))],
  ord: [
    (s) => {
      if (isNull(s)) return null;
      const first = [...text(s)][0];
      return first === undefined ? 0 : [...Buffer.from(first, 'utf8')].reduce((n, b) => n * 256 + b, 0);
    },
  ],
  oct: [(n) => toBase(n, 8)],
  bin: [(n) => toBase(n, 2)],
  conv: [conv],
  quote: [quote],
  // SQLite reads `x REGEXP p` as regexp(p, x)
  regexp: [regexp],
  regexp_like: [(value, pattern) => regexp(pattern, value)],
  year: [datePart(true, (p) => p.y)],
  month: [datePart(true, (p) => p.m)],
  day: [datePart(true, (p) => p.d)],
  dayofmonth: [datePart(true, (p) => p.d)],
  // HOUR, MINUTE, SECOND, TIME_TO_SEC, ADDTIME, TIMEDIFF … read a TIME (mysql-times.ts)
  ...TIME_FUNCTIONS,
  quarter: [datePart(true, (p) => Math.ceil(p.m / 3))],
  dayofweek: [datePart(false, (p) => weekday(p) + 1)],
  weekday: [datePart(false, (p) => (weekday(p) + 6) % 7)],
  dayofyear: [datePart(false, (p) => dayOfYear(p.y, p.m, p.d))],
  dayname: [datePart(false, (p) => DAYS[weekday(p)]!)],
  monthname: [datePart(false, (p) => MONTHS[p.m - 1]!)],
  // a day of 0 is read (LAST_DAY('2024-02-00') is 2024-02-29); a month of 0 is NULL without a warning (MariaDB 10.11)
  last_day: [
    (v) => {
      const p = readDateTime(v, true);
      return p && p.m ? dateText({ y: p.y, m: p.m, d: daysIn(p.y, p.m) }) : null;
    },
  ],
  // both dates are read, each with its warning: MySQL's DATEDIFF(a, b) is TO_DAYS(a) - TO_DAYS(b) (Create_func_datediff)
  datediff: [
    (a, b) => {
      const pa = readDateTime(a, false);
      const pb = readDateTime(b, false);
      return pa && pb ? epochDay(pa) - epochDay(pb) : null;
    },
  ],
  // UNIX_TIMESTAMP, TO_SECONDS, FROM_DAYS, FROM_UNIXTIME, PERIOD_ADD, WEEKOFYEAR, YEARWEEK, CONVERT_TZ … (date-conversions.ts)
  ...CONVERSION_FUNCTIONS,
  left: [(s, n) => (isNull(s, n) ? null : [...text(s)].slice(0, Math.max(0, Number(n))).join(''))],
  right: [(s, n) => (isNull(s, n) ? null : Number(n) <= 0 ? '' : [...text(s)].slice(-Number(n)).join(''))],
  lcase: [(s) => (isNull(s) ? null : text(s).toLowerCase())],
  ucase: [(s) => (isNull(s) ? null : text(s).toUpperCase())],
  char_length: [(s) => (isNull(s) ? null : [...text(s)].length)],
  character_length: [(s) => (isNull(s) ? null : [...text(s)].length)],
  locate: [
    (sub, s) => (isNull(sub, s) ? null : text(s).toLowerCase().indexOf(text(sub).toLowerCase()) + 1),
    (sub, s, pos) => {
      if (isNull(sub, s, pos)) return null;
      const from = Math.max(1, Number(pos));
      const at = text(s).toLowerCase().indexOf(text(sub).toLowerCase(), from - 1);
      return at + 1;
    },
  ],
  instr: [(s, sub) => (isNull(s, sub) ? null : text(s).toLowerCase().indexOf(text(sub).toLowerCase()) + 1)],
  repeat: [(s, n) => (isNull(s, n) ? null : text(s).repeat(Math.max(0, Number(n))))],
  space: [(n) => (isNull(n) ? null : ' '.repeat(Math.max(0, Number(n))))],
  lpad: [(s, n, p) => pad(s, n, p, true)],
  rpad: [(s, n, p) => pad(s, n, p, false)],
  truncate: [(x, d) => (isNull(x, d) ? null : Math.trunc(Number(x) * 10 ** Number(d)) / 10 ** Number(d))],
  format: [format],
  find_in_set: [(s, list) => (isNull(s, list) ? null : text(list).split(',').findIndex((x) => x.toLowerCase() === text(s).toLowerCase()) + 1)],
  substring_index: [
    (s, delim, count) => {
      if (isNull(s, delim, count)) return null;
      const str = text(s);
      const sep = text(delim);
      const n = Math.trunc(Number(count));
      if (!sep || n === 0) return '';
      const pieces = str.split(sep);
      return n > 0 ? pieces.slice(0, n).join(sep) : pieces.slice(n).join(sep);
    },
  ],
  reverse: [(s) => (isNull(s) ? null : [...text(s)].reverse().join(''))],
  // NULL when any argument is NULL (MySQL 8.0 manual, String Functions); SQLite's concat() reads NULL as '',
  // which is CONCAT_WS's rule (and SQLite's concat_ws already follows it)
  concat: withArities(range(1, 64), (...a) => (isNull(...a) ? null : a.map(text).join(''))),
  // HEX: NULL for NULL (SQLite gives ''), a number as its BIGINT's digits (HEX(255) is FF, HEX(-1) sixteen Fs), text and bytes byte by byte
  hex: [(v) => (isNull(v) ? null : typeof v === 'number' ? BigInt.asUintN(64, BigInt(Math.trunc(v))).toString(16).toUpperCase() : Buffer.from(v instanceof Uint8Array ? v : String(v)).toString('hex').toUpperCase())],
  mid: withArities([2, 3], (s, pos, len) => (isNull(s, pos) || (len !== undefined && isNull(len)) ? null : mysqlSubstring(text(s), Number(pos), len === undefined ? undefined : Number(len)))),
  loupe_trim: [(mode, remove, s) => (isNull(remove, s) ? null : trimRepeated(text(s), text(remove), text(mode)))],
  // MySQL's LOG(x) is the natural logarithm (SQLite's is base 10); LOG(b, x) is the same in both
  log: [(x) => (isNull(x) ? null : Number(x) > 0 ? Math.log(Number(x)) : null)],
  cot: [(x) => (isNull(x) ? null : 1 / Math.tan(Number(x)))],
  strcmp: [(a, b) => (isNull(a, b) ? null : Math.sign(text(a).toLowerCase().localeCompare(text(b).toLowerCase())))],
  md5: [(s) => (isNull(s) ? null : createHash('md5').update(text(s)).digest('hex'))],
  sha1: [(s) => (isNull(s) ? null : createHash('sha1').update(text(s)).digest('hex'))],
  sha: [(s) => (isNull(s) ? null : createHash('sha1').update(text(s)).digest('hex'))],
  sha2: [(s, bits) => (isNull(s, bits) ? null : [224, 256, 384, 512, 0].includes(Number(bits)) ? createHash(`sha${Number(bits) || 256}`).update(text(s)).digest('hex') : null)],
  // MySQL's UUID() is version 1; this one is random (version 4), in the same text form
  uuid: [() => randomUUID()],
  rand: [() => Math.random()],
  greatest: withArities(range(2, 8), (...a) => extreme(a, 1)),
  least: withArities(range(2, 8), (...a) => extreme(a, -1)),
};

/** SUBSTRING(s, pos[, len]) as MySQL counts: from 1, a negative position from the end, position 0 nothing. */
export function mysqlSubstring(s: string, pos: number, len?: number): string {
  const chars = [...s];
  if (pos === 0 || Math.abs(pos) > chars.length) return '';
  const from = pos > 0 ? pos - 1 : chars.length + pos;
  return chars.slice(from, len === undefined ? undefined : from + Math.max(0, len)).join('');
}

/** TRIM's removal: whole repeats of `remove` (not its characters one by one), from the start (LEADING), the end (TRAILING) or both. */
export function trimRepeated(s: string, remove: string, mode: string): string {
  if (!remove) return s;
  let out = s;
  if (mode !== 'trailing') while (out.startsWith(remove)) out = out.slice(remove.length);
  if (mode !== 'leading') while (out.endsWith(remove)) out = out.slice(0, out.length - remove.length);
  return out;
}

export function registerMySqlFunctions(db: Database): void {
  for (const [name, fns] of Object.entries(FUNCTIONS)) for (const fn of fns) db.create_function(name, fn);
}
