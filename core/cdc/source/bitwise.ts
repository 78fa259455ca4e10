/**
 * MySQL's bit operators on BIGINT UNSIGNED (MySQL 8.0 Reference Manual, "Bit Functions and
 * Operators": numeric arguments are 64-bit unsigned integers, so ~0 is 18446744073709551615) and
 * its logical XOR (NULL when either side is; true when exactly one side is non-zero).
 */
import type { SqlValue } from 'sql.js';
import { leadingNumber } from './string-number.js';

const text = (v: SqlValue) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));

/** A value as MySQL's unsigned 64-bit integer: numbers rounded half away from zero, text read as far as it is a number. */
export function toUint64(v: SqlValue): bigint {
  if (typeof v === 'bigint') return BigInt.asUintN(64, v);
  let n: number;
  if (typeof v === 'number') n = v;
  else {
    const t = text(v);
    const int = /^\s*[-+]?\d+\s*$/.exec(t);
    if (int) return BigInt.asUintN(64, BigInt(int[0].trim()));
    n = leadingNumber(t).value;
  }
  if (!Number.isFinite(n)) return 0n;
  return BigInt.asUintN(64, BigInt(Math.sign(n) * Math.round(Math.abs(n))));
}

/** A BIGINT UNSIGNED result: a number while JavaScript holds it exactly, its decimal text beyond (as a client shows it). */
export const uint64Out = (n: bigint): SqlValue => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString());

const truth = (v: SqlValue) => (typeof v === 'number' ? v !== 0 : typeof v === 'bigint' ? v !== 0n : leadingNumber(text(v)).value !== 0);
const isNull = (v: SqlValue) => v === null || v === undefined;

export const bitNot = (v: SqlValue): SqlValue => (isNull(v) ? null : uint64Out(BigInt.asUintN(64, ~toUint64(v))));
export const bitXor = (a: SqlValue, b: SqlValue): SqlValue => (isNull(a) || isNull(b) ? null : uint64Out(toUint64(a) ^ toUint64(b)));
export const logicalXor = (a: SqlValue, b: SqlValue): SqlValue => (isNull(a) || isNull(b) ? null : truth(a) !== truth(b) ? 1 : 0);
