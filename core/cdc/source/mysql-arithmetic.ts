/**
 * MySQL's arithmetic on SQLite (MySQL 8.0 Reference Manual, "Arithmetic Operators", "Precision
 * Math", "Mathematical Functions"): `+`, `-`, `*`, `/`, `%`/MOD, DIV, unary minus, ROUND and
 * TRUNCATE over an expression's values, evaluated by loupe_calc (arithmetic-rewrite.ts writes the
 * calls). SQLite computes all of them in doubles (0.1 + 0.2 is 0.30000000000000004 there, and
 * `price + q = 0.3` matches no row), divides integers as integers, and takes `%` of integers only.
 *
 * Exact operands (integers, DECIMAL literals and columns) give an exact DECIMAL: `+`/`-` at the
 * larger scale, `*` at the sum of the scales, `/` at the left scale plus div_precision_increment
 * (4); ROUND is half away from zero. Any DOUBLE or string operand makes the operation a DOUBLE,
 * and ROUND/TRUNCATE of a DOUBLE is my_double_round's (rint: half to even). So an expression keeps
 * exactness from leaf to root as MySQL's Items do, which a call per operator could not: a result
 * handed from one SQLite function to another is a double.
 *
 * Inside, MySQL's decimal division (do_div_mod in strings/decimal.cc) keeps the quotient to whole
 * 9-digit words past the point, enough for the operands' scales plus the increment, cut there; the
 * scale a result shows is applied when it is shown: 1 / 3 * 3 is 1.0000. A write (mode `w`) gets
 * the full value (1 / 3 into a DOUBLE is 0.333333333, into a DECIMAL(10,6) 0.333333); a value that
 * a write stores whole (mode `v`) is its exact text, which the column rounds as a DECIMAL, half away
 * from zero (a number would be rounded as a DOUBLE, half to even). x / 0, x % 0 and x DIV 0 are
 * NULL, or ERROR 1365 "Division by 0" in a strict-mode write (mode `e`). Text that is no number is
 * read as its leading number, and is ERROR 1292 "Truncated incorrect DOUBLE value" in a strict
 * data-changing statement (mode `t`), for each row it is computed for.
 *
 * A result is returned as a number (SQLite compares and sorts text after numbers), so it shows as
 * 2.5 where MySQL shows the DECIMAL 2.5000; the value is MySQL's. A BIGINT result beyond 2^53 is
 * returned as its digits, which the rewrite CASTs back to the INTEGER (sql.js cannot return a
 * bigint from a function), and a BIGINT column's value beyond 2^53 arrives as its digits too
 * (arithmetic-rewrite.ts's exactInteger), read with the hint `i` as that integer.
 */
import type { SqlValue } from 'sql.js';
import { StoreError } from './column-values.js';
import { warn } from './diagnostics.js';
import { leadingNumber } from './string-number.js';

/** div_precision_increment's default. */
export const DIV_PRECISION_INCREMENT = 4;
/** More operands than this are left to SQLite (loupe_calc is registered for up to this many). */
export const MAX_OPERANDS = 32;
/** DECIMAL_MAX_SCALE */
export const MAX_SCALE = 30;

/** An exact value is digits / 10^scale, shown with `shown` decimals, a BIGINT when `int` (else a DECIMAL); an approximate one is a DOUBLE. */
export type Num = { exact: true; digits: bigint; scale: number; shown: number; int?: boolean } | { exact: false; value: number };

const EXACT_TEXT = /^\s*([-+]?)(\d*)(?:\.(\d*))?\s*$/;
/** A DATE, DATETIME or TIME as SQLite holds it: in numeric context MySQL reads its digits (20240203, 101112.5). */
const TEMPORAL_TEXT = /^(-?)(?:(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?|(\d{1,3}):(\d{2}):(\d{2}))(?:\.(\d+))?$/;

export type Exact = Extract<Num, { exact: true }>;
const exact = (digits: bigint, scale: number, shown = scale): Exact => ({ exact: true, digits, scale, shown });
const integer = (digits: bigint): Exact => ({ exact: true, digits, scale: 0, shown: 0, int: true });
/** Both integers: + - * and % of them are a BIGINT. */
const ints = (x: Exact, y: Exact) => x.int === true && y.int === true;
const approx = (value: number): Num => ({ exact: false, value });

function exactOf(sign: string, int: string, frac: string): Exact {
  const digits = BigInt(`${int}${frac}` || '0');
  return exact(sign === '-' ? -digits : digits, frac.length);
}

/** A number literal as written: exact unless it has an exponent. */
export function literalNum(text: string): Num {
  if (/e/i.test(text)) return approx(Number(text));
  const m = EXACT_TEXT.exec(text);
  if (!m) return approx(Number(text));
  const n = exactOf(m[1]!, m[2]!, m[3] ?? '');
  return text.includes('.') ? n : { ...n, int: true };
}

function temporalNum(m: RegExpExecArray): Num {
  const digits = m[2] ? `${m[2]}${m[3]}${m[4]}${m[5] ?? ''}${m[6] ?? ''}${m[7] ?? ''}` : `${m[8]}${m[9]}${m[10]}`;
  const n = exactOf(m[1]!, digits.replace(/^0+(?=\d)/, ''), m[11] ?? '');
  return m[11] ? n : { ...n, int: true };
}

/**
 * What a value is to arithmetic, by what the statement says of it (`hint`): `c` a DECIMAL column
 * (its exact text), `i` an integer column, `f` a DOUBLE, `s` a string (read as a DOUBLE), `t` a
 * DATE, DATETIME or TIME column; '' unknown, seen from the value. `truncation`: text that is no
 * number fails the statement (strict mode).
 */
export function valueNum(v: SqlValue, hint: string, truncation: boolean): Num | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return integer(v);
  if (typeof v === 'number') {
    if (hint === 'f' || hint === 's' || !Number.isFinite(v)) return approx(v);
    // an integer is a BIGINT, unless the column is a DECIMAL of scale 0
    if (Number.isInteger(v)) return Math.abs(v) > Number.MAX_SAFE_INTEGER ? approx(v) : hint === 'c' || hint.startsWith('d') ? exact(BigInt(v), 0, hint.startsWith('d') ? Number(hint.slice(1)) : 0) : integer(BigInt(v));
    // a DECIMAL literal of scale N that SQLite read as a double (loupe_div's hints)
    if (hint.startsWith('d')) return literalNum(v.toFixed(Math.min(Number(hint.slice(1)), 100)));
    // a non-integer number: a DOUBLE column's value, unless the column is a DECIMAL (its shortest form is its value)
    return hint === 'c' ? literalNum(String(v)) : approx(v);
  }
  const text = v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v);
  // a BIGINT column's value beyond a double, handed over as its digits (arithmetic-rewrite.ts's exactInteger)
  if (hint === 'i' && /^-?\d+$/.test(text)) return integer(BigInt(text));
  if (hint !== 's' && hint !== 'f' && !hint.startsWith('d')) {
    const m = EXACT_TEXT.exec(text);
    if (m && (m[2] || m[3])) return exactOf(m[1]!, m[2]!, m[3] ?? '');
    const t = TEMPORAL_TEXT.exec(text);
    if (t) return temporalNum(t);
  }
  const { value, whole } = leadingNumber(text);
  if (!whole) {
    if (truncation) throw new StoreError(1292, `Truncated incorrect DOUBLE value: '${text}'`);
    warn(1292, `Truncated incorrect DOUBLE value: '${text}'`);
  }
  return approx(value);
}

/** digits / 10^scale as decimal text: 2500000000, 9 → '2.500000000'. */
export function decimalText(digits: bigint, scale: number): string {
  if (scale <= 0) return String(digits);
  const abs = (digits < 0n ? -digits : digits).toString().padStart(scale + 1, '0');
  return `${digits < 0n ? '-' : ''}${abs.slice(0, abs.length - scale)}.${abs.slice(abs.length - scale)}`;
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const pow10 = (n: number) => 10n ** BigInt(n);
/** The value as a double (an exact one rounded to the nearest). */
export const toDouble = (n: Num) => (n.exact ? Number(`${n.digits}e-${n.scale}`) : n.value);

/** digits at `from` decimals, rounded half away from zero (or cut toward zero) to `to` decimals (to < from). */
function rescale(digits: bigint, from: number, to: number, cut = false): bigint {
  if (to >= from) return digits * pow10(to - from);
  const d = pow10(from - to);
  let q = digits / d;
  if (!cut && 2n * abs(digits % d) >= d) q += digits < 0n ? -1n : 1n;
  return q;
}

/** Both at the larger scale. */
function aligned(x: Exact, y: Exact): [bigint, bigint, number] {
  const s = Math.max(x.scale, y.scale);
  return [rescale(x.digits, x.scale, s), rescale(y.digits, y.scale, s), s];
}

/** C's rint() (the default rounding mode): half to even. */
export const rint = (x: number) => (Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x));

/** my_double_round (sql/item_func.cc): ROUND and TRUNCATE of a DOUBLE. */
function doubleRound(value: number, dec: number, truncate: boolean): number {
  const tmp = 10 ** Math.abs(dec);
  if (dec < 0 && !Number.isFinite(tmp)) return 0;
  const scaled = dec < 0 ? value / tmp : value * tmp;
  if (dec >= 0 && !Number.isFinite(scaled)) return value;
  const whole = truncate ? (value >= 0 ? Math.floor(scaled) : Math.ceil(scaled)) : rint(scaled);
  return dec < 0 ? whole * tmp : whole / tmp;
}

function round(x: Num, dec: number, truncate: boolean): Num {
  if (!x.exact) return approx(doubleRound(x.value, dec, truncate));
  const shown = Math.min(Math.max(dec, 0), MAX_SCALE);
  // an integer's stays one (ROUND(n, -2) is a BIGINT); a DECIMAL's shows `dec` decimals
  if (dec >= x.scale) return x.int ? x : exact(x.digits, x.scale, shown);
  // to a multiple of 10^-dec, kept at scale max(dec, 0)
  const kept = rescale(x.digits, x.scale, dec, truncate);
  return dec >= 0 ? exact(kept, dec, shown) : { ...exact(kept * pow10(-dec), 0, 0), int: x.int };
}

type Op = '+' | '-' | '*' | '/' | '%' | 'D';

function binary(op: Op, x: Num, y: Num, mode: string): Num | null {
  if (op === '/' || op === '%' || op === 'D') {
    if (y.exact ? y.digits === 0n : y.value === 0) {
      if (mode.includes('e')) throw new StoreError(1365, 'Division by 0');
      if (!mode.includes('z')) warn(1365, 'Division by 0');
      return null;
    }
  }
  if (!x.exact || !y.exact) {
    const a = toDouble(x);
    const b = toDouble(y);
    switch (op) {
      case '+':
        return approx(a + b);
      case '-':
        return approx(a - b);
      case '*':
        return approx(a * b);
      case '/':
        return approx(a / b);
      case '%':
        return approx(a % b);
      case 'D':
        return integer(BigInt(Math.trunc(a / b)));
    }
  }
  switch (op) {
    case '+':
    case '-': {
      const [a, b, s] = aligned(x, y);
      return { ...exact(op === '+' ? a + b : a - b, s, Math.max(x.shown, y.shown)), int: ints(x, y) };
    }
    case '*': {
      const s = x.scale + y.scale;
      const digits = x.digits * y.digits;
      return s > MAX_SCALE ? exact(rescale(digits, s, MAX_SCALE), MAX_SCALE) : { ...exact(digits, s, Math.min(x.shown + y.shown, MAX_SCALE)), int: ints(x, y) };
    }
    case '/': {
      // the quotient to ⌈(sx + sy + 4) / 9⌉ words of 9 digits, cut (do_div_mod)
      const s = Math.ceil((x.scale + y.scale + DIV_PRECISION_INCREMENT) / 9) * 9;
      return exact((x.digits * pow10(s + y.scale - x.scale)) / y.digits, s, Math.min(x.shown + DIV_PRECISION_INCREMENT, MAX_SCALE));
    }
    case '%': {
      const [a, b, s] = aligned(x, y);
      return { ...exact(a % b, s, Math.max(x.shown, y.shown)), int: ints(x, y) };
    }
    case 'D': {
      const [a, b] = aligned(x, y);
      return integer(a / b);
    }
  }
}

/** A program: its mode, and its steps in postfix order. */
interface Program {
  mode: string;
  truncation: boolean;
  steps: Step[];
}
type Step = { kind: 'arg'; index: number; hint: string } | { kind: 'num'; value: Num } | { kind: 'op'; op: Op } | { kind: 'neg' } | { kind: 'round'; args: 1 | 2; truncate: boolean };

const programs = new Map<string, Program>();

/**
 * `mode|steps`: steps separated by spaces, `$n:hint` the n-th argument, `#literal` a number
 * literal, an operator (`D` for DIV), `n` unary minus, `R1`/`R2` ROUND of one or two values, `T2`
 * TRUNCATE.
 */
function parse(text: string): Program {
  let p = programs.get(text);
  if (p) return p;
  const bar = text.indexOf('|');
  const mode = text.slice(0, bar);
  const steps: Step[] = text
    .slice(bar + 1)
    .split(' ')
    .map((s): Step => {
      if (s.startsWith('$')) {
        const colon = s.indexOf(':');
        return { kind: 'arg', index: Number(s.slice(1, colon)), hint: s.slice(colon + 1) };
      }
      if (s.startsWith('#')) return { kind: 'num', value: literalNum(s.slice(1)) };
      if (s === 'n') return { kind: 'neg' };
      if (s === 'R1' || s === 'R2' || s === 'T2') return { kind: 'round', args: s === 'R1' ? 1 : 2, truncate: s === 'T2' };
      return { kind: 'op', op: s as Op };
    });
  p = { mode, truncation: mode.includes('t'), steps };
  if (programs.size > 10_000) programs.clear();
  programs.set(text, p);
  return p;
}

/** The decimals each program's last exact result shows (-1 for a DOUBLE, -2 for a BIGINT), for the select list's display (decimal-display.ts). */
const shown = new Map<string, number>();

/** The decimals the program's last result showed: MySQL prints an exact result with them (q * 3 is 0.6000); -1 for a DOUBLE, -2 for a BIGINT. */
export function shownScale(program: string): number | undefined {
  return shown.get(program);
}

export function forgetShownScales(): void {
  shown.clear();
  exactTexts.clear();
}

/**
 * The exact text of each aggregate the statement returned as text that SQLite turned into a
 * double (a fraction or a value past 2^63, see aggregateValue), by its program (the select item)
 * and that double, so that the select list still shows the exact DECIMAL; null where two texts
 * gave one double.
 */
const exactTexts = new Map<string, string | null>();

/**
 * The exact text behind a double the aggregate of `program` gave this statement, if there is
 * exactly one; a DISTINCT aggregate is given no program and keeps its texts under ''.
 */
export function exactTextOf(program: string, v: number): string | undefined {
  return exactTexts.get(`${program}\u0000${v}`) ?? exactTexts.get(`\u0000${v}`) ?? undefined;
}

/** loupe_calc('mode|steps', args…): the expression's value as MySQL computes it. */
export function mysqlCalc(program: SqlValue, ...args: SqlValue[]): SqlValue {
  const result = calc(String(program), args);
  if (result !== null) shown.set(String(program), result.exact ? (result.int ? -2 : result.shown) : -1);
  return result === null ? null : finish(String(program), result);
}

function calc(program: string, args: SqlValue[]): Num | null {
  const p = parse(program);
  const stack: (Num | null)[] = [];
  for (const step of p.steps) {
    switch (step.kind) {
      case 'arg':
        stack.push(valueNum(args[step.index] ?? null, step.hint, p.truncation));
        break;
      case 'num':
        stack.push(step.value);
        break;
      case 'neg': {
        const x = stack.pop()!;
        stack.push(x === null ? null : x.exact ? { ...x, digits: -x.digits } : approx(-x.value));
        break;
      }
      case 'round': {
        const d = step.args === 2 ? stack.pop()! : exact(0n, 0);
        const x = stack.pop()!;
        stack.push(x === null || d === null ? null : round(x, Math.trunc(toDouble(d)), step.truncate));
        break;
      }
      case 'op': {
        const y = stack.pop()!;
        const x = stack.pop()!;
        stack.push(x === null || y === null ? null : binary(step.op, x, y, p.mode));
        break;
      }
    }
  }
  return stack.pop() ?? null;
}

function finish(program: string, result: Num): SqlValue {
  if (!result.exact) return result.value;
  const { mode } = parse(program);
  if (mode.includes('v')) return decimalText(result.digits, result.scale);
  // for an exact aggregate (exact-aggregates.ts): every digit, and the decimals it shows
  if (mode.includes('x')) return `${decimalText(result.digits, result.scale)}~${result.shown}`;
  if (mode.includes('w')) return toDouble(result);
  // a SELECT's own SUM or AVG item (arithmetic-rewrite.ts's shownAggregates): a DECIMAL beyond a double as its text
  if (mode.startsWith('a')) return aggregateValue(result, program);
  // a BIGINT beyond a double as its digits: sql.js cannot return a bigint from a function, and the
  // rewrite CASTs them back to the INTEGER (arithmetic-rewrite.ts)
  if (result.int && abs(result.digits) > MAX_EXACT) return String(result.digits);
  return shownValue(result);
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An exact aggregate's value (exact-aggregates.ts): the double nearest to what it shows, or, when
 * that has more digits than a double holds exactly (a SUM of BIGINTs beyond 2^53), its text, which
 * the rewrite CASTs to NUMERIC (arithmetic-rewrite.ts) so that HAVING and ORDER BY compare a
 * number: a whole value as its integer digits, the exact INTEGER within 64 bits (AVG's
 * 4611686018427387907.0000 too, shown with its decimals by decimal-display.ts); a fraction or a
 * value past 2^63 becomes the nearest double there.
 */
export function aggregateValue(n: Exact, program = ''): number | string {
  const scale = Math.min(n.scale, n.shown);
  const digits = n.scale > n.shown ? rescale(n.digits, n.scale, n.shown) : n.digits;
  if (abs(digits) <= MAX_EXACT) return shownValue(n);
  const unit = 10n ** BigInt(scale);
  const whole = digits / unit;
  if (digits % unit === 0n && BigInt.asIntN(64, whole) === whole) return String(whole);
  const text = decimalText(digits, scale);
  const key = `${program}\u0000${Number(text)}`;
  const seen = exactTexts.get(key);
  exactTexts.set(key, seen === undefined || seen === text ? text : null);
  return text;
}

/** An exact value as the double nearest to what it shows (rounded half away from zero to its shown decimals). */
export function shownValue(n: Exact): number {
  return toDouble(n.scale > n.shown ? exact(rescale(n.digits, n.scale, n.shown), n.shown) : n);
}

/** A loupe_calc result of mode `x`: exact text with its shown decimals after `~`. */
export function exactResult(v: string): Exact | undefined {
  const tilde = v.lastIndexOf('~');
  const m = EXACT_TEXT.exec(tilde < 0 ? v : v.slice(0, tilde));
  if (!m || !(m[2] || m[3])) return undefined;
  const n = exactOf(m[1]!, m[2]!, m[3] ?? '');
  return tilde < 0 ? n : { ...n, shown: Number(v.slice(tilde + 1)) };
}

/** x + y of two exact values (the larger scale, the larger shown scale). */
export function exactSum(x: Exact, y: Exact): Exact {
  return binary('+', x, y, '') as Exact;
}

/** sum / count as MySQL's AVG of a DECIMAL: a decimal division, div_precision_increment more decimals shown. */
export function exactAverage(sum: Exact, count: number): Exact {
  return binary('/', sum, integer(BigInt(count)), '') as Exact;
}

/**
 * loupe_div(a, b, 'hintA,hintB,mode'): the division function of earlier builds, which views they
 * created call (a view is kept as SQLite's translation of it); the same division as loupe_calc's.
 */
export function legacyDivide(a: SqlValue, b: SqlValue, hints: SqlValue): SqlValue {
  const [ha = '', hb = '', mode = ''] = String(hints ?? ',,').split(',');
  return mysqlCalc(`${mode}|$0:${ha} $1:${hb} /`, a, b);
}
