import { describe, expect, it } from 'vitest';
import { dateFormat, rewriteIntervals } from './date-functions.js';

describe('MySQL date arithmetic and DATE_FORMAT on SQLite', () => {
  it('writes interval arithmetic as SQLite date modifiers, months clamped to the month end', () => {
    expect(rewriteIntervals("SELECT datetime('now') - INTERVAL 1 HOUR")).toBe("SELECT datetime(datetime('now'), '-1 hours')");
    expect(rewriteIntervals('SELECT DATE_ADD(`t`.c, INTERVAL 2 QUARTER) FROM t')).toBe(
      "SELECT (CASE WHEN length(`t`.c) = 10 THEN date(`t`.c, '+6 months', 'floor') ELSE datetime(`t`.c, '+6 months', 'floor') END) FROM t",
    );
    expect(rewriteIntervals("UPDATE t SET note = 'x + INTERVAL 1 DAY' WHERE id = 1")).toBe("UPDATE t SET note = 'x + INTERVAL 1 DAY' WHERE id = 1");
  });

  it('formats as MySQL does, NULL for what is not a date', () => {
    expect(dateFormat('2024-05-05 05:05:05.25', '%W %D %M %Y, %l:%i %p (%f) %j')).toBe('Sunday 5th May 2024, 5:05 AM (250000) 126');
    expect(dateFormat('2024-01-12', '%a %e/%c %H:%i')).toBe('Fri 12/1 00:00');
    expect(dateFormat('nope', '%Y')).toBeNull();
    expect(dateFormat(null, '%Y')).toBeNull();
  });
});
