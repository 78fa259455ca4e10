/**
 * MySQL's functions that turn a date into a number or a number into a date, and the format and
 * time zone lookups: UNIX_TIMESTAMP, TO_SECONDS, FROM_DAYS, FROM_UNIXTIME, PERIOD_ADD, PERIOD_DIFF, WEEKOFYEAR,
 * YEARWEEK, CONVERT_TZ (numeric offsets; the embedded source has no time zone tables, where a
 * named zone is NULL as on a server without them) and GET_FORMAT. SQLite has none of them.
 */
import type { SqlValue } from 'sql.js';
import { pad } from './calendar.js';
import { dayNumber, dateFormat, week, yearWeek } from './date-functions.js';
import { dateCondition, dateText, dateTimeText, readDateTime } from './mysql-dates.js';

const isNull = (...vs: SqlValue[]) => vs.some((v) => v === null || v === undefined);
const text = (v: SqlValue): string => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));

/** The day numbers MySQL's get_date_from_daynr turns into a date: below 366 and past 9999-12-31 it is 0000-00-00. */
const FIRST_DAYNR = 366;
const LAST_DAYNR = 3_652_424;
const DAYNR_1970 = 719_528;

/** The date of day number `n` (FROM_DAYS), as MySQL's get_date_from_daynr. */
function fromDays(n: SqlValue): SqlValue {
  if (isNull(n)) return null;
  // text is read as an integer, as far as it is one
  const digits = typeof n === 'string' ? (/^\s*[-+]?\d+/.exec(n)?.[0] ?? '0') : undefined;
  if (typeof n === 'string' && !/^\s*[-+]?\d+\s*$/.test(n)) dateCondition(1292, `Truncated incorrect INTEGER value: '${n}'`);
  const daynr = digits === undefined ? Math.round(Number(n)) : Number(digits);
  if (!(daynr >= FIRST_DAYNR && daynr <= LAST_DAYNR)) return '0000-00-00';
  const at = new Date((daynr - DAYNR_1970) * 86_400_000);
  return dateText({ y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate() });
}

/** FROM_UNIXTIME(n): the UTC DATETIME (the embedded source's time zone); NULL before 1970 and past 3001-01-18 23:59:59 (MySQL 8.0's limit on 64-bit platforms). */
function fromUnixtime(n: SqlValue): string | null {
  if (isNull(n)) return null;
  const x = Number(n);
  if (!(x >= 0 && x <= 32_536_771_199)) return null;
  // as many fraction digits as the number had, up to 6 (MySQL 8.0 manual, FROM_UNIXTIME())
  const fsp = Math.min(6, /\.(\d+)/.exec(text(n))?.[1]?.length ?? 0);
  const secs = Math.floor(x);
  const at = new Date(secs * 1000);
  const us = Math.round((x - secs) * 1_000_000);
  return dateTimeText({ y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate(), h: at.getUTCHours(), i: at.getUTCMinutes(), s: at.getUTCSeconds(), us, fsp, hasTime: true });
}

/**
 * UNIX_TIMESTAMP(date): seconds since 1970 in UTC (the embedded source's clock and DATETIMEs are
 * UTC), with the fraction the value has as a DECIMAL's digits; 0 outside a TIMESTAMP's range
 * (MySQL 8.0 manual, UNIX_TIMESTAMP(): "If you pass an out-of-range date … it returns 0"; MariaDB
 * answers NULL).
 */
function unixTimestamp(v: SqlValue): SqlValue {
  const p = readDateTime(v, false);
  if (!p) return null;
  const at = new Date(0);
  at.setUTCFullYear(p.y, p.m - 1, p.d);
  at.setUTCHours(p.h, p.i, p.s);
  const secs = at.getTime() / 1000;
  const fraction = p.fsp ? `.${pad(p.us, 6).slice(0, p.fsp)}` : '';
  if (secs < 0 || secs > 32_536_771_199) return fraction ? `0${fraction.replace(/\d/g, '0')}` : 0;
  return fraction ? `${secs}${fraction}` : secs;
}

/** A period YYMM or YYYYMM as months since year 0 (convert_period_to_month). */
function periodMonths(period: number): number {
  if (period === 0) return 0;
  let year = Math.floor(period / 100);
  if (year < 70) year += 2000;
  else if (year < 100) year += 1900;
  return year * 12 + (period % 100) - 1;
}
/** Months since year 0 as YYYYMM (convert_month_to_period). */
function monthsPeriod(months: number): number {
  if (months === 0) return 0;
  let year = Math.floor(months / 12);
  if (year < 100) year += year < 70 ? 2000 : 1900;
  return year * 100 + (months % 12) + 1;
}

/** CONVERT_TZ's offsets: '+HH:MM' from -13:59 to +14:00, as minutes; undefined for a name. */
function offsetMinutes(zone: string): number | undefined {
  const m = /^\s*([+-])(\d{1,2}):(\d{2})\s*$/.exec(zone);
  // SYSTEM is the embedded source's zone, UTC; a named zone ('UTC' too) needs the time zone tables
  if (!m) return /^\s*system\s*$/i.test(zone) ? 0 : undefined;
  const minutes = (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +m[3]!);
  return +m[3]! < 60 && minutes >= -(13 * 60 + 59) && minutes <= 14 * 60 ? minutes : undefined;
}

/** CONVERT_TZ(dt, from, to) for numeric offsets (and SYSTEM, which is UTC here). */
function convertTz(dt: SqlValue, from: SqlValue, to: SqlValue): SqlValue {
  if (isNull(dt, from, to)) return null;
  const a = offsetMinutes(text(from));
  const b = offsetMinutes(text(to));
  if (a === undefined || b === undefined) return null;
  const p = readDateTime(dt, false);
  if (!p) return null;
  const at = new Date(0);
  at.setUTCFullYear(p.y, p.m - 1, p.d);
  at.setUTCHours(p.h, p.i + b - a, p.s);
  return dateTimeText({ ...p, y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate(), h: at.getUTCHours(), i: at.getUTCMinutes(), s: at.getUTCSeconds() });
}

/** GET_FORMAT(type, standard), from the table in MySQL 8.0's manual (TIMESTAMP as DATETIME). */
const FORMATS: Record<string, Record<string, string>> = {
  DATE: { USA: '%m.%d.%Y', JIS: '%Y-%m-%d', ISO: '%Y-%m-%d', EUR: '%d.%m.%Y', INTERNAL: '%Y%m%d' },
  DATETIME: { USA: '%Y-%m-%d %H.%i.%s', JIS: '%Y-%m-%d %H:%i:%s', ISO: '%Y-%m-%d %H:%i:%s', EUR: '%Y-%m-%d %H.%i.%s', INTERNAL: '%Y%m%d%H%i%s' },
  TIME: { USA: '%h:%i:%s %p', JIS: '%H:%i:%s', ISO: '%H:%i:%s', EUR: '%H.%i.%s', INTERNAL: '%H%i%s' },
};
FORMATS.TIMESTAMP = FORMATS.DATETIME!;

export const CONVERSION_FUNCTIONS: Record<string, ((...args: SqlValue[]) => SqlValue)[]> = {
  unix_timestamp: [unixTimestamp],
  to_seconds: [
    (v) => {
      const p = readDateTime(v, false);
      return p ? dayNumber(p.y, p.m, p.d) * 86_400 + p.h * 3600 + p.i * 60 + p.s : null;
    },
  ],
  from_days: [fromDays],
  from_unixtime: [fromUnixtime, (n, f) => (isNull(f) ? null : dateFormat(fromUnixtime(n), f))],
  // a period of 0 is 0 (Item_func_period_add)
  period_add: [(p, n) => (isNull(p, n) ? null : Math.trunc(Number(p)) === 0 ? 0 : monthsPeriod(periodMonths(Math.trunc(Number(p))) + Math.trunc(Number(n))))],
  period_diff: [(a, b) => (isNull(a, b) ? null : periodMonths(Math.trunc(Number(a))) - periodMonths(Math.trunc(Number(b))))],
  // WEEKOFYEAR(d) is WEEK(d, 3); YEARWEEK the week's year and the week (mode 0 unless given)
  weekofyear: [
    (v) => {
      const p = readDateTime(v, false);
      return p ? week(p.y, p.m, p.d, 3) : null;
    },
  ],
  yearweek: [
    (v) => {
      const p = readDateTime(v, false);
      return p ? yearWeek(p.y, p.m, p.d, 0) : null;
    },
    (v, mode) => {
      const p = readDateTime(v, false);
      return p && !isNull(mode) ? yearWeek(p.y, p.m, p.d, Math.trunc(Number(mode))) : null;
    },
  ],
  convert_tz: [convertTz],
  loupe_get_format: [(type, standard) => (isNull(standard) ? null : (FORMATS[text(type)]?.[text(standard).toUpperCase()] ?? null))],
};
