/**
 * MySQL's date arithmetic and formatting on SQLite: `x + INTERVAL n unit`, `x - INTERVAL n unit`,
 * DATE_ADD/DATE_SUB/ADDDATE/SUBDATE(x, INTERVAL n unit) become loupe_date_add(x, n, unit) (months
 * clamped to the month's last day, as MySQL does; an invalid date NULL with MySQL's warning, where
 * SQLite's date modifiers would move it into the next month), and DATE_FORMAT is a function of the
 * connection.
 */
import type { Database, SqlValue } from 'sql.js';
import { closingParen, maskQuoted, replaceOutsideQuotes, topLevel } from './sql-text.js';
import { DAYS, daysIn, MONTHS, pad } from './calendar.js';
import { dateCondition, dateText, dateTimeText, mysqlDate, readDateTime, type MySqlDateTime } from './mysql-dates.js';
import { readTime } from './mysql-times.js';
import { intervalValue, readInterval, unitKind } from './date-intervals.js';
import { strToDate } from './str-to-date.js';

/**
 * DATE_ADD(x, INTERVAL n unit), or DATE_SUB (`sign` -1): a DATE's text stays a date for units of a
 * day or more (YEAR_MONTH too), anything else is a DATETIME; months keep the day, clamped to the
 * new month's last (2024-01-31 + 1 MONTH is 2024-02-29); a microsecond unit shows six fraction
 * digits. A result outside years 0-9999 is NULL with warning 1441, as MySQL's date_add_interval
 * gives.
 */
export function dateAdd(x: SqlValue, amount: SqlValue, unit: SqlValue, sign: SqlValue = 1): SqlValue {
  if (amount === null || amount === undefined || unit === null || unit === undefined) return null;
  const u = String(unit).toLowerCase();
  const step = intervalValue(amount, u);
  const p = readDateTime(x, false);
  if (!p || !step) return null;
  const s = Number(sign) < 0 ? -1 : 1;
  let next;
  if ('months' in step) {
    const months = p.y * 12 + (p.m - 1) + s * step.months;
    const y = Math.floor(months / 12);
    const m = (months % 12) + 1;
    next = { ...p, y, m, d: y >= 0 && y <= 9999 ? Math.min(p.d, daysIn(y, m)) : p.d };
  } else {
    const us = (utcDay(p.y, p.m, p.d) + ((p.h * 60 + p.i) * 60 + p.s) * 1000) * 1000 + p.us + s * step.us;
    const ms = Math.floor(us / 1000);
    const at = new Date(ms);
    next = { ...p, y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate(), h: at.getUTCHours(), i: at.getUTCMinutes(), s: at.getUTCSeconds(), us: ((us % 1_000_000) + 1_000_000) % 1_000_000 };
  }
  if (next.y < 0 || next.y > 9999) {
    dateCondition(1441, 'Datetime function: datetime field overflow');
    return null;
  }
  const kind = unitKind(u);
  // a microsecond unit shows six digits; INTERVAL 1.5 SECOND as many as its number has
  if (kind.micro) next.fsp = 6;
  else if (u === 'second') next.fsp = Math.max(p.fsp, Math.min(6, /\.(\d+)/.exec(String(amount))?.[1]?.length ?? 0));
  return !p.hasTime && !kind.timeOfDay ? dateText(next) : dateTimeText(next);
}

/** `x` moved by `sign × amount unit`, as SQL (a literal integer folded into its sign). */
function shifted(x: string, sign: number, amount: string, unitName: string): string {
  if (/^[-+]?\d+$/.test(amount)) return `loupe_date_add(${x}, ${sign * Number(amount)}, '${unitName}')`;
  return `loupe_date_add(${x}, ${amount}, '${unitName}'${sign < 0 ? ', -1' : ''})`;
}

/** The interval just after `at` in `sql` when the word INTERVAL starts there. */
function intervalAt(sql: string, at: number) {
  const masked = maskQuoted(sql);
  const word = /^\s*interval\s+/i.exec(masked.slice(at));
  return word ? readInterval(sql, masked, at + word[0].length) : undefined;
}

/** Start of the operand that ends just before `end` (a name, a literal, or a call). */
function operandStart(sql: string, end: number): number {
  let i = end;
  while (i > 0 && /\s/.test(sql[i - 1]!)) i--;
  const last = sql[i - 1];
  if (last === "'" || last === '"') {
    const q = last;
    let j = i - 2;
    while (j >= 0 && !(sql[j] === q && sql[j - 1] !== '\\')) j--;
    return Math.max(0, j);
  }
  if (last === ')') {
    let depth = 0;
    let j = i - 1;
    for (; j >= 0; j--) {
      if (sql[j] === ')') depth++;
      else if (sql[j] === '(' && --depth === 0) break;
    }
    i = j;
  }
  while (i > 0 && /[\w$.`]/.test(sql[i - 1]!)) i--;
  return i;
}

/** The statement with MySQL's interval arithmetic written as SQLite date functions. */
export function rewriteIntervals(sql: string): string {
  if (!/\binterval\b/i.test(sql)) return sql;
  let out = sql;
  // DATE_ADD(x, INTERVAL n unit) and friends, innermost first
  let from = 0;
  for (let guard = 0; guard < 100; guard++) {
    const masked = maskQuoted(out);
    const call = /\b(date_add|adddate|date_sub|subdate)\s*\(/gi;
    call.lastIndex = from;
    const m = call.exec(masked);
    if (!m) break;
    // ADDDATE(x, n) has no INTERVAL: rewriteDateCalls takes it
    from = m.index + m[0].length;
    const open = m.index + m[0].length - 1;
    const close = closingParen(masked, open);
    const at = close < 0 ? -1 : topLevel(masked.slice(open + 1, close)).indexOf(',');
    if (at < 0) continue;
    const comma = open + 1 + at;
    const iv = intervalAt(out, comma + 1);
    if (!iv || out.slice(iv.end, close).trim()) continue;
    from = m.index;
    const sign = /sub/i.test(m[1]!) ? -1 : 1;
    out = out.slice(0, m.index) + shifted(out.slice(open + 1, comma).trim(), sign, iv.amount, iv.unit) + out.slice(close + 1);
  }
  // x + INTERVAL n unit, x - INTERVAL n unit
  for (let guard = 0; guard < 100; guard++) {
    const m = /([+-])\s*interval\b/i.exec(maskQuoted(out));
    if (!m) break;
    const iv = intervalAt(out, m.index + 1);
    if (!iv) break;
    const start = operandStart(out, m.index);
    const x = out.slice(start, m.index).trim();
    if (!x) break;
    out = out.slice(0, start) + shifted(x, m[1] === '-' ? -1 : 1, iv.amount, iv.unit) + out.slice(iv.end);
  }
  return out;
}

/** 0 for Sunday … 6 for Saturday. */
export const dayOfWeek = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();
/** 1 for January 1st. */
export const dayOfYear = (y: number, m: number, d: number) => Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
const ordinal = (d: number) => `${d}${d % 100 >= 11 && d % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][d % 10] ?? 'th'}`;

/** MySQL's DATE_FORMAT; NULL for what is no date, with MySQL's warning (a day or month of 0 is read, as MySQL does). */
export function dateFormat(value: unknown, format: unknown): string | null {
  if (value === null || value === undefined || format === null || format === undefined) return null;
  const p = readDateTime(value as SqlValue, true);
  if (!p) return null;
  const { y: Y, m: M, d: D, h, i, s, us } = p;
  const dow = dayOfWeek(Y, M, D);
  const dateSpecifier = (c: string): string | undefined => {
    switch (c) {
      case 'Y': return pad(Y, 4);
      case 'y': return pad(Y % 100);
      case 'm': return pad(M);
      case 'c': return String(M);
      case 'd': return pad(D);
      case 'e': return String(D);
      case 'D': return ordinal(D);
      case 'W': return DAYS[dow];
      case 'a': return DAYS[dow]!.slice(0, 3);
      case 'w': return String(dow);
      case 'M': return MONTHS[M - 1];
      case 'b': return MONTHS[M - 1]!.slice(0, 3);
      case 'j': return pad(dayOfYear(Y, M, D), 3);
      case 'U': return pad(calcWeek(Y, M, D, FIRST_WEEKDAY).week);
      case 'u': return pad(calcWeek(Y, M, D, MONDAY_FIRST).week);
      case 'V': return pad(calcWeek(Y, M, D, WEEK_YEAR | FIRST_WEEKDAY).week);
      case 'v': return pad(calcWeek(Y, M, D, WEEK_YEAR | MONDAY_FIRST).week);
      case 'X': return pad(calcWeek(Y, M, D, WEEK_YEAR | FIRST_WEEKDAY).year, 4);
      case 'x': return pad(calcWeek(Y, M, D, WEEK_YEAR | MONDAY_FIRST).year, 4);
      default: return undefined; // %% and unknown specifiers: the character itself, as MySQL
    }
  };
  return formatWith(String(format), (c) => timeSpecifier(c, h, i, s, us) ?? dateSpecifier(c));
}

/** The %-specifiers of a format replaced by `spec`'s values; undefined keeps the character after the %, null makes the whole result NULL. */
function formatWith(format: string, spec: (c: string) => string | null | undefined): string | null {
  let out = '';
  for (let k = 0; k < format.length; k++) {
    if (format[k] !== '%' || k === format.length - 1) {
      out += format[k];
      continue;
    }
    const c = format[++k]!;
    const v = spec(c);
    if (v === null) return null;
    out += v ?? c;
  }
  return out;
}

/** The time-of-day specifiers DATE_FORMAT and TIME_FORMAT share (in a TIME the hours may pass 23; %h is then hours mod 12). */
function timeSpecifier(c: string, h: number, i: number, s: number, us: number): string | undefined {
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const ampm = h % 24 < 12 ? 'AM' : 'PM';
  switch (c) {
    case 'H': return pad(h);
    case 'k': return String(h);
    case 'h': case 'I': return pad(h12);
    case 'l': return String(h12);
    case 'i': return pad(i);
    case 's': case 'S': return pad(s);
    case 'f': return pad(us, 6);
    case 'p': return ampm;
    case 'T': return `${pad(h)}:${pad(i)}:${pad(s)}`;
    case 'r': return `${pad(h12)}:${pad(i)}:${pad(s)} ${ampm}`;
    default: return undefined;
  }
}

/** A date and time of day, to the microsecond. */
type DateTimeParts = Pick<MySqlDateTime, 'y' | 'm' | 'd' | 'h' | 'i' | 's' | 'us'>;

const DAYNR_1970 = 719_528;
/** MySQL's calc_daynr: days since year 0. */
export const dayNumber = (y: number, m: number, d: number) => utcDay(y, m, d) / 86_400_000 + DAYNR_1970;
/** Midnight UTC of the day, in milliseconds (setUTCFullYear takes years below 100 as they are; Date.UTC reads 24 as 1924). */
function utcDay(y: number, m: number, d: number): number {
  const at = new Date(0);
  at.setUTCFullYear(y, m - 1, d);
  return at.getTime();
}
const daysInYear = (y: number) => ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365);

/**
 * WEEK(date[, mode]) as MySQL's calc_week (sql-common/my_time.cc), with week_mode's flags: bit 0
 * Monday first, bit 1 weeks 1-53 (else 0-53), bit 2 week 1 is the first with a first day (else the
 * first with 4 or more days), flipped when Sunday is first. The default mode is 0.
 */
export function week(y: number, m: number, d: number, mode: number): number {
  return calcWeek(y, m, d, weekMode(mode)).week;
}

/** YEARWEEK(date[, mode]): the year the week belongs to, times 100, plus the week (weeks 1-53 whatever the mode). */
export function yearWeek(y: number, m: number, d: number, mode: number): number {
  const w = calcWeek(y, m, d, weekMode(mode) | WEEK_YEAR);
  return w.year * 100 + w.week;
}

/** week_mode(): the mode's three flags, with week 1's rule flipped when Sunday is first. */
const weekMode = (mode: number) => (mode & 1 ? mode & 7 : (mode & 7) ^ 4);
/** Flags of calc_week: WEEK_MONDAY_FIRST, WEEK_YEAR (weeks 1-53, counted in the week's own year), WEEK_FIRST_WEEKDAY. */
const MONDAY_FIRST = 1;
const WEEK_YEAR = 2;
const FIRST_WEEKDAY = 4;

/** MySQL's calc_week: the week and the year it belongs to (YEARWEEK, %X and %x show that year). */
function calcWeek(y: number, m: number, d: number, format: number): { week: number; year: number } {
  const mondayFirst = (format & 1) !== 0;
  let weekYear = (format & 2) !== 0;
  const firstWeekday = (format & 4) !== 0;
  const daynr = dayNumber(y, m, d);
  let firstDaynr = dayNumber(y, 1, 1);
  let weekday = (firstDaynr + 5 + (mondayFirst ? 0 : 1)) % 7;
  let year = y;
  if (m === 1 && d <= 7 - weekday) {
    if (!weekYear && ((firstWeekday && weekday !== 0) || (!firstWeekday && weekday >= 4))) return { week: 0, year };
    weekYear = true;
    year--;
    const days = daysInYear(year);
    firstDaynr -= days;
    weekday = (weekday + 53 * 7 - days) % 7;
  }
  const days = (firstWeekday && weekday !== 0) || (!firstWeekday && weekday >= 4) ? daynr - (firstDaynr + (7 - weekday)) : daynr - (firstDaynr - weekday);
  if (weekYear && days >= 52 * 7) {
    const wd = (weekday + daysInYear(year)) % 7;
    if ((!firstWeekday && wd < 4) || (firstWeekday && wd === 0)) return { week: 1, year: year + 1 };
  }
  return { week: Math.floor(days / 7) + 1, year };
}

/** TIME_FORMAT(time, format): DATE_FORMAT for a TIME; hours may pass 23 (%H and %k show them all, %h is hours mod 12). */
export function timeFormat(value: unknown, format: unknown): string | null {
  const t = readTime(value as SqlValue);
  if (!t || format === null || format === undefined) return null;
  // date specifiers have no value in a TIME (MySQL 8.0 manual, TIME_FORMAT(): "NULL or 0")
  const out = formatWith(String(format), (c) => (c === '%' ? '%' : (timeSpecifier(c, t.h, t.i, t.s, t.us) ?? null)));
  return out === null ? null : `${t.neg ? '-' : ''}${out}`;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const msOf = (p: DateTimeParts) => Date.UTC(p.y, p.m - 1, p.d, p.h, p.i, p.s);
const withMicro = (text: string, us: number) => (us ? `${text}.${pad(us, 6)}` : text);

/** TIMESTAMP(expr[, time]): the date or datetime as a DATETIME, with the time added. */
function timestamp(value: unknown, add?: unknown): string | null {
  // a day or month of 0 is read, as MySQL's TIMESTAMP(x) reads it (TIME_FUZZY_DATE)
  const p = readDateTime(value as SqlValue, true);
  if (!p) return null;
  if (add === undefined) return withMicro(`${dateText(p)} ${pad(p.h)}:${pad(p.i)}:${pad(p.s)}`, p.us);
  const t = readTime(add as SqlValue);
  if (!t) return null;
  const sign = t.neg ? -1 : 1;
  const us = p.us + sign * t.us;
  const ms = msOf(p) + sign * ((t.h * 3600 + t.i * 60 + t.s) * 1000) + Math.floor(us / 1_000_000) * 1000;
  return withMicro(iso(ms), ((us % 1_000_000) + 1_000_000) % 1_000_000);
}

/** MAKEDATE(year, dayofyear): NULL for a day of year below 1; a two-digit year is 2000-2069 or 1970-1999. */
function makeDate(year: unknown, day: unknown): string | null {
  if (year === null || year === undefined || day === null || day === undefined) return null;
  let y = Math.round(Number(year));
  const n = Math.round(Number(day));
  if (n < 1 || y < 0 || y > 9999) return null;
  if (y < 70) y += 2000;
  else if (y < 100) y += 1900;
  // past 9999-12-31 is NULL (Item_func_makedate: a day number above MAX_DAY_NUMBER)
  const at = utcDay(y, 1, n);
  return at > utcDay(9999, 12, 31) ? null : iso(at).slice(0, 10);
}

/**
 * EXTRACT(unit FROM x): one part, or several written together (DAY_MINUTE of 2 01:02 is 20102).
 * YEAR … DAY read a date (TIME_FUZZY_DATE); the units from DAY_HOUR down read a TIME, whose hours
 * hold its days, signed (Item_extract's date_value), each NULL with its warning for what is none.
 */
function extract(unit: unknown, value: unknown): number | null {
  if (unit === null || unit === undefined) return null;
  const u = String(unit).toUpperCase();
  let p: DateTimeParts;
  let sign = 1;
  if (/^(?:YEAR|YEAR_MONTH|QUARTER|MONTH|WEEK|DAY)$/.test(u)) {
    const d = readDateTime(value as SqlValue, true);
    if (!d) return null;
    p = d;
  } else {
    const t = readTime(value as SqlValue);
    if (!t) return null;
    p = t.date ?? { y: 0, m: 0, d: 0, h: t.h, i: t.i, s: t.s, us: t.us };
    sign = t.neg ? -1 : 1;
  }
  const part: Record<string, number> = { MICROSECOND: p.us, SECOND: p.s, MINUTE: p.i, HOUR: p.h, DAY: p.d, MONTH: p.m, QUARTER: Math.ceil(p.m / 3), YEAR: p.y };
  if (u === 'WEEK') return p.y ? week(p.y, p.m, p.d, 0) : null;
  const [from, to] = u.split('_') as [string, string | undefined];
  if (!to) return part[from] === undefined ? null : sign * part[from];
  const order = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MICROSECOND'];
  const a = order.indexOf(from);
  const b = order.indexOf(to);
  if (a < 0 || b <= a) return null;
  let out = 0;
  for (let k = a; k <= b; k++) out = out * (order[k] === 'MICROSECOND' ? 1_000_000 : 100) + part[order[k]!]!;
  return sign * out;
}

const UNIT_MS: Record<string, number> = { MICROSECOND: 0.001, SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 604_800_000 };
const UNIT_MONTHS: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

/** TIMESTAMPDIFF(unit, a, b): b - a in whole units (truncated toward zero); months count only when the day and time are reached. */
function timestampDiff(unit: unknown, a: unknown, b: unknown): number | null {
  // the second is read only when the first is a date (Item_func_timestamp_diff stops at the first)
  const p = readDateTime(a as SqlValue, false);
  const q = p && readDateTime(b as SqlValue, false);
  if (!p || !q || unit === null || unit === undefined) return null;
  const u = String(unit).toUpperCase().replace(/^SQL_TSI_/, '');
  const msDiff = msOf(q) - msOf(p) + (q.us - p.us) / 1000;
  if (UNIT_MS[u] !== undefined) return Math.trunc(Math.round(msDiff * 1000) / 1000 / UNIT_MS[u]!);
  const per = UNIT_MONTHS[u];
  if (per === undefined) return null;
  const later = msDiff >= 0 ? q : p;
  const earlier = msDiff >= 0 ? p : q;
  let months = (later.y - earlier.y) * 12 + (later.m - earlier.m);
  const rest = (x: DateTimeParts) => [x.d, x.h, x.i, x.s, x.us];
  const [lr, er] = [rest(later), rest(earlier)];
  const k = lr.findIndex((v, n) => v !== er[n]);
  if (k >= 0 && lr[k]! < er[k]!) months--;
  return Math.trunc(months / per) * (msDiff >= 0 ? 1 : -1);
}

/** Functions MySQL has and SQLite lacks, on one connection (registered again whenever the connection is prepared). */
export function registerDateFunctions(db: Database): void {
  db.create_function('date_format', dateFormat);
  db.create_function('loupe_date', mysqlDate);
  db.create_function('loupe_date_add', (x: SqlValue, n: SqlValue, unit: SqlValue) => dateAdd(x, n, unit));
  db.create_function('loupe_date_add', (x: SqlValue, n: SqlValue, unit: SqlValue, sign: SqlValue) => dateAdd(x, n, unit, sign));
  db.create_function('loupe_adddate', (x: SqlValue, n: SqlValue) => dateAdd(x, n, 'day'));
  db.create_function('loupe_subdate', (x: SqlValue, n: SqlValue) => dateAdd(x, n, 'day', -1));
  db.create_function('to_days', (v: SqlValue) => {
    const p = readDateTime(v, false);
    return p ? dayNumber(p.y, p.m, p.d) : null;
  });
  const date = (v: unknown) => readDateTime(v as SqlValue, false);
  db.create_function('week', (v: unknown) => {
    const p = date(v);
    return p ? week(p.y, p.m, p.d, 0) : null;
  });
  db.create_function('week', (v: unknown, mode: unknown) => {
    const p = date(v);
    return p && mode !== null && mode !== undefined ? week(p.y, p.m, p.d, Math.trunc(Number(mode))) : null;
  });
  db.create_function('str_to_date', strToDate);
  db.create_function('time_format', timeFormat);
  db.create_function('timestamp', (v: unknown) => timestamp(v));
  db.create_function('timestamp', (v: unknown, t: unknown) => timestamp(v, t));
  db.create_function('makedate', makeDate);
  db.create_function('loupe_extract', extract);
  db.create_function('timestampdiff', timestampDiff);
}

/**
 * EXTRACT(unit FROM x) as loupe_extract('unit', x), the unit of TIMESTAMPDIFF(unit, a, b) as a
 * string (SQLite would read it as a column), and DATE(x) as loupe_date(x).
 */
export function rewriteDateCalls(sql: string): string {
  let out = sql;
  // MySQL's DATE(x), not SQLite's date(), which moves an invalid date into the next month; CURDATE() is date('now') by now
  if (/\bdate\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /\bdate\s*\(/gi, () => 'loupe_date(').replace(/\bloupe_date\('now'\)/g, "date('now')");
  if (/\bextract\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /\bextract\s*\(\s*([a-z_]+)\s+from\s/gi, (_m, unit: string) => `loupe_extract('${unit.toUpperCase()}', `);
  if (/\btimestampdiff\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /\btimestampdiff\s*\(\s*([a-z_]+)\s*,/gi, (_m, unit: string) => `timestampdiff('${unit.toUpperCase()}',`);
  if (/\btimestampadd\s*\(/i.test(out)) out = rewriteTimestampAdd(out);
  // ADDDATE(x, n) and SUBDATE(x, n) count days (the INTERVAL forms are loupe_date_add by now)
  if (/\b(?:adddate|subdate)\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /\b(adddate|subdate)\s*\(/gi, (_m, name: string) => `loupe_${name.toLowerCase()}(`);
  // MySQL's TIME(x), not SQLite's time(); TIME(3) alone is a column type's precision
  if (/\btime\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /\btime\s*\((?!\s*\d\s*\))/gi, () => 'loupe_time(').replace(/\bloupe_time\('now'\)/g, "time('now')");
  // NOW(fsp) and its synonyms with fraction digits (embedded-source.ts makes NOW() datetime('now'))
  if (/\b(?:now|sysdate|current_timestamp|localtime|localtimestamp|utc_timestamp)\s*\(\s*[1-6]\s*\)/i.test(out)) {
    out = replaceOutsideQuotes(out, /\b(?:now|sysdate|current_timestamp|localtime|localtimestamp|utc_timestamp)\s*\(\s*([1-6])\s*\)/gi, (_m, fsp: string) => `substr(strftime('%Y-%m-%d %H:%M:%f', 'now') || '000', 1, ${20 + Number(fsp)})`);
  }
  if (/\b(?:cur|current_|utc_|local)time/i.test(out)) {
    out = replaceOutsideQuotes(out, /\b(?:curtime|current_time|utc_time)\s*\(\s*(\d?)\s*\)|\butc_time\b(?!\s*\()/gi, (_m, fsp: string | undefined) => clockTime(Number(fsp ?? 0)));
    // the bare keywords SQLite lacks (it has CURRENT_TIME, CURRENT_DATE and CURRENT_TIMESTAMP)
    out = replaceOutsideQuotes(out, /\b(?:localtime|localtimestamp|utc_timestamp)\b(?!\s*\()/gi, () => "datetime('now')");
  }
  if (/\butc_date\b(?!\s*\()/i.test(out)) out = replaceOutsideQuotes(out, /\butc_date\b(?!\s*\()/gi, () => "date('now')");
  if (/\bget_format\s*\(/i.test(out)) out = replaceOutsideQuotes(out, /\bget_format\s*\(\s*(date|datetime|timestamp|time)\s*,/gi, (_m, type: string) => `loupe_get_format('${type.toUpperCase()}',`);
  return out;
}

/** CURTIME([fsp]): the clock's time of day (UTC, as NOW() here), with `fsp` fraction digits (SQLite's clock has milliseconds; finer digits are 0). */
function clockTime(fsp: number): string {
  if (!fsp) return "strftime('%H:%M:%S', 'now')";
  return `substr(strftime('%H:%M:%f', 'now') || '000', 1, ${9 + Math.min(6, fsp)})`;
}

/** TIMESTAMPADD(unit, n, x) as loupe_date_add(x, n, 'unit'), DATE_ADD's arithmetic. */
function rewriteTimestampAdd(sql: string): string {
  let out = sql;
  for (let guard = 0; guard < 100; guard++) {
    const masked = maskQuoted(out);
    const m = /\btimestampadd\s*\(\s*(?:sql_tsi_)?(second|minute|hour|day|week|month|quarter|year)\s*,/i.exec(masked);
    if (!m) break;
    const open = masked.indexOf('(', m.index);
    const close = closingParen(masked, open);
    if (close < 0) break;
    const amountAt = m.index + m[0].length;
    const comma = topLevel(masked.slice(open + 1, close)).indexOf(',', amountAt - open - 1);
    if (comma < 0) break;
    const at = open + 1 + comma;
    out = `${out.slice(0, m.index)}loupe_date_add(${out.slice(at + 1, close).trim()}, ${out.slice(amountAt, at).trim()}, '${m[1]!.toLowerCase()}')${out.slice(close + 1)}`;
  }
  return out;
}
