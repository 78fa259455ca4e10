/**
 * How `&`, `|`, `<<` and `>>` are written for SQLite (bit-operators.ts): as calls nested by
 * MySQL's precedence, with arithmetic and `~`/`^` calls kept whole as operands, `||` (already OR
 * here) and quoted text left alone, and `&&` as AND.
 */
import { describe, expect, it } from 'vitest';
import { rewriteBitOperators } from './bit-operators.js';
import { shiftLeft, shiftRight, toUint64 } from './bitwise.js';

describe('the bit operators written for SQLite', () => {
  it('nests & inside | and shifts inside &, as MySQL binds them', () => {
    expect(rewriteBitOperators('SELECT 1 | 2 & 4 << 1')).toBe('SELECT loupe_bitor(1, loupe_bitand(2, loupe_shl(4, 1)))');
  });

  it('keeps an arithmetic chain whole as an operand, and applies one level left to right', () => {
    expect(rewriteBitOperators('SELECT a + 1 << b * 2 >> 3')).toBe('SELECT loupe_shr(loupe_shl(CAST(a + 1 AS TEXT), CAST(b * 2 AS TEXT)), 3)');
  });

  it('passes a column as its text and a long integer literal as its digits', () => {
    expect(rewriteBitOperators('SELECT id FROM t WHERE b & 18446744073709551614 = 2')).toBe("SELECT id FROM t WHERE loupe_bitand(CAST(b AS TEXT), '18446744073709551614') = 2");
  });

  it('reads && as AND and leaves quoted & and | alone', () => {
    expect(rewriteBitOperators("SELECT 'a|b&c' && x OR y")).toBe("SELECT 'a|b&c'  AND  x OR y");
  });
});

describe('MySQL’s unsigned 64-bit operands and shifts', () => {
  it('holds an operand beyond 64 bits at the nearer end (MariaDB 10.11: 1e20 | 0, -1e20 | 0)', () => {
    expect(toUint64(1e20)).toBe(2n ** 64n - 1n);
    expect(toUint64(-1e20)).toBe(2n ** 63n);
    expect(toUint64('99999999999999999999999')).toBe(2n ** 64n - 1n);
  });

  it('shifts by 64 or more, or by a negative count, to 0', () => {
    expect([shiftLeft(1, 64), shiftRight(-1, 64), shiftRight(8, -1), shiftLeft(1, 63)]).toEqual([0, 0, 0, '9223372036854775808']);
  });
});
