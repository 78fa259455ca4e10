/**
 * MySQL's STR_TO_DATE(str, format), the inverse of DATE_FORMAT (MySQL 8.0 Reference Manual,
 * "Date and Time Functions"): the format's specifiers read the parts, other characters must
 * match (blanks are skipped). The result is a DATETIME when the format has date and time parts,
 * a DATE or a TIME when it has one kind; NULL when the text does not match or is no valid date,
 * with MySQL's warning 1411 "Incorrect datetime value: '…' for function str_to_date" (an error in
 * a strict-mode write); text left after the format is cut with warning 1292.
 */
import type { SqlValue } from 'sql.js';
import { DAYS, daysIn, MONTHS, pad } from './calendar.js';
import { dateCondition } from './mysql-dates.js';

export function strToDate(value: SqlValue, format: SqlValue): SqlValue {
  if (value === null || value === undefined || format === null || format === undefined) return null;
  const s = String(value);
  const read = parse(s, String(format));
  // extract_date_time's err: (sql/item_timefunc.cc), "datetime" whatever the format reads
  if (read === null) dateCondition(1411, `Incorrect datetime value: '${s}' for function str_to_date`);
  return read;
}

/** The value the text reads as, or null where MySQL's extract_date_time fails. */
function parse(s: string, f: string): string | null {
  let i = 0;
  let y = 0, m = 0, d = 0, h = 0, mi = 0, sec = 0, micro = '';
  let pm: boolean | undefined;
  let hasDate = false;
  let hasTime = false;
  const num = (max: number): number | undefined => {
    // blanks before a number are skipped, as MySQL's extract_date_time does
    while (/\s/.test(s[i] ?? '')) i++;
    const m2 = new RegExp(`^\\d{1,${max}}`).exec(s.slice(i));
    if (!m2) return undefined;
    i += m2[0].length;
    return Number(m2[0]);
  };
  const name = (names: string[], short: boolean): number | undefined => {
    const rest = s.slice(i).toLowerCase();
    const k = names.findIndex((n) => rest.startsWith((short ? n.slice(0, 3) : n).toLowerCase()));
    if (k < 0) return undefined;
    i += short ? 3 : names[k]!.length;
    return k;
  };
  for (let k = 0; k < f.length; k++) {
    const c = f[k]!;
    if (c !== '%' || k === f.length - 1) {
      if (/\s/.test(c)) {
        while (/\s/.test(s[i] ?? '')) i++;
      } else if (s[i] === c) i++;
      else return null;
      continue;
    }
    const spec = f[++k]!;
    let v: number | undefined;
    switch (spec) {
      case 'Y': v = num(4); if (v !== undefined) { y = v; hasDate = true; } break;
      case 'y': v = num(2); if (v !== undefined) { y = v < 70 ? 2000 + v : 1900 + v; hasDate = true; } break;
      case 'm': case 'c': v = num(2); if (v !== undefined) { m = v; hasDate = true; } break;
      case 'M': v = name(MONTHS, false); if (v !== undefined) { m = v + 1; hasDate = true; } break;
      case 'b': v = name(MONTHS, true); if (v !== undefined) { m = v + 1; hasDate = true; } break;
      case 'd': case 'e': v = num(2); if (v !== undefined) { d = v; hasDate = true; } break;
      case 'D': v = num(2); if (v !== undefined) { d = v; hasDate = true; i += /^(?:st|nd|rd|th)/i.test(s.slice(i)) ? 2 : 0; } break;
      case 'H': case 'k': case 'h': case 'I': case 'l': v = num(2); if (v !== undefined) { h = v; hasTime = true; } break;
      case 'i': v = num(2); if (v !== undefined) { mi = v; hasTime = true; } break;
      case 's': case 'S': v = num(2); if (v !== undefined) { sec = v; hasTime = true; } break;
      case 'f': { const m2 = /^\d{1,6}/.exec(s.slice(i)); if (m2) { micro = m2[0].padEnd(6, '0'); i += m2[0].length; v = 0; hasTime = true; } break; }
      case 'p': { const m2 = /^(am|pm)/i.exec(s.slice(i)); if (m2) { pm = m2[0].toLowerCase() === 'pm'; i += 2; v = 0; } break; }
      case 'W': v = name(DAYS, false); break;
      case 'a': v = name(DAYS, true); break;
      case 'T': { const m2 = /^(\d{1,2}):(\d{1,2}):(\d{1,2})/.exec(s.slice(i)); if (m2) { [h, mi, sec] = [+m2[1]!, +m2[2]!, +m2[3]!]; i += m2[0].length; v = 0; hasTime = true; } break; }
      case '%': v = s[i] === '%' ? (i++, 0) : undefined; break;
      default: return null;
    }
    if (v === undefined) return null;
  }
  if (pm !== undefined) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (pm ? 12 : 0);
  }
  if (h > 23 && hasDate) return null;
  if (mi > 59 || sec > 59) return null;
  const time = `${pad(h)}:${pad(mi)}:${pad(sec)}${micro ? `.${micro}` : ''}`;
  if (!hasDate && !hasTime) return null;
  // NO_ZERO_DATE and NO_ZERO_IN_DATE are in the embedded server's sql_mode: an incomplete date is NULL
  if (hasDate && (y === 0 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m))) return null;
  const kind = hasDate ? (hasTime ? 'datetime' : 'date') : 'time';
  if (s.slice(i).trim()) dateCondition(1292, `Truncated incorrect ${kind} value: '${s}'`);
  const date = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
  return kind === 'time' ? time : kind === 'date' ? date : `${date} ${time}`;
}
