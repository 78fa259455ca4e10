import { describe, expect, it } from 'vitest';
import { rewriteDivision } from './division-rewrite.js';

describe('MySQL / written for SQLite', () => {
  it('a statement without / is returned as it is', () => {
    const sql = 'UPDATE t SET n = n * 2 WHERE id = 1';
    expect(rewriteDivision(sql)).toBe(sql);
  });

  it('a / b becomes loupe_div with what the literals say of their types', () => {
    expect(rewriteDivision('SELECT 1 / 3')).toBe("SELECT loupe_div(1, 3, 'd0,d0,')");
    expect(rewriteDivision("SELECT 1.50 / 3, 1.5e0 / 3, '1' / n")).toBe("SELECT loupe_div(1.50, 3, 'd2,d0,'), loupe_div(1.5e0, 3, 'f,d0,'), loupe_div('1', n, 'f,,')");
  });

  it('*, /, %, DIV and MOD are one left-associative level; unary minus, ~ and calls bind tighter', () => {
    expect(rewriteDivision('SELECT a * b / c')).toBe("SELECT loupe_div(a * b, c, ',,')");
    expect(rewriteDivision('SELECT a / b * c')).toBe("SELECT loupe_div(a, b, ',,') * c");
    expect(rewriteDivision('SELECT 1 - a / b + 2')).toBe("SELECT 1 - loupe_div(a, b, ',,') + 2");
    expect(rewriteDivision('SELECT -a / -b')).toBe("SELECT loupe_div(-a, -b, ',,')");
    expect(rewriteDivision('SELECT a / b / c')).toBe("SELECT loupe_div(loupe_div(a, b, ',,'), c, ',,')");
    expect(rewriteDivision('SELECT a DIV b / c, a / b MOD c')).toBe("SELECT loupe_div(a DIV b, c, ',,'), loupe_div(a, b, ',,') MOD c");
    expect(rewriteDivision('SELECT SUM(t.n) / COUNT(*) FROM t')).toBe("SELECT loupe_div(SUM(t.n), COUNT(*), ',,') FROM t");
    expect(rewriteDivision('SELECT (a + b) / (c - 1), CASE WHEN x THEN 6 END / 4')).toBe("SELECT loupe_div((a + b), (c - 1), ',,'), loupe_div(CASE WHEN x THEN 6 END, 4, ',d0,')");
  });

  it('/ inside strings, quoted names and comments is left alone', () => {
    const sql = "SELECT '1/2', `a/b`, x /* a / b */ -- c / d\n# e / f\nFROM t";
    expect(rewriteDivision(sql)).toBe(sql);
    expect(rewriteDivision('SELECT `a/b` / 2 /* / */')).toBe("SELECT loupe_div(`a/b`, 2, ',d0,') /* / */");
  });

  it('a write divides with full precision and fails on division by zero; the value a column is given is exact text', () => {
    expect(rewriteDivision('UPDATE t SET n = n / 2 WHERE m / 2 > 1')).toBe("UPDATE t SET n = loupe_div(n, 2, ',d0,wev') WHERE loupe_div(m, 2, ',d0,we') > 1");
    expect(rewriteDivision('INSERT INTO t (a, b) VALUES (1, 7 / 2), (2, 1 + 1 / 2)')).toBe("INSERT INTO t (a, b) VALUES (1, loupe_div(7, 2, 'd0,d0,wev')), (2, 1 + loupe_div(1, 2, 'd0,d0,we'))");
    expect(rewriteDivision('INSERT IGNORE INTO t SELECT id, n / 2 FROM u')).toBe("INSERT IGNORE INTO t SELECT id, loupe_div(n, 2, ',d0,wv') FROM u");
    expect(rewriteDivision('DELETE FROM t WHERE n / 0 = 1')).toBe("DELETE FROM t WHERE loupe_div(n, 0, ',d0,') = 1");
  });
});
