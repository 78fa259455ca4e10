/**
 * A value read as a date the way MySQL's date functions read it (str_to_datetime, sql-common/
 * my_time.cc), and what they do when it is no date: NULL and warning 1292 "Incorrect datetime
 * value: '…'", which a strict-mode write raises as its error instead (MySQL 8.0's
 * Strict_error_handler turns ER_TRUNCATED_WRONG_VALUE into an error for INSERT, UPDATE and DELETE
 * without IGNORE). SQLite's own date() would normalise '2024-02-30' to '2024-03-01'.
 */
import type { SqlValue } from 'sql.js';
import { daysIn, pad } from './calendar.js';
import { StoreError } from './column-values.js';
import { warn } from './diagnostics.js';
import { statementScope } from './statement-scope.js';

export interface MySqlDateTime {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
  /** microseconds */
  us: number;
  /** The digits of the fraction the text had (a result shows as many, as MariaDB's DATE_ADD does). */
  fsp: number;
  /** The text had a time of day (a DATE's text has none). */
  hasTime: boolean;
}

/** Whether the statement running now is a write in strict mode. */
const strictWrite = statementScope<boolean>();

const WRITE = /^\s*(?:insert|replace|update|delete)\b/i;
const IGNORED = /^\s*\w+(?:\s+(?:low_priority|high_priority|delayed|quick))*\s+ignore\b/i;

/** Runs a statement: in a strict-mode write (no IGNORE) an invalid date is the statement's error, elsewhere a warning. */
export function datesReadFor<R>(sql: string, run: () => R, strict = true): R {
  return strictWrite.run(strict && WRITE.test(sql) && !IGNORED.test(sql), run);
}

/** A date function's condition: a warning in a SELECT (or under IGNORE), the statement's error in a strict-mode write. */
export function dateCondition(code: number, message: string): void {
  if (strictWrite.current) throw new StoreError(code, message);
  warn(code, message);
}

const text = (v: SqlValue): string => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));

// YYYY-MM-DD (any punctuation between the parts, one- or two-digit month and day, a two-digit year) and a time after a blank or T
const DELIMITED = /^\s*(\d{1,4})[-/.:_](\d{1,2})[-/.:_](\d{1,2})(?:(?:T|\s+)(\d{1,2})[:.](\d{1,2})(?::(\d{1,2})(?:\.(\d{1,6})\d*)?)?)?/;
// YYYYMMDD[HHMMSS[.ffffff]] and YYMMDD[HHMMSS], as a number is read
const COMPACT = /^\s*(\d{8}|\d{6})(?:(\d{6})(?:\.(\d{1,6})\d*)?)?$/;

/** A two-digit year as MySQL reads it: 70-99 are 1970-1999, 00-69 are 2000-2069. */
const fullYear = (digits: string) => (digits.length <= 2 ? (Number(digits) < 70 ? 2000 : 1900) + Number(digits) : Number(digits));

/** The parts of the text, and what follows them; undefined when it does not start as a date. */
function split(t: string): { p: MySqlDateTime; rest: string } | undefined {
  const c = COMPACT.exec(t);
  if (c) {
    const date = c[1]!;
    const yl = date.length - 4;
    const time = c[2] ?? '000000';
    return {
      p: { y: fullYear(date.slice(0, yl)), m: +date.slice(yl, yl + 2), d: +date.slice(yl + 2), h: +time.slice(0, 2), i: +time.slice(2, 4), s: +time.slice(4), us: +(c[3] ?? '').padEnd(6, '0'), fsp: c[3]?.length ?? 0, hasTime: c[2] !== undefined },
      rest: '',
    };
  }
  const m = DELIMITED.exec(t);
  if (!m) return undefined;
  return {
    p: { y: fullYear(m[1]!), m: +m[2]!, d: +m[3]!, h: +(m[4] ?? 0), i: +(m[5] ?? 0), s: +(m[6] ?? 0), us: +(m[7] ?? '').padEnd(6, '0'), fsp: m[7]?.length ?? 0, hasTime: m[4] !== undefined },
    rest: t.slice(m[0].length),
  };
}

/**
 * The value as a DATETIME, or undefined (NULL) after the condition MySQL raises: the date must be
 * on the calendar (no February 30th, no month 13, February 29th in leap years only) and the time
 * within a day. `zeroInDate`: a month or day of 0 is taken (YEAR(), DAY(), DATE_FORMAT() read
 * '2024-02-00' with the TIME_FUZZY_DATE flag); the functions that compute with the date
 * (DATE_ADD, DAYNAME, TO_DAYS, DATEDIFF …) refuse it, as MySQL's check_date does without that flag.
 * Text after a valid date is cut with warning "Truncated incorrect date value".
 */
export function readDateTime(v: SqlValue, zeroInDate: boolean): MySqlDateTime | undefined {
  if (v === null || v === undefined) return undefined;
  const t = text(v);
  const read = split(t);
  const p = read?.p;
  const onCalendar = p && p.m <= 12 && p.h <= 23 && p.i <= 59 && p.s <= 59 && (p.m === 0 || p.d <= daysIn(p.y, p.m)) && (zeroInDate || (p.m !== 0 && p.d !== 0));
  if (!read || !onCalendar) {
    dateCondition(1292, `Incorrect datetime value: '${t}'`);
    return undefined;
  }
  if (read.rest.trim()) dateCondition(1292, `Truncated incorrect ${p.hasTime ? 'datetime' : 'date'} value: '${t}'`);
  return p;
}

/** 'YYYY-MM-DD' */
export const dateText = (p: { y: number; m: number; d: number }) => `${pad(p.y, 4)}-${pad(p.m)}-${pad(p.d)}`;
/** 'YYYY-MM-DD HH:MM:SS[.f…]', the fraction in as many digits as the value read had */
export const dateTimeText = (p: MySqlDateTime) => `${dateText(p)} ${pad(p.h)}:${pad(p.i)}:${pad(p.s)}${p.fsp ? `.${pad(p.us, 6).slice(0, p.fsp)}` : ''}`;

/** DATE(expr): the date part, NULL and a warning for what is no date. */
export function mysqlDate(v: SqlValue): SqlValue {
  const p = readDateTime(v, true);
  return p ? dateText(p) : null;
}
