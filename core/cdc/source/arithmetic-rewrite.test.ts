import { describe, expect, it } from 'vitest';
import { rewriteArithmetic, type ArithmeticKind } from './arithmetic-rewrite.js';

const KINDS: Record<string, ArithmeticKind> = { price: 'c2', n: 'i', x: 'f', s: 's', d: 't', e: 'x' };
const rewrite = (sql: string) => rewriteArithmetic(sql, (c) => KINDS[c]);

describe('MySQL arithmetic written for SQLite', () => {
  it('a statement without arithmetic is returned as it is, and integer +, - and * are left to SQLite', () => {
    // a modulo or DIV by zero warns, so even integer ones are MySQL's
    expect(rewrite('SELECT n % 3, n DIV 2')).toBe("SELECT loupe_calc('|$0:i #3 %', n), loupe_calc('1:|$0:i #2 D', n)");
    for (const sql of ['UPDATE t SET name = \'a-b*c\' WHERE id = 1', 'SELECT * FROM t', 'SELECT COUNT(*), t.* FROM t', 'UPDATE t SET n = n * 2 - 1 WHERE n > 3', 'SELECT -n, 2 - n * 3']) {
      expect(rewrite(sql)).toBe(sql);
    }
  });

  it('one program per expression, literals as written, operands passed with their kind; each after the first numbered', () => {
    expect(rewrite('SELECT 1 / 3')).toBe("SELECT loupe_calc('|#1 #3 /')");
    expect(rewrite("SELECT 1.50 / 3, 1.5e0 / 3, '1' / n")).toBe("SELECT loupe_calc('|#1.50 #3 /'), loupe_calc('1:|#1.5e0 #3 /'), loupe_calc('2:|$0:s $1:i /', '1', n)");
    expect(rewrite('SELECT price * 3, x + 0.5, t.price - s, d + 0, v * 1.5 FROM t')).toBe(
      "SELECT loupe_calc('|$0:c #3 *', price), loupe_calc('1:|$0:f #0.5 +', x), loupe_calc('2:|$0:c $1:s -', t.price, s), loupe_calc('3:|$0:t #0 +', d), loupe_calc('4:|$0: #1.5 *', v) FROM t",
    );
  });

  it('MySQL’s precedence: *, /, %, DIV and MOD before + and -, left to right; unary minus and calls bind tighter', () => {
    expect(rewrite('SELECT a * b / c')).toBe("SELECT loupe_calc('|$0: $1: * $2: /', a, b, c)");
    expect(rewrite('SELECT 1 - a / b + 2')).toBe("SELECT loupe_calc('|#1 $0: $1: / - #2 +', a, b)");
    expect(rewrite('SELECT -a / -b')).toBe("SELECT loupe_calc('|$0: n $1: n /', a, b)");
    expect(rewrite('SELECT a DIV b / c, a / b MOD c')).toBe("SELECT loupe_calc('|$0: $1: D $2: /', a, b, c), loupe_calc('1:|$0: $1: / $2: %', a, b, c)");
    expect(rewrite('SELECT SUM(t.n) / COUNT(*) FROM t')).toBe("SELECT loupe_calc('|$0: $1: /', SUM(t.n), COUNT(*)) FROM t");
    // SQLite sums a DECIMAL as a double: read at the column's scale (AVG's plus 4)
    expect(rewrite('SELECT SUM(price) / 2, AVG(DISTINCT t.price) * 1, MAX(price) + 0.5 FROM t')).toBe(
      "SELECT loupe_calc('|$0:d2 #2 /', SUM(price)), loupe_calc('1:|$0:d6 #1 *', AVG(DISTINCT t.price)), loupe_calc('2:|$0:d2 #0.5 +', MAX(price)) FROM t",
    );
    expect(rewrite('SELECT (a + b) / (c - 1), CASE WHEN x THEN 6 END / 4')).toBe("SELECT loupe_calc('|$0: $1: + $2: #1 - /', a, b, c), loupe_calc('1:|$0: #4 /', CASE WHEN x THEN 6 END)");
  });

  it('ROUND and TRUNCATE are part of the program; other calls are operands with their own', () => {
    expect(rewrite('SELECT ROUND(price * 1.1, 2), ROUND(n), TRUNCATE(x, 1)')).toBe("SELECT loupe_calc('|$0:c #1.1 * #2 R2', price), loupe_calc('1:|$0:i R1', n), loupe_calc('2:|$0:f #1 T2', x)");
    // numbered as made: the inner call's program is written first
    expect(rewrite('SELECT ABS(price - 1.5) * 2')).toBe("SELECT loupe_calc('1:|$0: #2 *', ABS(loupe_calc('|$0:c #1.5 -', price)))");
  });

  it('a SELECT’s own SUM or AVG item of a DECIMAL or integer column is a program of its value at MySQL’s scale', () => {
    expect(rewrite('SELECT SUM(price), AVG(n) a, SUM(x), COUNT(*) FROM t')).toBe("SELECT loupe_calc('a0:|$0:d2', SUM(price)), loupe_calc('a1:|$0:d4', AVG(n)) a, SUM(x), COUNT(*) FROM t");
    expect(rewrite('INSERT INTO u SELECT SUM(price) FROM t')).toBe('INSERT INTO u SELECT SUM(price) FROM t');
    // over a window too: a running SUM is SQLite's double, rounded to the column's scale
    expect(rewrite('SELECT SUM(price) OVER (ORDER BY id) AS r FROM t')).toBe("SELECT loupe_calc('a0:|$0:d2', SUM(price) OVER (ORDER BY id)) AS r FROM t");
  });

  it('SUM and AVG of an expression add its exact values (mode x), integer ones too; not over a window', () => {
    expect(rewrite('SELECT SUM(price * n), avg(DISTINCT n + 1) FROM t')).toBe("SELECT CAST(loupe_sum(loupe_calc('x|$0:c $1:i *', price, n), 'x|$0:c $1:i *') AS NUMERIC), CAST(loupe_avg(DISTINCT loupe_calc('1:x|$0:i #1 +', n)) AS NUMERIC) FROM t");
    expect(rewrite('SELECT g FROM t GROUP BY g HAVING SUM(price * n) > 10')).toBe("SELECT g FROM t GROUP BY g HAVING CAST(loupe_sum(loupe_calc('x|$0:c $1:i *', price, n), 'x|$0:c $1:i *') AS NUMERIC) > 10");
    expect(rewrite('SELECT SUM(price * 2) OVER (), SUM(price * 2) + 1 FROM t')).toBe("SELECT SUM(loupe_calc('|$0:c #2 *', price)) OVER (), loupe_calc('2:|$0:d2 #1 +', loupe_sum(loupe_calc('1:x|$0:c #2 *', price))) FROM t");
  });

  it('a SET operand leaves the expression to SQLite, without breaking its order', () => {
    expect(rewrite('SELECT e - n + 1.5')).toBe('SELECT e - n + 1.5');
    expect(rewrite('SELECT e * ROUND(n, 1) + 2')).toBe("SELECT e * loupe_calc('|$0:i #1 R2', n) + 2");
  });

  it('an ENUM operand is its member’s index', () => {
    expect(rewriteArithmetic('SELECT g + 0 FROM t', (c) => (c === 'g' ? { enum: ['b', "it's"] } : undefined))).toBe(
      "SELECT loupe_calc('|$0:i #0 +', CASE g WHEN 'b' THEN 1 WHEN 'it''s' THEN 2 WHEN '' THEN 0 END) FROM t",
    );
  });

  it('operators inside strings, quoted names and comments are left alone', () => {
    const sql = "SELECT '1/2', `a/b`, x /* a / b */ -- c / d\n# e / f\nFROM t";
    expect(rewrite(sql)).toBe(sql);
    expect(rewrite('SELECT `a/b` / 2 /* / */')).toBe("SELECT loupe_calc('|$0: #2 /', `a/b`) /* / */");
  });

  it('a write computes in full, fails on division by zero and on text that is no number; the value a column is given is exact text', () => {
    expect(rewrite('UPDATE t SET n = n / 2 WHERE m / 2 > 1')).toBe("UPDATE t SET n = loupe_calc('wetv|$0:i #2 /', n) WHERE loupe_calc('1:wet|$0: #2 /', m) > 1");
    expect(rewrite('INSERT INTO t (a, b) VALUES (1, 7 / 2), (2, 1 + 1 / 2)')).toBe("INSERT INTO t (a, b) VALUES (1, loupe_calc('wetv|#7 #2 /')), (2, loupe_calc('1:wetv|#1 #1 #2 / +'))");
    expect(rewrite('INSERT IGNORE INTO t SELECT id, n / 2 FROM u')).toBe("INSERT IGNORE INTO t SELECT id, loupe_calc('wv|$0:i #2 /', n) FROM u");
    expect(rewrite('DELETE FROM t WHERE n / 0 = 1')).toBe("DELETE FROM t WHERE loupe_calc('t|$0:i #0 /', n) = 1");
  });
});
