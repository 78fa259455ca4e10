import { describe, expect, it } from 'vitest';
import { maskQuoted, replaceOutsideQuotes, selectItemNames } from './sql-text.js';

describe('statement text outside quotes', () => {
  it('blanks quoted strings and names, keeping every index', () => {
    const sql = "SELECT 'a''b', `x y`, \"q\" FROM t";
    expect(maskQuoted(sql)).toHaveLength(sql.length);
    // a doubled quote reads as two strings side by side: the same words stay hidden
    expect(maskQuoted(sql)).toBe("SELECT ' '' ', `   `, \" \" FROM t");
    expect(replaceOutsideQuotes("x RLIKE 'rlike' AND y rlike 'z'", /\brlike\b/gi, () => 'REGEXP')).toBe("x REGEXP 'rlike' AND y REGEXP 'z'");
  });

  it('names result columns as MySQL does: each select item as typed, none for an alias or a star', () => {
    expect(selectItemNames("SELECT NOW(), 7 DIV 2, x AS y, f(a, 'b,c') z, t.*, d - INTERVAL 1 DAY FROM t WHERE 1")).toEqual(['NOW()', '7 DIV 2', undefined, undefined, undefined, 'd - INTERVAL 1 DAY']);
    expect(selectItemNames('SELECT DISTINCT a IS NULL, b IN (1, 2) ORDER BY 1')).toEqual(['a IS NULL', 'b IN (1, 2)']);
    expect(selectItemNames('UPDATE t SET a = 1')).toBeUndefined();
  });
});
