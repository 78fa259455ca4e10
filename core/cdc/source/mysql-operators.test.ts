import { describe, expect, it } from 'vitest';
import { rewriteMySqlOperators } from './mysql-operators.js';

describe("MySQL's ~, ^, XOR, <=> and LIKE BINARY written for SQLite", () => {
  it('a statement without them is returned as it is', () => {
    const sql = "SELECT a, b FROM t WHERE name LIKE 'x%'";
    expect(rewriteMySqlOperators(sql)).toBe(sql);
  });

  it('~ and ^ bind tighter than * and left to right', () => {
    expect(rewriteMySqlOperators('SELECT ~0, 5 ^ 3 ^ 1, 3 ^ 1 * 2, ~a ^ b')).toBe('SELECT loupe_bitnot(0), loupe_bitxor(loupe_bitxor(5, 3), 1), loupe_bitxor(3, 1) * 2, loupe_bitxor(loupe_bitnot(a), b)');
  });

  it('XOR is looser than AND and NOT, tighter than OR', () => {
    expect(rewriteMySqlOperators('SELECT 1 OR a AND b XOR NOT c OR d FROM t')).toBe('SELECT 1 OR loupe_xor(a AND b, NOT c) OR d FROM t');
    expect(rewriteMySqlOperators('SELECT 1 XOR 1 XOR 1 AS x')).toBe('SELECT loupe_xor(loupe_xor(1, 1), 1) AS x');
    expect(rewriteMySqlOperators('UPDATE t SET f = a XOR b WHERE id = 1')).toBe('UPDATE t SET f = loupe_xor(a, b) WHERE id = 1');
  });

  it('<=> keeps an = for DECIMAL comparisons where its sides are plain, else is IS', () => {
    expect(rewriteMySqlOperators('SELECT * FROM t WHERE score <=> 91.50')).toBe('SELECT * FROM t WHERE coalesce(score = 91.50, score IS NULL AND 91.50 IS NULL)');
    expect(rewriteMySqlOperators('SELECT a + 1 <=> b')).toBe('SELECT a + 1  IS  b');
  });

  it("LIKE BINARY 'pattern' is a case-sensitive GLOB, escapes kept", () => {
    expect(rewriteMySqlOperators("SELECT 'abc' LIKE BINARY 'a%', 'a_c' NOT LIKE BINARY 'a\\_c*'")).toBe("SELECT 'abc' GLOB 'a*', 'a_c' NOT GLOB 'a_c[*]'");
  });

  it('the operators inside strings and comments are left alone', () => {
    const sql = "SELECT '~0 ^ 1 <=> 2 XOR 3' /* ~1 */";
    expect(rewriteMySqlOperators(sql)).toBe(sql);
  });
});
