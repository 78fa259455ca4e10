import { describe, expect, it } from 'vitest';
import { parseDate, parseDateMath, looksLikeDate } from './dates.js';

describe('dates as Elasticsearch reads them', () => {
  it('parses ISO 8601, epoch_millis and custom formats', () => {
    expect(parseDate('2024-03-01T10:15:30.250Z')).toBe(Date.UTC(2024, 2, 1, 10, 15, 30, 250));
    expect(parseDate('2024-03-01T10:15:30+02:00')).toBe(Date.UTC(2024, 2, 1, 8, 15, 30));
    expect(parseDate('2024-03-01')).toBe(Date.UTC(2024, 2, 1));
    expect(parseDate('1709288130250')).toBe(1709288130250);
    expect(parseDate('01/03/2024', 'dd/MM/yyyy')).toBe(Date.UTC(2024, 2, 1));
    expect(parseDate('yesterday')).toBeUndefined();
    expect(parseDate('2024-02-30')).toBeUndefined();
  });

  it('applies date math with rounding down for gte and up for lte', () => {
    const now = Date.UTC(2024, 2, 15, 13, 45);
    expect(parseDateMath('now-1d/d', 'strict_date_optional_time', now, false)).toBe(Date.UTC(2024, 2, 14));
    expect(parseDateMath('now-1d/d', 'strict_date_optional_time', now, true)).toBe(Date.UTC(2024, 2, 15) - 1);
    expect(parseDateMath('2024-01-31||+1M/M', 'strict_date_optional_time', now, false)).toBe(Date.UTC(2024, 1, 1));
  });

  it('detects date strings for dynamic mapping', () => {
    expect(looksLikeDate('2024-03-01T10:15:30Z')).toBe(true);
    expect(looksLikeDate('2024/03/01')).toBe(true);
    expect(looksLikeDate('2024')).toBe(false);
    expect(looksLikeDate('hello 2024-03-01')).toBe(false);
  });
});
