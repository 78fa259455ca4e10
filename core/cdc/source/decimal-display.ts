/**
 * An exact result shown as MySQL shows it: a DECIMAL with its scale, as text (`q * 3` is '0.6000',
 * `1 / 3` '0.3333'), which is how a DECIMAL column already reads and how a MySQL client gets one
 * (mysql2 gives DECIMALs as strings). Inside the statement the value stays a number, which SQLite
 * compares and sorts as one; only the select list's own items that are one loupe_calc program
 * are turned to text, after the rows are read, with the decimals that program's result showed.
 */
import { DIV_PRECISION_INCREMENT, exactTextOf, forgetShownScales, MAX_SCALE, shownScale } from './mysql-arithmetic.js';
import { closingParen, maskQuoted, selectItems } from './sql-text.js';

const CALL = /^\s*(?:cast\(\s*)?(?:loupe_(sum|avg)\(\s*(?:distinct\s+)?)?loupe_calc\('((?:[^']|'')*)'/i;
const ALIAS = /^\s*(?:as\s+)?(?:`[^`]*`|"[^"]*"|'[^']*'|[A-Za-z_][\w$]*)?\s*$/i;

/** A column's exact results: the program whose shown scale they take, and whether SUM or AVG of it. */
export interface ShownColumn {
  program: string;
  aggregate?: 'sum' | 'avg';
  /** CAST(… AS DECIMAL(M,D)): its D, whatever the value. */
  scale?: number;
}

const CAST_DECIMAL = /^\s*loupe_cast_decimal\(/i;
/** The end of a loupe_cast_decimal call: M, D and the CAST as written. */
const CAST_DECIMAL_END = /,\s*\d+\s*,\s*(\d+)\s*,\s*'(?:[^']|'')*'\s*\)$/;

/**
 * The program of each select item that is a single loupe_calc call, or SUM/AVG of one
 * (exact-aggregates.ts), or the CAST of one that may give a BIGINT beyond 2^53 (arithmetic-rewrite.ts), an alias allowed, by column;
 * and the scale of each that is a CAST to DECIMAL(M,D) (mysql-functions.ts).
 */
export function calcColumns(sql: string): (ShownColumn | undefined)[] | undefined {
  if (!sql.includes('loupe_calc(') && !sql.includes('loupe_cast_decimal(')) return undefined;
  const items = selectItems(sql);
  if (!items) return undefined;
  const programs = items.map((item): ShownColumn | undefined => {
    if (CAST_DECIMAL.test(item)) {
      const masked = maskQuoted(item);
      const close = closingParen(masked, masked.indexOf('('));
      const end = close > 0 && ALIAS.test(masked.slice(close + 1)) ? CAST_DECIMAL_END.exec(item.slice(0, close + 1)) : null;
      return end ? { program: '', scale: Number(end[1]) } : undefined;
    }
    const m = CALL.exec(item);
    if (!m) return undefined;
    const masked = maskQuoted(item);
    const close = closingParen(masked, masked.indexOf('('));
    return close > 0 && ALIAS.test(masked.slice(close + 1)) ? { program: m[2]!.replace(/''/g, "'"), aggregate: m[1]?.toLowerCase() as ShownColumn['aggregate'] } : undefined;
  });
  if (programs.every((p) => p === undefined)) return undefined;
  forgetShownScales();
  return programs;
}

/** The rows with each exact result of those columns as its DECIMAL text. */
export function showDecimals(rows: unknown[][], programs: (ShownColumn | undefined)[]): unknown[][] {
  const scales = programs.map((p) => (p === undefined ? undefined : (p.scale ?? aggregateScale(shownScale(p.program), p.aggregate))));
  if (scales.every((s) => s === undefined || s < 0)) return rows;
  return rows.map((row) => row.map((v, i) => (scales[i] === undefined || scales[i]! < 0 ? v : typeof v === 'number' ? numberFixed(v, scales[i]!, programs[i]!.program) : typeof v === 'bigint' ? bigintFixed(v, scales[i]!) : typeof v === 'string' ? textFixed(v, scales[i]!) : v)));
}

/** A number with `scale` decimals; a double an exact aggregate's text became, as that text. */
function numberFixed(v: number, scale: number, program: string): string {
  const exact = Math.abs(v) > Number.MAX_SAFE_INTEGER ? exactTextOf(program, v) : undefined;
  return exact === undefined ? v.toFixed(scale) : textFixed(exact, scale);
}

/** An exact aggregate's DECIMAL text (one a double could not hold: exact-aggregates.ts) with `scale` decimals. */
function textFixed(v: string, scale: number): string {
  if (!/^-?\d+(?:\.\d*)?$/.test(v)) return v;
  const dot = v.indexOf('.');
  const decimals = dot < 0 ? 0 : v.length - dot - 1;
  if (decimals >= scale) return v;
  return `${v}${dot < 0 && scale > 0 ? '.' : ''}${'0'.repeat(scale - decimals)}`;
}

/** A bigint (an integer beyond 2^53) with `scale` zero decimals, as toFixed writes a number. */
function bigintFixed(v: bigint, scale: number): string {
  return scale > 0 ? `${v}.${'0'.repeat(scale)}` : String(v);
}

/** The decimals shown: a program's own, or SUM's of it (a BIGINT's sum is a DECIMAL), or AVG's (div_precision_increment more). */
function aggregateScale(scale: number | undefined, aggregate: ShownColumn['aggregate']): number | undefined {
  if (scale === undefined || !aggregate) return scale;
  if (scale === -1) return -1;
  return Math.min(Math.max(scale, 0) + (aggregate === 'avg' ? DIV_PRECISION_INCREMENT : 0), MAX_SCALE);
}
