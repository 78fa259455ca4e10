/**
 * MySQL's CONV(N, from_base, to_base), and OCT(N) and BIN(N), which are CONV(N, 10, 8) and
 * CONV(N, 10, 2) (MySQL 8.0 Reference Manual, "Mathematical Functions"): N is read in from_base
 * as far as it has digits of that base, as a 64-bit number, unsigned unless from_base is negative;
 * it is written in |to_base| in upper case, as a signed number when to_base is negative. Bases
 * outside 2…36 give NULL.
 */
import type { SqlValue } from 'sql.js';

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function conv(n: SqlValue, from: SqlValue, to: SqlValue): SqlValue {
  if (n === null || n === undefined || from === null || from === undefined || to === null || to === undefined) return null;
  const fromBase = Math.trunc(Number(from));
  const toBase = Math.trunc(Number(to));
  if (Math.abs(fromBase) < 2 || Math.abs(fromBase) > 36 || Math.abs(toBase) < 2 || Math.abs(toBase) > 36) return null;
  const s = (n instanceof Uint8Array ? Buffer.from(n).toString('utf8') : typeof n === 'number' ? String(Math.trunc(n)) : String(n)).trim().toUpperCase();
  const negative = s.startsWith('-');
  let value = 0n;
  for (const c of s.replace(/^[-+]/, '')) {
    const d = DIGITS.indexOf(c);
    if (d < 0 || d >= Math.abs(fromBase)) break;
    value = value * BigInt(Math.abs(fromBase)) + BigInt(d);
  }
  if (negative) value = -value;
  let out = BigInt.asUintN(64, value);
  let sign = '';
  if (toBase < 0 && BigInt.asIntN(64, out) < 0n) {
    sign = '-';
    out = -BigInt.asIntN(64, out);
  }
  return sign + out.toString(Math.abs(toBase)).toUpperCase();
}

/** OCT(N) (base 8) and BIN(N) (base 2): N as a 64-bit integer in that base. */
export const toBase = (n: SqlValue, base: number): SqlValue => (n === null || n === undefined ? null : conv(typeof n === 'number' ? Math.trunc(n) : n, 10, base));
