/**
 * SET time_zone for the embedded source, whose clock and TIMESTAMP columns are UTC (system_time_zone
 * UTC): SYSTEM and a zero offset are taken and shown in @@time_zone (as +00:00); another offset, which
 * MySQL would apply to NOW() and to every TIMESTAMP written and read, is refused with 1235 rather
 * than set and not followed; a named zone (UTC too) is 1298, as on a server whose time zone tables
 * are not loaded (MySQL's default install), and so is text that is no zone.
 */
import { MySqlError, mysqlErrors } from './mysql-error.js';

export function setTimeZone(value: string): string {
  const v = value.replace(/^'(.*)'$/s, '$1');
  if (/^system$/i.test(v)) return 'SYSTEM';
  const offset = /^([+-])(\d{1,2}):(\d{2})$/.exec(v);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3]);
    // MySQL takes -13:59 to +14:00 (8.0.19)
    if (Number(offset[3]) > 59 || minutes > (offset[1] === '+' ? 14 * 60 : 13 * 60 + 59)) throw unknownZone(v);
    if (minutes === 0) return '+00:00';
    throw mysqlErrors.notSupported(`time_zone '${v}' in the embedded source, which keeps UTC`);
  }
  throw unknownZone(v);
}

const unknownZone = (v: string) => new MySqlError(1298, 'HY000', `Unknown or incorrect time zone: '${v}'`);
