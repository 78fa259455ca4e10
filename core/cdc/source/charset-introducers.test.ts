/**
 * charset-introducers.ts's rewrite on its own (the MariaDB comparison is
 * charset-introducers-vs-mariadb.test.ts): what it writes for SQLite, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import { introducedText, introducedValue, literalBytes, rewriteIntroducers } from './charset-introducers.js';

describe('rewriteIntroducers', () => {
  it.each([
    ["SELECT _utf8mb4'a\\tb', _binary 'ab'", "SELECT 'a\tb', x'6162'"],
    ["SELECT N'it''s' 'x', n'y'", "SELECT 'it''sx', 'y'"],
    ["SELECT _latin1 X'E9', _utf8mb4 0x41, _binary B'1'", "SELECT 'é', 'A', x'01'"],
    ["SELECT b'0100000101000010', B''", "SELECT x'4142', x''"],
    ["SELECT _utf8mb4'x' COLLATE utf8mb4_bin", "SELECT 'x' COLLATE utf8mb4_bin"],
    ["SELECT _binary'a\\\\b\\0'", "SELECT x'615c6200'"],
  ])('%s', (sql, sqlite) => expect(rewriteIntroducers(sql)).toBe(sqlite));

  it.each([
    ["SELECT '_utf8mb4''x'' N''y'''"], // inside a string
    ['SELECT _binary FROM t'], // a column named so, with no literal after it
    ["SELECT _foo'x'"], // no such charset: MySQL's unknown column too
    ["SELECT X'41', 0x41, `N`'x'"], // SQLite reads x'…' itself; a plain 0x… is left to the store rules
    ["SELECT 1 -- _utf8mb4'x'"], // a comment
  ])('leaves %s as it is', (sql) => expect(rewriteIntroducers(sql)).toBe(sql));
});

describe('the values', () => {
  it('bytes of hex and bit literals, padded on the left as MySQL pads them', () => {
    expect([...literalBytes("x'abc'")!]).toEqual([0x0a, 0xbc]);
    expect([...literalBytes('0b1000000001')!]).toEqual([0x02, 0x01]);
  });

  it('bytes read in a charset: the wide ones padded to a character, ascii past 127 as ?, bytes that are no utf8mb4 refused (1300)', () => {
    expect(introducedValue('ucs2', Uint8Array.of(0x41))).toBe('A');
    expect(introducedValue('ascii', Uint8Array.of(0xc3, 0xa9))).toBe('??');
    expect(introducedValue('cp1251', Uint8Array.of(0xc0))).toBe('А');
    expect(() => introducedValue('utf8mb4', Uint8Array.of(0x41, 0xe9))).toThrow("Invalid utf8mb4 character string: 'E9'");
    expect(() => introducedValue('utf8', Uint8Array.of(0xf0, 0x9f, 0x98, 0x80))).toThrow("Invalid utf8mb3 character string: 'F09F98'");
  });

  it("a DEFAULT's prefixed literal as the text its column keeps", () => {
    expect(introducedText("_utf8mb4'a' 'b'")).toBe('ab');
    expect(introducedText('_binary 0x7171')).toBe('qq');
    expect(introducedText("'plain'")).toBeUndefined();
  });
});
