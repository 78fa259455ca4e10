/**
 * MySQL's division (MySQL 8.0 Reference Manual, "Arithmetic Operators" and "Precision Math"):
 * never integer division. Exact operands (integers, DECIMALs) give a DECIMAL whose scale is the
 * left operand's plus div_precision_increment (4), rounded half away from zero: 1 / 3 = 0.3333,
 * 1.50 / 3 = 0.500000. A DOUBLE or a string operand gives a DOUBLE ('1' / 3 = 0.3333333333333333).
 * x / 0 is NULL, or ERROR 1365 "Division by 0" in a strict-mode write.
 *
 * The scale is what a result shows. Inside, MySQL's decimal division (do_div_mod in
 * strings/decimal.cc) keeps the quotient to whole 9-digit words past the point, enough for the
 * operands' scales plus the increment, cut there; a value stored in a column is that one (1 / 3
 * into a DOUBLE is 0.333333333, into a DECIMAL(10,6) 0.333333). So a write (mode `w`) gets the
 * full quotient, a read the one rounded to its scale. A quotient that is a whole value a write
 * stores (mode `v`) is its exact text, which the column rounds as a DECIMAL, half away from zero
 * (UPDATE t SET n = n / 2 stores 3 for 5); a number would be rounded as a DOUBLE, half to even.
 *
 * DECIMAL columns arrive as their text ('91.50', column-values.ts), so text of that shape is read
 * as an exact number of its scale; a VARCHAR holding such text is read so too (MySQL would divide
 * it as a DOUBLE). A non-integer number without a hint is a DOUBLE column's value. The quotient is
 * returned as a number (SQLite compares and sorts text after numbers), so it shows as 2.5 where
 * MySQL shows the DECIMAL 2.5000; the value is MySQL's.
 */
import type { SqlValue } from 'sql.js';
import { StoreError } from './column-values.js';
import { leadingNumber } from './string-number.js';

/** div_precision_increment's default. */
const DIV_PRECISION_INCREMENT = 4;
/** DECIMAL_MAX_SCALE */
const MAX_SCALE = 30;

type Operand = { exact: true; digits: bigint; scale: number } | { exact: false; value: number };

const EXACT_TEXT = /^\s*([-+]?)(\d*)(?:\.(\d*))?\s*$/;
/** MySQL's string to DOUBLE: the longest number at its start (after blanks), 0 if none. */
const doubleOf = (s: string) => leadingNumber(s).value;

function exactOf(sign: string, int: string, frac: string): Operand {
  const digits = BigInt(`${int}${frac}` || '0');
  return { exact: true, digits: sign === '-' ? -digits : digits, scale: frac.length };
}

function operand(v: SqlValue, hint: string): Operand {
  if (typeof v === 'bigint') return { exact: true, digits: v, scale: 0 };
  if (typeof v === 'number') {
    if (hint.startsWith('d')) {
      const m = EXACT_TEXT.exec(v.toFixed(Math.min(Number(hint.slice(1)), 100)))!;
      return exactOf(m[1]!, m[2]!, m[3] ?? '');
    }
    return Number.isInteger(v) && hint !== 'f' ? { exact: true, digits: BigInt(v), scale: 0 } : { exact: false, value: v };
  }
  const text = v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v);
  const m = hint === 'f' ? null : EXACT_TEXT.exec(text);
  if (m && (m[2] || m[3])) return exactOf(m[1]!, m[2]!, m[3] ?? '');
  return { exact: false, value: doubleOf(text) };
}

/** digits / 10^scale as decimal text: 2500000000, 9 → '2.500000000'. */
function decimalText(digits: bigint, scale: number): string {
  const abs = (digits < 0n ? -digits : digits).toString().padStart(scale + 1, '0');
  return `${digits < 0n ? '-' : ''}${abs.slice(0, abs.length - scale)}.${abs.slice(abs.length - scale)}`;
}

const hintCache = new Map<string, string[]>();

/** loupe_div(a, b, 'hintA,hintB,mode'): a / b as MySQL computes it. */
export function mysqlDivide(a: SqlValue, b: SqlValue, hints: SqlValue): SqlValue {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const h = String(hints ?? ',,');
  let parts = hintCache.get(h);
  if (!parts) hintCache.set(h, (parts = h.split(',')));
  const x = operand(a, parts[0] ?? '');
  const y = operand(b, parts[1] ?? '');
  if (y.exact ? y.digits === 0n : y.value === 0) {
    if (parts[2]?.includes('e')) throw new StoreError(1365, 'Division by 0');
    return null;
  }
  if (!x.exact || !y.exact) return (x.exact ? Number(x.digits) / 10 ** x.scale : x.value) / (y.exact ? Number(y.digits) / 10 ** y.scale : y.value);
  if (parts[2]?.includes('w')) {
    // the quotient to ⌈(sx + sy + 4) / 9⌉ words of 9 digits, cut (do_div_mod)
    const digits = Math.ceil((x.scale + y.scale + DIV_PRECISION_INCREMENT) / 9) * 9;
    const quotient = (x.digits * 10n ** BigInt(digits + y.scale - x.scale)) / y.digits;
    return parts[2].includes('v') ? decimalText(quotient, digits) : Number(`${quotient}e-${digits}`);
  }
  // x / y = (dx / 10^sx) / (dy / 10^sy); scaled by 10^(sx + 4): dx · 10^(sy + 4) / dy
  const scale = Math.min(x.scale + DIV_PRECISION_INCREMENT, MAX_SCALE);
  const numerator = x.digits * 10n ** BigInt(y.scale + scale - x.scale);
  let quotient = numerator / y.digits;
  const remainder = numerator % y.digits;
  const abs = (n: bigint) => (n < 0n ? -n : n);
  if (2n * abs(remainder) >= abs(y.digits)) quotient += (numerator < 0n) !== (y.digits < 0n) ? -1n : 1n;
  return Number(`${quotient}e-${scale}`);
}
