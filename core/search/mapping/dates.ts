/**
 * Date parsing, formats and date math as Elasticsearch's date fields use them. Values are epoch
 * milliseconds (UTC). Formats: the named ones Elasticsearch documents most (strict_date_optional_time,
 * date_optional_time, epoch_millis, epoch_second, strict_date, date, basic_date,
 * strict_date_time) and custom Java-time patterns (yyyy, MM, dd, HH, mm, ss, SSS, Z/XXX, 'literals'),
 * joined with `||`.
 */
const ISO = /^([+-]?\d{4,9})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

function digits(t: string, i: number, len: number): number {
  let v = 0;
  for (let k = i; k < i + len; k++) {
    const c = t.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/** yyyy-MM-ddTHH:mm:ss[.SSS]Z, the form logs use most: read digit by digit, no regex, no allocation. */
function fullIsoZ(t: string): number | undefined {
  const n = t.length;
  if ((n !== 20 && n !== 24) || t.charCodeAt(n - 1) !== 90 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45 || t.charCodeAt(10) !== 84 || t.charCodeAt(13) !== 58 || t.charCodeAt(16) !== 58) return undefined;
  let ms = 0;
  if (n === 24) {
    if (t.charCodeAt(19) !== 46) return undefined;
    ms = digits(t, 20, 3);
  }
  const year = digits(t, 0, 4);
  const month = digits(t, 5, 2);
  const day = digits(t, 8, 2);
  const hour = digits(t, 11, 2);
  const minute = digits(t, 14, 2);
  const second = digits(t, 17, 2);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0)) return undefined;
  const value = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (day > 28 && new Date(value).getUTCDate() !== day) return undefined;
  return value;
}

function isoToMillis(text: string, strict: boolean): number | undefined {
  const fast = fullIsoZ(text);
  if (fast !== undefined) return fast;
  const m = ISO.exec(text);
  if (!m) return undefined;
  if (strict && m[1]!.length !== 4) return undefined;
  const [year, month = '1', day = '1', hour = '0', minute = '0', second = '0', frac = '0', zone] = m.slice(1) as string[];
  const mo = Number(month);
  const d = Number(day);
  const h = Number(hour);
  const mi = Number(minute);
  const s = Number(second);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  let ms = Date.UTC(Number(year), mo - 1, d, h, mi, s, Number((frac + '00').slice(0, 3)));
  if (new Date(ms).getUTCDate() !== d && day !== undefined) return undefined;
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60000;
  }
  return ms;
}

type Parser = (text: string) => number | undefined;

const NAMED: Record<string, Parser> = {
  strict_date_optional_time: (t) => isoToMillis(t, true),
  date_optional_time: (t) => isoToMillis(t, false),
  strict_date_optional_time_nanos: (t) => isoToMillis(t, true),
  strict_date_time: (t) => (/T.*(Z|[+-]\d\d:?\d\d)$/.test(t) ? isoToMillis(t, true) : undefined),
  date_time: (t) => (/T/.test(t) ? isoToMillis(t, false) : undefined),
  strict_date: (t) => (/^\d{4}-\d{2}-\d{2}$/.test(t) ? isoToMillis(t, true) : undefined),
  date: (t) => (/^\d{4}-\d{1,2}-\d{1,2}$/.test(t) ? isoToMillis(t.replace(/-(\d)(?=-|$)/g, '-0$1'), false) : undefined),
  basic_date: (t) => (/^\d{8}$/.test(t) ? isoToMillis(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6)}`, true) : undefined),
  epoch_millis: (t) => (/^-?\d+(\.\d+)?$/.test(t) ? Math.trunc(Number(t)) : undefined),
  epoch_second: (t) => (/^-?\d+(\.\d+)?$/.test(t) ? Math.round(Number(t) * 1000) : undefined),
};

function customPattern(pattern: string): Parser {
  const groups: string[] = [];
  let re = '^';
  for (let i = 0; i < pattern.length; ) {
    const ch = pattern[i]!;
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      const lit = pattern.slice(i + 1, end < 0 ? undefined : end);
      re += lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    let j = i;
    while (j < pattern.length && pattern[j] === ch) j++;
    const run = pattern.slice(i, j);
    i = j;
    if ('yuMdHhmsSaZX'.includes(ch)) {
      groups.push(ch);
      if (ch === 'Z' || ch === 'X') re += '(Z|[+-]\\d{2}:?\\d{2})';
      else if (ch === 'a') re += '(AM|PM|am|pm)';
      else if (ch === 'S') re += `(\\d{1,${Math.max(run.length, 3)}})`;
      else if (ch === 'y' || ch === 'u') re += run.length === 2 ? '(\\d{2})' : '(\\d{4})';
      else re += run.length === 1 ? '(\\d{1,2})' : `(\\d{${run.length}})`;
    } else {
      re += run.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  const regex = new RegExp(re + '$');
  return (text) => {
    const m = regex.exec(text);
    if (!m) return undefined;
    const v: Record<string, string> = {};
    groups.forEach((g, k) => (v[g] = m[k + 1]!));
    let year = Number(v.y ?? v.u ?? '1970');
    if ((v.y ?? v.u)?.length === 2) year += 2000;
    let hour = Number(v.H ?? v.h ?? '0');
    if (v.a && /pm/i.test(v.a) && hour < 12) hour += 12;
    if (v.a && /am/i.test(v.a) && hour === 12) hour = 0;
    let ms = Date.UTC(year, Number(v.M ?? '1') - 1, Number(v.d ?? '1'), hour, Number(v.m ?? '0'), Number(v.s ?? '0'), Number(((v.S ?? '0') + '00').slice(0, 3)));
    const zone = v.Z ?? v.X;
    if (zone && zone !== 'Z') {
      const digits = zone.slice(1).replace(':', '');
      ms -= (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
    }
    return ms;
  };
}

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

const cache = new Map<string, Parser[]>();

function parsersFor(format: string): Parser[] {
  let p = cache.get(format);
  if (!p) {
    p = format.split('||').map((f) => NAMED[f.trim()] ?? customPattern(f.trim()));
    cache.set(format, p);
  }
  return p;
}

/** Validates a `format` when a mapping is created. */
export function checkDateFormat(format: string): void {
  parsersFor(format);
}

/** Epoch millis for `value` under `format`, or undefined when no format accepts it. */
export function parseDate(value: unknown, format = DEFAULT_DATE_FORMAT): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  for (const parse of parsersFor(format)) {
    const ms = parse(value.trim());
    if (ms !== undefined && Number.isFinite(ms)) return ms;
  }
  return undefined;
}

/** Dynamic mapping's date detection (dynamic_date_formats default): full ISO dates and yyyy/MM/dd. */
export function looksLikeDate(value: string): boolean {
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}(:\d{2}(:\d{2}([.,]\d{1,9})?)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/.test(value)) return isoToMillis(value, true) !== undefined;
  return /^\d{4}\/\d{2}\/\d{2}( \d{2}:\d{2}:\d{2})?( [+-]\d{4})?$/.test(value);
}

/** Formats epoch millis the way Elasticsearch shows dates (strict_date_optional_time). */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString();
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60000, h: 3600000, H: 3600000, d: 86400000, w: 604800000 };

/**
 * Date math: `now-1d/d`, `2024-01-01||+1M/d`. `roundUp` is true for gt and lte bounds, where
 * Elasticsearch rounds to the last millisecond of the unit.
 */
export function parseDateMath(text: string, format: string, now: number, roundUp: boolean): number | undefined {
  let base: number | undefined;
  let rest: string;
  if (text.startsWith('now')) {
    base = now;
    rest = text.slice(3);
  } else {
    const sep = text.indexOf('||');
    if (sep < 0) return parseDate(text, format);
    base = parseDate(text.slice(0, sep), format);
    rest = text.slice(sep + 2);
  }
  if (base === undefined) return undefined;
  let d = new Date(base);
  const re = /([+-])(\d*)([yMwdhHms])|\/([yMwdhHms])/y;
  let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m) return undefined;
    pos = re.lastIndex;
    if (m[4]) {
      d = roundDate(d, m[4], roundUp);
      continue;
    }
    const n = (m[1] === '-' ? -1 : 1) * (m[2] === '' ? 1 : Number(m[2]));
    const unit = m[3]!;
    if (unit === 'y') d = addMonths(d, 12 * n);
    else if (unit === 'M') d = addMonths(d, n);
    else d = new Date(d.getTime() + n * UNIT_MS[unit]!);
  }
  return d.getTime();
}

function roundDate(d: Date, unit: string, up: boolean): Date {
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  let start: number;
  let next: number;
  switch (unit) {
    case 'y':
      start = Date.UTC(y, 0, 1);
      next = Date.UTC(y + 1, 0, 1);
      break;
    case 'M':
      start = Date.UTC(y, mo, 1);
      next = Date.UTC(y, mo + 1, 1);
      break;
    case 'w': {
      const dow = (d.getUTCDay() + 6) % 7; // weeks start on Monday
      start = Date.UTC(y, mo, day - dow);
      next = start + 604800000;
      break;
    }
    case 'd':
      start = Date.UTC(y, mo, day);
      next = start + 86400000;
      break;
    default: {
      const size = UNIT_MS[unit]!;
      start = Math.floor(d.getTime() / size) * size;
      next = start + size;
    }
  }
  return new Date(up ? next - 1 : start);
}

/** Java's plusMonths: the day is clamped to the target month's length (Jan 31 + 1M = Feb 29). */
function addMonths(d: Date, n: number): Date {
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + n;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  const days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const ms = d.getTime() - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), days)) + ms);
}
