/**
 * A value read as a TIME the way MySQL 8.0's time functions read it (str_to_time, sql-common/
 * my_time.cc), and the functions built on it: TIME, HOUR, MINUTE, SECOND, MICROSECOND,
 * TIME_TO_SEC, SEC_TO_TIME, MAKETIME, ADDTIME, SUBTIME, TIMEDIFF. A TIME runs from -838:59:59 to
 * 838:59:59 and may pass 24 hours ('35:00:00', '1 10:00:00'). What is no time is NULL with
 * warning 1292 "Incorrect time value: '…'" (the error of a strict-mode write, as for dates);
 * SQLite's time() would read '25:61:00' as NULL silently and '35:00:00' as nothing at all.
 */
import type { SqlValue } from 'sql.js';
import { daysIn, pad } from './calendar.js';
import { dateCondition, dateTimeText, type MySqlDateTime } from './mysql-dates.js';

export interface MySqlTime {
  neg: boolean;
  /** All the hours, days included (a TIME's hours may pass 23). */
  h: number;
  i: number;
  s: number;
  /** microseconds */
  us: number;
  /** The digits of the fraction the text had. */
  fsp: number;
  /** The date, when the text was a DATETIME (str_to_time reads a full timestamp first). */
  date?: MySqlDateTime;
}

const text = (v: SqlValue): string => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));
const isNull = (...vs: SqlValue[]) => vs.some((v) => v === null || v === undefined);

/** The largest TIME, 838:59:59, in seconds. */
const MAX_SECONDS = 838 * 3600 + 59 * 60 + 59;

// str_to_time takes text of 12 characters or more as a full timestamp first: YYYY-MM-DD HH:MM[:SS[.f]] or YYYYMMDDHHMMSS[.f]
const DATETIME = /^(\d{2}|\d{4})[-/.:_](\d{1,2})[-/.:_](\d{1,2})(?:T|\s+)(\d{1,2})[:.](\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?/;
const DATETIME_DIGITS = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d*))?/;
// [D ]HH:MM[:SS][.f], D HH
const COLONS = /^(?:(\d+)\s+)?(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d*))?|^(\d+)\s+(\d+)(?:\.(\d*))?/;
// HHMMSS[.f], MMSS, SS: digits read from the right
const DIGITS = /^(\d+)(?:\.(\d*))?/;

const fraction = (digits: string | undefined) => ({ us: +(digits ?? '').slice(0, 6).padEnd(6, '0'), fsp: Math.min(6, digits?.length ?? 0) });
const fullYear = (digits: string) => (digits.length === 2 ? (Number(digits) < 70 ? 2000 : 1900) + Number(digits) : Number(digits));

/** The time of day `t` spells, as MySQL prints a TIME: at least two digits of hours, the fraction it had. */
export const timeText = (t: Omit<MySqlTime, 'date'>) => `${t.neg ? '-' : ''}${pad(t.h)}:${pad(t.i)}:${pad(t.s)}${t.fsp ? `.${pad(t.us, 6).slice(0, t.fsp)}` : ''}`;

/** Microseconds of a time, signed. */
const micros = (t: MySqlTime) => (t.neg ? -1 : 1) * ((t.h * 3600 + t.i * 60 + t.s) * 1_000_000 + t.us);

/**
 * A TIME of `us` microseconds; past ±838:59:59 the nearest end with warning 1292 "Truncated
 * incorrect time value: '…'" naming the value it would have been (check_time_range_quick).
 */
export function timeOf(us: number, fsp: number): MySqlTime {
  const neg = us < 0;
  const abs = Math.abs(us);
  const secs = Math.floor(abs / 1_000_000);
  const t: MySqlTime = { neg, h: Math.floor(secs / 3600), i: Math.floor(secs / 60) % 60, s: secs % 60, us: abs % 1_000_000, fsp };
  if (secs > MAX_SECONDS) {
    dateCondition(1292, `Truncated incorrect time value: '${timeText({ ...t, fsp: t.us ? 6 : 0 })}'`);
    return { neg, h: 838, i: 59, s: 59, us: 0, fsp };
  }
  return t;
}

/**
 * The value as a TIME, or undefined (NULL) after MySQL's warning: minutes or seconds past 59, a
 * date not on the calendar in a DATETIME's text ('2024-02-30 10:00:00'), or text that is no time.
 * Hours past 838 are 838:59:59 with a warning; text after the time is cut with one.
 */
export function readTime(v: SqlValue): MySqlTime | undefined {
  if (isNull(v)) return undefined;
  const t = text(v);
  const incorrect = () => {
    dateCondition(1292, `Incorrect time value: '${t}'`);
    return undefined;
  };
  let body = t.replace(/^\s+/, '');
  const neg = body.startsWith('-');
  if (neg) body = body.slice(1);
  let read: MySqlTime | undefined;
  let rest: string;
  const dt = body.length >= 12 ? (DATETIME.exec(body) ?? DATETIME_DIGITS.exec(body)) : null;
  if (dt) {
    // a full timestamp: its date must be on the calendar (str_to_datetime's check_date, TIME_FUZZY_DATE: a day or month of 0 is taken)
    const [y, m, d, h, i, s] = [fullYear(dt[1]!), +dt[2]!, +dt[3]!, +dt[4]!, +dt[5]!, +(dt[6] ?? 0)];
    if (m > 12 || (m && d > daysIn(y, m)) || h > 23 || i > 59 || s > 59) return incorrect();
    const f = fraction(dt[7]);
    read = { neg: false, h, i, s, ...f, date: { y, m, d, h, i, s, ...f, hasTime: true } };
    rest = body.slice(dt[0].length);
  } else {
    const c = COLONS.exec(body);
    if (c) {
      const days = +(c[1] ?? c[6] ?? 0);
      read = c[6] !== undefined ? { neg, h: days * 24 + +c[7]!, i: 0, s: 0, ...fraction(c[8]) } : { neg, h: days * 24 + +c[2]!, i: +c[3]!, s: +(c[4] ?? 0), ...fraction(c[5]) };
    } else {
      const n = DIGITS.exec(body);
      if (!n) return incorrect();
      const digits = n[1]!.replace(/^0+(?=\d)/, '');
      const x = Number(digits);
      read = { neg, h: Math.floor(x / 10000), i: Math.floor(x / 100) % 100, s: x % 100, ...fraction(n[2]) };
    }
    rest = body.slice((c ?? DIGITS.exec(body))![0].length);
  }
  if (read.i > 59 || read.s > 59) return incorrect();
  if (rest.trim()) dateCondition(1292, `Truncated incorrect time value: '${t}'`);
  if (read.h > 838) {
    if (!rest.trim()) dateCondition(1292, `Truncated incorrect time value: '${t}'`);
    return { ...read, h: 838, i: 59, s: 59, us: 0 };
  }
  return read;
}

/** A function of the time, NULL for NULL and for what is no time. */
const ofTime = (f: (t: MySqlTime) => SqlValue) => (v: SqlValue): SqlValue => {
  const t = readTime(v);
  return t ? f(t) : null;
};

/** The digits after the point of a number as typed (3661.5 has 1), for a result's fraction. */
const decimals = (v: SqlValue) => Math.min(6, /\.(\d+)/.exec(text(v))?.[1]?.length ?? 0);

/** SEC_TO_TIME(n): past ±838:59:59 the end, with MySQL 8.0's warning (Item_func_sec_to_time::get_time: "Truncated incorrect time value"). */
function secToTime(n: SqlValue): SqlValue {
  if (isNull(n)) return null;
  // text is read as a DECIMAL: as far as it is a number, its fraction in six digits (a string's decimals are not known)
  const t = typeof n === 'string' ? /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/i.exec(n) : null;
  if (typeof n === 'string' && t?.[0] !== n) dateCondition(1292, `Truncated incorrect DECIMAL value: '${n}'`);
  const x = typeof n === 'string' ? Number(t?.[0] ?? 0) : Number(n);
  if (Number.isNaN(x)) return null;
  const fsp = typeof n === 'string' ? 6 : decimals(n);
  const us = Math.trunc(Math.round(x * 1_000_000));
  if (Math.abs(us) > (MAX_SECONDS + 1) * 1_000_000 - 1) {
    dateCondition(1292, `Truncated incorrect time value: '${text(n)}'`);
    return timeText({ neg: x < 0, h: 838, i: 59, s: 59, us: 0, fsp });
  }
  return timeText(timeOf(us, fsp));
}

/** MAKETIME(h, m, s): NULL for minutes or seconds outside 0-59; hours past 838 are 838:59:59 with a warning. */
function makeTime(h: SqlValue, m: SqlValue, s: SqlValue): SqlValue {
  if (isNull(h, m, s)) return null;
  const [hours, minutes, seconds] = [Math.trunc(Number(h)), Math.trunc(Number(m)), Number(s)];
  if (minutes < 0 || minutes > 59 || seconds < 0 || seconds >= 60) return null;
  const fsp = decimals(s);
  const t = { neg: hours < 0, h: Math.abs(hours), i: minutes, s: Math.trunc(seconds), us: Math.round((seconds % 1) * 1_000_000), fsp };
  if (t.h > 838) {
    dateCondition(1292, `Truncated incorrect time value: '${timeText(t)}'`);
    return timeText({ ...t, h: 838, i: 59, s: 59, us: 0 });
  }
  return timeText(t);
}

/**
 * ADDTIME(a, b) and SUBTIME(a, b) (`sign` -1): a DATETIME stays one, a TIME stays a TIME (ended at
 * ±838:59:59); a `b` that is a DATETIME makes the result NULL (Item_func_add_time).
 */
function addTime(a: SqlValue, b: SqlValue, sign: 1 | -1): SqlValue {
  if (isNull(a, b)) return null;
  const x = readTime(a);
  const y = x && readTime(b);
  if (!x || !y || y.date) return null;
  const fsp = Math.max(x.fsp, y.fsp);
  if (!x.date) return timeText(timeOf(micros(x) + sign * micros(y), fsp));
  const start = new Date(0);
  start.setUTCFullYear(x.date.y, x.date.m - 1, x.date.d);
  const at = start.getTime() * 1000 + micros(x) + sign * micros(y);
  const ms = Math.floor(at / 1000);
  const d = new Date(ms);
  const y4 = d.getUTCFullYear();
  if (y4 < 0 || y4 > 9999) return null;
  return dateTimeText({ y: y4, m: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), i: d.getUTCMinutes(), s: d.getUTCSeconds(), us: ((at % 1_000_000) + 1_000_000) % 1_000_000, fsp, hasTime: true });
}

/** TIMEDIFF(a, b): a - b as a TIME; NULL when one is a DATETIME and the other a TIME (Item_func_timediff). */
function timeDiff(a: SqlValue, b: SqlValue): SqlValue {
  if (isNull(a, b)) return null;
  const x = readTime(a);
  const y = x && readTime(b);
  if (!x || !y || !x.date !== !y.date) return null;
  const day = (t: MySqlTime) => {
    if (!t.date) return 0;
    const d = new Date(0);
    d.setUTCFullYear(t.date.y, t.date.m - 1, t.date.d);
    return (d.getTime() / 86_400_000) * 86_400 * 1_000_000;
  };
  return timeText(timeOf(day(x) + micros(x) - day(y) - micros(y), Math.max(x.fsp, y.fsp)));
}

/** The functions of this module, by name (mysql-functions.ts registers them). */
export const TIME_FUNCTIONS: Record<string, ((...args: SqlValue[]) => SqlValue)[]> = {
  // TIME(x) is loupe_time (date-functions.ts' rewrite), keeping SQLite's time('now')
  loupe_time: [ofTime((t) => timeText(t.date ? { ...t, neg: false } : t))],
  // a DATETIME's hour; a TIME's hours may pass 23 (HOUR('838:59:59') is 838)
  hour: [ofTime((t) => t.h)],
  minute: [ofTime((t) => t.i)],
  second: [ofTime((t) => t.s)],
  microsecond: [ofTime((t) => t.us)],
  // an integer in MySQL 8.0 (Item_func_time_to_sec is an Item_int_func); MariaDB keeps the fraction
  time_to_sec: [ofTime((t) => (t.neg ? -1 : 1) * (t.h * 3600 + t.i * 60 + t.s))],
  sec_to_time: [secToTime],
  maketime: [makeTime],
  addtime: [(a, b) => addTime(a, b, 1)],
  subtime: [(a, b) => addTime(a, b, -1)],
  timediff: [timeDiff],
};
