/**
 * java.text.SimpleDateFormat in UTC with the US locale (what TimestampConverter and
 * TimestampRouter set up): pattern letters, quoting, formatting, and lenient parsing as
 * DateFormat.parse(String) does it (text after the match is ignored; out-of-range fields roll
 * over; adjacent numeric fields take exactly their width).
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const LETTERS = 'GyYMLwWDdFEuaHkKhmsSzZX';
const NUMERIC = 'yYwWDdFuHkKhmsS';

type Item = { letter: string; count: number } | { literal: string };

/** Java's IllegalArgumentException from applyPattern. */
export class IllegalPatternError extends Error {}

export class ParseError extends Error {}

function compile(pattern: string): Item[] {
  const items: Item[] = [];
  let literal = '';
  const flush = () => {
    if (literal) items.push({ literal });
    literal = '';
  };
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        literal += "'";
        i += 2;
        continue;
      }
      const end = findQuoteEnd(pattern, i + 1);
      if (end < 0) throw new IllegalPatternError('Unterminated quote');
      literal += pattern.slice(i + 1, end).replace(/''/g, "'");
      i = end + 1;
    } else if (/[a-zA-Z]/.test(c)) {
      if (!LETTERS.includes(c)) throw new IllegalPatternError(`Illegal pattern character '${c}'`);
      let j = i;
      while (pattern[j] === c) j++;
      flush();
      items.push({ letter: c, count: j - i });
      i = j;
    } else {
      literal += c;
      i++;
    }
  }
  flush();
  return items;
}

function findQuoteEnd(p: string, from: number): number {
  for (let i = from; i < p.length; i++) {
    if (p[i] === "'") {
      if (p[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

const pad = (n: number, width: number) => {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
};

/** Week of year with Sunday first and one minimal day (US). */
function weekOfYear(d: Date): number {
  const jan1 = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  const dayOfYear = Math.floor((d.getTime() - jan1.getTime()) / 86_400_000);
  return Math.floor((dayOfYear + jan1.getUTCDay()) / 7) + 1;
}

export class SimpleDateFormat {
  private readonly items: Item[];

  constructor(readonly pattern: string) {
    this.items = compile(pattern);
  }

  toPattern(): string {
    return this.pattern;
  }

  format(millis: number): string {
    const d = new Date(millis);
    let out = '';
    for (const it of this.items) {
      if ('literal' in it) {
        out += it.literal;
        continue;
      }
      const n = it.count;
      const year = d.getUTCFullYear();
      switch (it.letter) {
        case 'G':
          out += year > 0 ? 'AD' : 'BC';
          break;
        case 'y':
        case 'Y': {
          const y = year > 0 ? year : 1 - year;
          out += n === 2 ? pad(y % 100, 2) : pad(y, n);
          break;
        }
        case 'M':
        case 'L':
          out += n >= 4 ? MONTHS[d.getUTCMonth()] : n === 3 ? MONTHS[d.getUTCMonth()]!.slice(0, 3) : pad(d.getUTCMonth() + 1, n);
          break;
        case 'w':
          out += pad(weekOfYear(d), n);
          break;
        case 'W':
          out += pad(Math.floor((d.getUTCDate() - 1 + new Date(Date.UTC(year, d.getUTCMonth(), 1)).getUTCDay()) / 7) + 1, n);
          break;
        case 'D':
          out += pad(Math.floor((Date.UTC(year, d.getUTCMonth(), d.getUTCDate()) - Date.UTC(year, 0, 1)) / 86_400_000) + 1, n);
          break;
        case 'd':
          out += pad(d.getUTCDate(), n);
          break;
        case 'F':
          out += pad(Math.floor((d.getUTCDate() - 1) / 7) + 1, n);
          break;
        case 'E':
          out += n >= 4 ? DAYS[d.getUTCDay()] : DAYS[d.getUTCDay()]!.slice(0, 3);
          break;
        case 'u':
          out += pad(d.getUTCDay() === 0 ? 7 : d.getUTCDay(), n);
          break;
        case 'a':
          out += d.getUTCHours() < 12 ? 'AM' : 'PM';
          break;
        case 'H':
          out += pad(d.getUTCHours(), n);
          break;
        case 'k':
          out += pad(d.getUTCHours() === 0 ? 24 : d.getUTCHours(), n);
          break;
        case 'K':
          out += pad(d.getUTCHours() % 12, n);
          break;
        case 'h':
          out += pad(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12, n);
          break;
        case 'm':
          out += pad(d.getUTCMinutes(), n);
          break;
        case 's':
          out += pad(d.getUTCSeconds(), n);
          break;
        case 'S':
          out += pad(d.getUTCMilliseconds(), n);
          break;
        case 'z':
          out += n >= 4 ? 'Coordinated Universal Time' : 'UTC';
          break;
        case 'Z':
          out += '+0000';
          break;
        case 'X':
          out += 'Z';
          break;
      }
    }
    return out;
  }

  /** DateFormat.parse(String): epoch millis, or a ParseError ("Unparseable date"). */
  parse(text: string): number {
    const f = { year: 1970, month: 0, day: 1, hour: 0, minute: 0, second: 0, milli: 0, pm: null as boolean | null, hour12: null as number | null, offset: 0, dayOfYear: null as number | null };
    let pos = 0;
    const fail = (): never => {
      throw new ParseError(`Unparseable date: "${text}"`);
    };
    for (let i = 0; i < this.items.length; i++) {
      const it = this.items[i]!;
      if ('literal' in it) {
        if (!text.startsWith(it.literal, pos)) fail();
        pos += it.literal.length;
        continue;
      }
      const next = this.items[i + 1];
      const adjacentNumeric = next !== undefined && 'letter' in next && NUMERIC.includes(next.letter) && !(next.letter === 'M' && next.count >= 3);
      const numeric = NUMERIC.includes(it.letter) || ((it.letter === 'M' || it.letter === 'L') && it.count < 3);
      if (numeric) {
        const m = (adjacentNumeric ? new RegExp(`^[+-]?\\d{1,${it.count}}`) : /^[+-]?\d+/).exec(text.slice(pos));
        if (!m) fail();
        const digits = m![0];
        const v = Number(digits);
        pos += digits.length;
        switch (it.letter) {
          case 'y':
          case 'Y':
            // a two-digit year with a y or yy pattern lands within 80 years before and 20 after now
            if (it.count <= 2 && /^\d{2}$/.test(digits)) {
              const now = new Date().getUTCFullYear();
              const base = now - 80;
              let y = Math.floor(base / 100) * 100 + v;
              if (y < base) y += 100;
              f.year = y;
            } else f.year = v;
            break;
          case 'M':
          case 'L':
            f.month = v - 1;
            break;
          case 'd':
            f.day = v;
            break;
          case 'D':
            f.dayOfYear = v;
            break;
          case 'H':
            f.hour = v;
            break;
          case 'k':
            f.hour = v === 24 ? 0 : v;
            break;
          case 'K':
          case 'h':
            f.hour12 = it.letter === 'h' && v === 12 ? 0 : v;
            break;
          case 'm':
            f.minute = v;
            break;
          case 's':
            f.second = v;
            break;
          case 'S':
            f.milli = v;
            break;
          default:
            // week and day-of-week numbers only shape the date with other fields; ignored
            break;
        }
        continue;
      }
      const rest = text.slice(pos);
      const word = (options: string[]): number => {
        for (let k = 0; k < options.length; k++) if (rest.toLowerCase().startsWith(options[k]!.toLowerCase())) return k;
        return -1;
      };
      switch (it.letter) {
        case 'M':
        case 'L': {
          let k = word(MONTHS);
          let len = k >= 0 ? MONTHS[k]!.length : 0;
          if (k < 0) {
            k = word(MONTHS.map((m) => m.slice(0, 3)));
            len = 3;
          }
          if (k < 0) fail();
          f.month = k;
          pos += len;
          break;
        }
        case 'E': {
          let k = word(DAYS);
          let len = k >= 0 ? DAYS[k]!.length : 0;
          if (k < 0) {
            k = word(DAYS.map((m) => m.slice(0, 3)));
            len = 3;
          }
          if (k < 0) fail();
          pos += len;
          break;
        }
        case 'a': {
          const k = word(['AM', 'PM']);
          if (k < 0) fail();
          f.pm = k === 1;
          pos += 2;
          break;
        }
        case 'G': {
          const k = word(['AD', 'BC']);
          if (k < 0) fail();
          pos += 2;
          break;
        }
        case 'z':
        case 'Z':
        case 'X': {
          const m = /^(?:(Z)|(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})?|(Coordinated Universal Time|UTC|GMT))/.exec(rest);
          if (!m) fail();
          if (m![2]) f.offset = (m![2] === '-' ? -1 : 1) * (Number(m![3]) * 60 + Number(m![4] ?? 0)) * 60_000;
          pos += m![0].length;
          break;
        }
      }
    }
    let hour = f.hour;
    // h/K count with the AM/PM marker; H and k stand alone
    if (f.hour12 !== null) hour = f.hour12 + (f.pm ? 12 : 0);
    const day = f.dayOfYear !== null ? f.dayOfYear : f.day;
    const month = f.dayOfYear !== null ? 0 : f.month;
    const d = new Date(0);
    d.setUTCFullYear(f.year, month, day);
    d.setUTCHours(hour, f.minute, f.second, f.milli);
    return d.getTime() - f.offset;
  }
}
