import { describe, expect, it } from 'vitest';
import { dateAdd, dateFormat, rewriteDateCalls, rewriteIntervals } from './date-functions.js';
import { collecting, Diagnostics } from './diagnostics.js';
import { datesReadFor, mysqlDate } from './mysql-dates.js';
import { strToDate } from './str-to-date.js';

describe('MySQL date arithmetic and DATE_FORMAT on SQLite', () => {
  it('writes interval arithmetic as calls of loupe_date_add, and DATE() as MySQL\'s, CURDATE() left to SQLite', () => {
    expect(rewriteIntervals("SELECT datetime('now') - INTERVAL 1 HOUR")).toBe("SELECT loupe_date_add(datetime('now'), -1, 'hour')");
    expect(rewriteIntervals('SELECT DATE_ADD(`t`.c, INTERVAL 2 QUARTER) FROM t')).toBe("SELECT loupe_date_add(`t`.c, 2, 'quarter') FROM t");
    expect(rewriteIntervals("UPDATE t SET note = 'x + INTERVAL 1 DAY' WHERE id = 1")).toBe("UPDATE t SET note = 'x + INTERVAL 1 DAY' WHERE id = 1");
    expect(rewriteDateCalls("SELECT DATE(x), date('now'), 'date(y)' FROM t")).toBe("SELECT loupe_date(x), date('now'), 'date(y)' FROM t");
  });

  it('adds months clamped to the month end, and keeps a DATE a DATE for whole days', () => {
    expect(dateAdd('2024-01-31', 1, 'month')).toBe('2024-02-29');
    expect(dateAdd('2023-01-31', 1, 'month')).toBe('2023-02-28');
    expect(dateAdd('2024-02-29', -1, 'year')).toBe('2023-02-28');
    expect(dateAdd('2024-02-28', 1, 'week')).toBe('2024-03-06');
    expect(dateAdd('2024-02-28', 36, 'hour')).toBe('2024-02-29 12:00:00');
    expect(dateAdd('2024-12-31 23:59:59.5', 1, 'second')).toBe('2025-01-01 00:00:00.5');
  });

  it('an invalid date is NULL with warning 1292 in a SELECT, and the error of a strict-mode write', () => {
    const warned = new Diagnostics();
    const read = datesReadFor("SELECT DATE('2024-02-30')", () => collecting(warned, () => [mysqlDate('2024-02-30'), dateAdd('2023-02-29', 1, 'day'), mysqlDate('2024-02-29')]));
    expect(read).toEqual([null, null, '2024-02-29']);
    expect(warned.conditions).toEqual([
      { level: 'Warning', code: 1292, message: "Incorrect datetime value: '2024-02-30'" },
      { level: 'Warning', code: 1292, message: "Incorrect datetime value: '2023-02-29'" },
    ]);
    expect(() => datesReadFor("UPDATE t SET d = DATE('2024-04-31')", () => collecting(new Diagnostics(), () => mysqlDate('2024-04-31')))).toThrow("ERROR1292:Incorrect datetime value: '2024-04-31'");
    expect(datesReadFor("UPDATE IGNORE t SET d = DATE('2024-04-31')", () => collecting(new Diagnostics(), () => mysqlDate('2024-04-31')))).toBeNull();
    // the write's setting ends with it: what runs after it, outside a statement, warns
    const after = new Diagnostics();
    expect(collecting(after, () => mysqlDate('2024-04-31'))).toBeNull();
    expect(after.conditions.map((c) => c.code)).toEqual([1292]);
  });

  it('STR_TO_DATE of a date not on the calendar is NULL with warning 1411, as MySQL 8.0 (MariaDB takes February 30th)', () => {
    const warned = new Diagnostics();
    expect(collecting(warned, () => strToDate('2024-02-30', '%Y-%m-%d'))).toBeNull();
    expect(warned.conditions).toEqual([{ level: 'Warning', code: 1411, message: "Incorrect datetime value: '2024-02-30' for function str_to_date" }]);
  });

  it('formats as MySQL does, NULL for what is not a date', () => {
    expect(dateFormat('2024-05-05 05:05:05.25', '%W %D %M %Y, %l:%i %p (%f) %j')).toBe('Sunday 5th May 2024, 5:05 AM (250000) 126');
    expect(dateFormat('2024-01-12', '%a %e/%c %H:%i')).toBe('Fri 12/1 00:00');
    expect(dateFormat('nope', '%Y')).toBeNull();
    expect(dateFormat('2024-02-30', '%Y')).toBeNull();
    expect(dateFormat(null, '%Y')).toBeNull();
  });
});
