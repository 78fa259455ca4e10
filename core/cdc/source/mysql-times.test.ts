import { describe, expect, it } from 'vitest';
import { rewriteDateCalls } from './date-functions.js';
import { collecting, Diagnostics } from './diagnostics.js';
import { datesReadFor } from './mysql-dates.js';
import { readTime, TIME_FUNCTIONS, timeText } from './mysql-times.js';

const call = (name: string, ...args: (string | number | null)[]) => TIME_FUNCTIONS[name]![0]!(...args);

describe('MySQL TIME values on SQLite', () => {
  it('reads times as str_to_time does: days, hours past 23, HHMMSS digits, a datetime\'s time of day', () => {
    const read = (v: string | number) => {
      const t = collecting(new Diagnostics(), () => readTime(v));
      return t && timeText(t);
    };
    expect([read('1 10:00:00'), read('35:00:00'), read(101112), read('-10:11'), read('2024-01-01 10:11:12.25'), read('10:11:12.5')]).toEqual(['34:00:00', '35:00:00', '10:11:12', '-10:11:00', '10:11:12.25', '10:11:12.5']);
  });

  it('what is no time is NULL with warning 1292, and the error of a strict-mode write', () => {
    const warned = new Diagnostics();
    const read = datesReadFor('SELECT 1', () => collecting(warned, () => [call('hour', '25:61:00'), call('loupe_time', '2024-02-30 10:00:00'), call('time_to_sec', 'abc'), call('hour', '838:59:59')]));
    expect(read).toEqual([null, null, null, 838]);
    expect(warned.conditions.map((c) => c.message)).toEqual(["Incorrect time value: '25:61:00'", "Incorrect time value: '2024-02-30 10:00:00'", "Incorrect time value: 'abc'"]);
    expect(() => datesReadFor("INSERT INTO t VALUES (HOUR('25:61:00'))", () => collecting(new Diagnostics(), () => call('hour', '25:61:00')))).toThrow("Incorrect time value: '25:61:00'");
  });

  it('ends a TIME at 838:59:59 with a warning', () => {
    const warned = new Diagnostics();
    expect(collecting(warned, () => [call('sec_to_time', 4_000_000), call('timediff', '2024-03-01 00:00:00', '2024-01-01 00:00:00'), call('addtime', '10:00:00', '20:00:00')])).toEqual(['838:59:59', '838:59:59', '30:00:00']);
    expect(warned.conditions.map((c) => c.message)).toEqual(["Truncated incorrect time value: '4000000'", "Truncated incorrect time value: '1440:00:00'"]);
  });

  it('writes TIME(x), TIMESTAMPADD, CURTIME and GET_FORMAT for SQLite, leaving a column type\'s TIME(3)', () => {
    expect(rewriteDateCalls("SELECT TIME(x), TIMESTAMPADD(HOUR, n + 1, dt), GET_FORMAT(DATE, 'ISO') FROM t")).toBe("SELECT loupe_time(x), loupe_date_add(dt, n + 1, 'hour'), loupe_get_format('DATE', 'ISO') FROM t");
    expect(rewriteDateCalls('CREATE TABLE t (tm TIME(3))')).toBe('CREATE TABLE t (tm TIME(3))');
    expect(rewriteDateCalls('SELECT CURTIME(), UTC_TIME(3)')).toBe("SELECT strftime('%H:%M:%S', 'now'), substr(strftime('%H:%M:%f', 'now') || '000', 1, 12)");
  });
});
