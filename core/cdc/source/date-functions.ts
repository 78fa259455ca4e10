/**
 * MySQL's date arithmetic and formatting on SQLite: `x + INTERVAL n unit`, `x - INTERVAL n unit`,
 * DATE_ADD/DATE_SUB/ADDDATE/SUBDATE(x, INTERVAL n unit) become SQLite date modifiers (months
 * clamped to the month's last day, as MySQL does), and DATE_FORMAT is a function of the
 * connection.
 */
import type { Database } from 'sql.js';
import { closingParen, maskQuoted, topLevel } from './sql-text.js';

/** SQLite modifiers per MySQL unit; units of a day or more keep a DATE a DATE. */
const UNITS: Record<string, { n: number; unit: string; dateStays: boolean }> = {
  second: { n: 1, unit: 'seconds', dateStays: false },
  minute: { n: 1, unit: 'minutes', dateStays: false },
  hour: { n: 1, unit: 'hours', dateStays: false },
  day: { n: 1, unit: 'days', dateStays: true },
  week: { n: 7, unit: 'days', dateStays: true },
  month: { n: 1, unit: 'months', dateStays: true },
  quarter: { n: 3, unit: 'months', dateStays: true },
  year: { n: 1, unit: 'years', dateStays: true },
};

const INTERVAL = /^\s*interval\s+(?:'(-?\d+)'|(-?\d+))\s+(second|minute|hour|day|week|month|quarter|year)\b/i;

/** `x` moved by `sign × n unit`, as SQL. */
function shifted(x: string, sign: number, amount: string, unitName: string): string {
  const u = UNITS[unitName.toLowerCase()]!;
  const n = sign * Number(amount) * u.n;
  const mods = `'${n >= 0 ? '+' : ''}${n} ${u.unit}'${u.unit === 'months' || u.unit === 'years' ? ", 'floor'" : ''}`;
  return u.dateStays ? `(CASE WHEN length(${x}) = 10 THEN date(${x}, ${mods}) ELSE datetime(${x}, ${mods}) END)` : `datetime(${x}, ${mods})`;
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
  for (let guard = 0; guard < 100; guard++) {
    const masked = maskQuoted(out);
    const m = /\b(date_add|adddate|date_sub|subdate)\s*\(/i.exec(masked);
    if (!m) break;
    const open = m.index + m[0].length - 1;
    const close = closingParen(masked, open);
    const at = close < 0 ? -1 : topLevel(masked.slice(open + 1, close)).indexOf(',');
    if (at < 0) break;
    const comma = open + 1 + at;
    const iv = INTERVAL.exec(out.slice(comma + 1, close));
    if (!iv || out.slice(comma + 1 + iv[0].length, close).trim()) break;
    const sign = /sub/i.test(m[1]!) ? -1 : 1;
    out = out.slice(0, m.index) + shifted(out.slice(open + 1, comma).trim(), sign, iv[1] ?? iv[2]!, iv[3]!) + out.slice(close + 1);
  }
  // x + INTERVAL n unit, x - INTERVAL n unit
  for (let guard = 0; guard < 100; guard++) {
    const m = /([+-])\s*interval\b/i.exec(maskQuoted(out));
    if (!m) break;
    const iv = INTERVAL.exec(out.slice(m.index + 1));
    if (!iv) break;
    const start = operandStart(out, m.index);
    const x = out.slice(start, m.index).trim();
    if (!x) break;
    out = out.slice(0, start) + shifted(x, m[1] === '-' ? -1 : 1, iv[1] ?? iv[2]!, iv[3]!) + out.slice(m.index + 1 + iv[0].length);
  }
  return out;
}

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** 0 for Sunday … 6 for Saturday. */
export const dayOfWeek = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();
/** 1 for January 1st. */
export const dayOfYear = (y: number, m: number, d: number) => Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const ordinal = (d: number) => `${d}${d % 100 >= 11 && d % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][d % 10] ?? 'th'}`;

/** MySQL's DATE_FORMAT for 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]' values; NULL for anything else, as MySQL. */
export function dateFormat(value: unknown, format: unknown): string | null {
  if (value === null || value === undefined || format === null || format === undefined) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?$/.exec(String(value).trim());
  if (!m) return null;
  const [Y, M, D, h, i, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const micro = (m[7] ?? '').padEnd(6, '0');
  const dow = dayOfWeek(Y, M, D);
  const yday = dayOfYear(Y, M, D);
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const f = String(format);
  let out = '';
  for (let k = 0; k < f.length; k++) {
    if (f[k] !== '%' || k === f.length - 1) {
      out += f[k];
      continue;
    }
    const c = f[++k]!;
    switch (c) {
      case 'Y': out += pad(Y, 4); break;
      case 'y': out += pad(Y % 100); break;
      case 'm': out += pad(M); break;
      case 'c': out += String(M); break;
      case 'd': out += pad(D); break;
      case 'e': out += String(D); break;
      case 'D': out += ordinal(D); break;
      case 'H': out += pad(h); break;
      case 'k': out += String(h); break;
      case 'h': case 'I': out += pad(h12); break;
      case 'l': out += String(h12); break;
      case 'i': out += pad(i); break;
      case 's': case 'S': out += pad(s); break;
      case 'f': out += micro; break;
      case 'p': out += h < 12 ? 'AM' : 'PM'; break;
      case 'T': out += `${pad(h)}:${pad(i)}:${pad(s)}`; break;
      case 'r': out += `${pad(h12)}:${pad(i)}:${pad(s)} ${h < 12 ? 'AM' : 'PM'}`; break;
      case 'W': out += DAYS[dow]; break;
      case 'a': out += DAYS[dow]!.slice(0, 3); break;
      case 'w': out += String(dow); break;
      case 'M': out += MONTHS[M - 1]; break;
      case 'b': out += MONTHS[M - 1]!.slice(0, 3); break;
      case 'j': out += pad(yday, 3); break;
      default: out += c; // %% and unknown specifiers: the character itself, as MySQL
    }
  }
  return out;
}

/** Functions MySQL has and SQLite lacks, on one connection (registered again whenever the connection is prepared). */
export function registerDateFunctions(db: Database): void {
  db.create_function('date_format', dateFormat);
}
