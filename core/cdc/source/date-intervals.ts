/**
 * MySQL's `INTERVAL expr unit`: where it ends in a statement (the amount may be a number, a
 * string such as '1:30', a column, a variable or an expression in parentheses), and what it
 * amounts to, as get_interval_value (sql/item_timefunc.cc) reads it: a compound unit's text as its
 * digit groups ('1:30' HOUR_MINUTE, '1-2' YEAR_MONTH, '1 10:00:00' DAY_SECOND; fewer groups fill
 * the smallest parts), a number rounded to an integer (INTERVAL 1.5 DAY is 2 days) except for
 * SECOND, which keeps its fraction.
 */
import type { SqlValue } from 'sql.js';
import { dateCondition } from './mysql-dates.js';
import { closingParen } from './sql-text.js';

/** A compound unit's parts, largest first. */
const COMPOUND: Record<string, string[]> = {
  year_month: ['year', 'month'],
  day_hour: ['day', 'hour'],
  day_minute: ['day', 'hour', 'minute'],
  day_second: ['day', 'hour', 'minute', 'second'],
  day_microsecond: ['day', 'hour', 'minute', 'second', 'microsecond'],
  hour_minute: ['hour', 'minute'],
  hour_second: ['hour', 'minute', 'second'],
  hour_microsecond: ['hour', 'minute', 'second', 'microsecond'],
  minute_second: ['minute', 'second'],
  minute_microsecond: ['minute', 'second', 'microsecond'],
  second_microsecond: ['second', 'microsecond'],
};
const MICROS: Record<string, number> = { microsecond: 1, second: 1e6, minute: 6e7, hour: 3.6e9, day: 8.64e10, week: 6.048e11 };
const MONTHS: Record<string, number> = { month: 1, quarter: 3, year: 12 };

const UNIT = new RegExp(`^\\s+(${[...Object.keys(COMPOUND), ...Object.keys(MICROS), ...Object.keys(MONTHS)].join('|')})\\b`, 'i');

/** What an interval amounts to: months (MONTH, QUARTER, YEAR, YEAR_MONTH) or microseconds. */
export type IntervalValue = { months: number } | { us: number };

/** Whether the unit moves the time of day (a DATE's text becomes a DATETIME), and whether it reaches microseconds. */
export const unitKind = (unit: string) => ({ timeOfDay: !/^(?:day|week|month|quarter|year|year_month)$/.test(unit), micro: /microsecond/.test(unit) });

/** The interval `amount unit` (unit in lower case), or undefined for an unknown unit. */
export function intervalValue(amount: SqlValue, unit: string): IntervalValue | undefined {
  const parts = COMPOUND[unit];
  if (parts) {
    const t = amount instanceof Uint8Array ? Buffer.from(amount).toString('utf8') : String(amount);
    const sign = /^\s*-/.test(t) ? -1 : 1;
    const groups = t.match(/\d+/g) ?? [];
    // fewer groups than parts fill the smallest parts ('30' HOUR_MINUTE is 30 minutes); a microsecond part is a fraction's digits
    const values = [...Array<string>(Math.max(0, parts.length - groups.length)).fill('0'), ...groups.slice(0, parts.length)];
    let months = 0;
    let us = 0;
    parts.forEach((p, k) => {
      const v = p === 'microsecond' ? Number(values[k]!.slice(0, 6).padEnd(6, '0')) : Number(values[k]);
      if (p in MONTHS) months += v * MONTHS[p]!;
      else us += v * MICROS[p]!;
    });
    return unit === 'year_month' ? { months: sign * months } : { us: sign * us };
  }
  const x = typeof amount === 'number' || typeof amount === 'bigint' ? Number(amount) : parseFloat(String(amount));
  if (Number.isNaN(x)) return unit in MONTHS ? { months: 0 } : { us: 0 };
  // SECOND keeps a fraction; the others take the integer, rounded half away from zero (a string's integer part)
  if (unit === 'second') return { us: Math.round(x * 1e6) };
  if (typeof amount === 'string' && !/^\s*[-+]?\d+\s*$/.test(amount)) dateCondition(1292, `Truncated incorrect INTEGER value: '${amount}'`);
  const n = typeof amount === 'string' ? Math.trunc(x) : Math.sign(x) * Math.round(Math.abs(x));
  if (unit in MONTHS) return { months: n * MONTHS[unit]! };
  return MICROS[unit] === undefined ? undefined : { us: n * MICROS[unit]! };
}

/**
 * The interval starting at `from` in `sql` (just after the word INTERVAL and its blanks), read
 * in `masked` (sql with quoted text blanked): the amount's SQL, the unit and where it ends.
 */
export function readInterval(sql: string, masked: string, from: number): { amount: string; unit: string; end: number } | undefined {
  let end: number;
  const c = masked[from];
  if (c === "'" || c === '"') {
    end = masked.indexOf(c, from + 1) + 1;
    if (end === 0) return undefined;
  } else if (c === '(') {
    end = closingParen(masked, from) + 1;
    if (end === 0) return undefined;
  } else {
    // operands joined by arithmetic (INTERVAL id + 1 DAY), each a number, a name, a variable, a call or a parenthesis
    end = from;
    for (let first = true; ; first = false) {
      const join = first ? '' : /^\s*[-+*/%]\s*/.exec(masked.slice(end))?.[0];
      if (join === undefined) break;
      const at = end + join.length;
      const token = /^[-+]?\s*(?:\d+(?:\.\d*)?|\.\d+|@{0,2}[A-Za-z_`][\w.`$]*|\?|\()/.exec(masked.slice(at));
      if (!token) break;
      let stop = at + token[0].length;
      // a parenthesis, or a function's call with its arguments
      if (token[0].endsWith('(')) stop = closingParen(masked, stop - 1) + 1;
      else if (/^\s*\(/.test(masked.slice(stop)) && /[A-Za-z_`]$/.test(token[0])) stop = closingParen(masked, masked.indexOf('(', stop)) + 1;
      if (stop === 0) return undefined;
      end = stop;
    }
    if (end === from) return undefined;
  }
  const unit = UNIT.exec(masked.slice(end));
  if (!unit) return undefined;
  return { amount: sql.slice(from, end).trim(), unit: unit[1]!.toLowerCase(), end: end + unit[0].length };
}
