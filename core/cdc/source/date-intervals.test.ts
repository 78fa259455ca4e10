import { describe, expect, it } from 'vitest';
import { rewriteIntervals } from './date-functions.js';
import { intervalValue } from './date-intervals.js';

describe("MySQL's INTERVAL", () => {
  it('reads a compound unit\'s digit groups, filling the smallest parts first', () => {
    expect(intervalValue('1:30', 'hour_minute')).toEqual({ us: 90 * 60e6 });
    expect(intervalValue('30', 'hour_minute')).toEqual({ us: 30 * 60e6 });
    expect(intervalValue('-1-2', 'year_month')).toEqual({ months: -14 });
    expect(intervalValue('1.5', 'second_microsecond')).toEqual({ us: 1_500_000 });
    expect(intervalValue(1.5, 'day')).toEqual({ us: 2 * 86_400e6 });
    expect(intervalValue(1.5, 'second')).toEqual({ us: 1_500_000 });
  });

  it('rewrites intervals whose amount is a string, a column, an expression or a call', () => {
    expect(rewriteIntervals("SELECT DATE_ADD(d, INTERVAL '1:30' HOUR_MINUTE) FROM t")).toBe("SELECT loupe_date_add(d, '1:30', 'hour_minute') FROM t");
    expect(rewriteIntervals('SELECT d - INTERVAL n + 1 DAY, DATE_SUB(d, INTERVAL ABS(n) MONTH) FROM t')).toBe("SELECT loupe_date_add(d, n + 1, 'day', -1), loupe_date_add(d, ABS(n), 'month', -1) FROM t");
    expect(rewriteIntervals('SELECT ADDDATE(d, 5), DATE_ADD(d, INTERVAL 2 WEEK) FROM t')).toBe("SELECT ADDDATE(d, 5), loupe_date_add(d, 2, 'week') FROM t");
  });
});
