/**
 * MySQL's bit operators on BIGINT UNSIGNED (MySQL 8.0 Reference Manual, "Bit Functions and
 * Operators": numeric arguments are 64-bit unsigned integers, so ~0 is 18446744073709551615) and
 * its logical XOR (NULL when either side is; true when exactly one side is non-zero).
 */
import type { SqlValue } from 'sql.js';
import { leadingNumber } from './string-number.js';

const text = (v: SqlValue) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * An integer out of 64 bits held at the nearer end, as MariaDB 10.11 reads one (`1e20 | 0` is
 * 18446744073709551615, `-1e20 | 0` 9223372036854775808), then as unsigned (-1 is 2^64 - 1).
 */
const clampUint64 = (n: bigint) => BigInt.asUintN(64, n > UINT64_MAX ? UINT64_MAX : n < INT64_MIN ? INT64_MIN : n);

/** A value as MySQL's unsigned 64-bit integer: numbers rounded half away from zero, text read as far as it is a number. */
export function toUint64(v: SqlValue): bigint {
  if (typeof v === 'bigint') return clampUint64(v);
  let n: number;
  if (typeof v === 'number') n = v;
  else {
    const t = text(v);
    const int = /^\s*[-+]?\d+\s*$/.exec(t);
    if (int) return clampUint64(BigInt(int[0].trim()));
    n = leadingNumber(t).value;
  }
  if (!Number.isFinite(n)) return 0n;
  return clampUint64(BigInt(Math.sign(n) * Math.round(Math.abs(n))));
}

/** A BIGINT UNSIGNED result: a number while JavaScript holds it exactly, its decimal text beyond (as a client shows it). */
export const uint64Out = (n: bigint): SqlValue => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString());

const truth = (v: SqlValue) => (typeof v === 'number' ? v !== 0 : typeof v === 'bigint' ? v !== 0n : leadingNumber(text(v)).value !== 0);
const isNull = (v: SqlValue) => v === null || v === undefined;

export const bitNot = (v: SqlValue): SqlValue => (isNull(v) ? null : uint64Out(BigInt.asUintN(64, ~toUint64(v))));
export const bitXor = (a: SqlValue, b: SqlValue): SqlValue => (isNull(a) || isNull(b) ? null : uint64Out(toUint64(a) ^ toUint64(b)));
export const bitAnd = (a: SqlValue, b: SqlValue): SqlValue => (isNull(a) || isNull(b) ? null : uint64Out(toUint64(a) & toUint64(b)));
export const bitOr = (a: SqlValue, b: SqlValue): SqlValue => (isNull(a) || isNull(b) ? null : uint64Out(toUint64(a) | toUint64(b)));
/** `a << n` and `a >> n`: a shift by 64 or more (a negative count is a huge one) leaves no bits. */
export const shiftLeft = (a: SqlValue, n: SqlValue): SqlValue => {
  if (isNull(a) || isNull(n)) return null;
  const by = toUint64(n);
  return uint64Out(by >= 64n ? 0n : BigInt.asUintN(64, toUint64(a) << by));
};
export const shiftRight = (a: SqlValue, n: SqlValue): SqlValue => {
  if (isNull(a) || isNull(n)) return null;
  const by = toUint64(n);
  return uint64Out(by >= 64n ? 0n : toUint64(a) >> by);
};
export const logicalXor = (a: SqlValue, b: SqlValue): SqlValue => (isNull(a) || isNull(b) ? null : truth(a) !== truth(b) ? 1 : 0);
/** BIT_COUNT(n): the bits set in n as a 64-bit unsigned integer, NULL for NULL. */
export const bitCount = (v: SqlValue): SqlValue => {
  if (isNull(v)) return null;
  let n = toUint64(v);
  let count = 0;
  for (; n; n >>= 1n) count += Number(n & 1n);
  return count;
};

/**
 * The calls a bit operator is written as by the time a statement's columns are read (`~x`, `a ^ b`,
 * mysql-operators.ts; `&`, `|`, `<<`, `>>`, bit-operators.ts), and BIT_COUNT.
 */
const BIT_CALL = /(?<![\w$.])(?:loupe_bitnot|loupe_bitxor|loupe_bitand|loupe_bitor|loupe_shl|loupe_shr|bit_count)\s*$/i;

/**
 * Whether the operand `start`…`end` of a statement (its quoted text blanked) is read by a bit
 * operator: next to `&`, `|` (not `||`), `<<` or `>>`, or a whole argument of the calls `~`, `^` and
 * BIT_COUNT are. MySQL reads it there as an integer, which for an ENUM or a SET is its number
 * (Item_func_bit reads val_uint), where SQLite would read the member's text as 0.
 */
export function isBitOperand(masked: string, start: number, end: number): boolean {
  // an operand the bit operators pass as its text (bit-operators.ts): the CAST is the operand
  const cast = /(?<![\w$.])cast\s*\(\s*$/i.exec(masked.slice(Math.max(0, start - 16), start));
  const asText = cast && /^\s*as\s+text\s*\)/i.exec(masked.slice(end, end + 16));
  if (cast && asText) return isBitOperand(masked, start - cast[0].length, end + asText[0].length);
  let before = start - 1;
  while (before >= 0 && /\s/.test(masked[before]!)) before--;
  let after = end;
  while (after < masked.length && /\s/.test(masked[after]!)) after++;
  const prev = masked[before] ?? '';
  const next = masked[after] ?? '';
  // `||` is SQLite's concatenation by now (MySQL's OR has been written as OR), as in setBits' own text
  if (prev === '&' || next === '&' || (prev === '|' && masked[before - 1] !== '|') || (next === '|' && masked[after + 1] !== '|')) return true;
  if (/^(?:<<|>>)$/.test(masked.slice(before - 1, before + 1)) || /^(?:<<|>>)$/.test(masked.slice(after, after + 2))) return true;
  if (!/[(,]/.test(prev) || !/[),]/.test(next)) return false;
  // the call the operand is an argument of: the first unclosed parenthesis before it
  let depth = 0;
  for (let i = before; i >= 0; i--) {
    const c = masked[i];
    if (c === ')') depth++;
    else if (c === '(' && depth-- === 0) return BIT_CALL.test(masked.slice(Math.max(0, i - 20), i));
  }
  return false;
}
