/**
 * MySQL's `<<`, `>>`, `&` and `|` as calls of the connection's functions (loupe_shl, loupe_shr,
 * loupe_bitand, loupe_bitor in bitwise.ts), and `&&` as AND. SQLite puts the four on one level,
 * left to right, and computes on signed 64-bit integers, truncating a fraction; MySQL binds
 * `<<` `>>` above `&` above `|` (MySQL 8.0 Reference Manual, "Operator Precedence"), all below
 * `+` and `-`, and computes on BIGINT UNSIGNED with its operands rounded ("Bit Functions and
 * Operators"). So `1 | 2 & 4` is 1, not 0, and `-1 | 0` is 18446744073709551615.
 *
 * Runs after `~` and `^` are calls (mysql-operators.ts) and before the arithmetic is
 * (arithmetic-rewrite.ts), so an operand is a chain of unary expressions joined by arithmetic
 * operators, and a tighter bit operator is already a call by the time a looser one is read.
 */
import { chainStart, matchClose, rewriteOperators, textOf, unaryEnd } from './operator-spans.js';
import type { Token } from './sql-tokens.js';
import { replaceOutsideQuotes } from './sql-text.js';

/** The calls bit operators are by now (bitwise.ts): their results are exact already. */
const BIT_CALL = /^loupe_(?:bitand|bitor|shl|shr|bitnot|bitxor)$/i;

const isOp = (tok: Token | undefined, ...ops: string[]) => tok?.kind === 'op' && ops.includes(tok.text);

/** `+ - * / % DIV MOD` between two operands: all bind tighter than the bit operators here. */
const arithmetic = (tok: Token) => isOp(tok, '+', '-', '*', '/', '%') || (tok.kind === 'word' && /^(?:div|mod)$/i.test(tok.text));

/** End of the chain of unary expressions joined by arithmetic that starts at `i`, or -1. */
function chainEnd(t: Token[], i: number): number {
  let e = unaryEnd(t, i);
  while (e >= 0 && t[e + 1] && arithmetic(t[e + 1]!) && t[e + 2]) {
    const next = unaryEnd(t, e + 2);
    if (next < 0) break;
    e = next;
  }
  return e;
}

/**
 * An operand's text for the call. sql.js hands a function an INTEGER as a double, so
 * 9223372036854775807 would arrive as 2^63: an operand that is not a short number literal is
 * passed as its text (SQLite's text of an INTEGER is its digits, of a REAL one that reads back
 * as the same double), and a long integer literal as its digits. A bit operator's own call is
 * passed as it is.
 */
function operand(sql: string, t: Token[], from: number, to: number): string {
  const text = textOf(sql, t, from, to);
  if (t[from]!.kind === 'word' && BIT_CALL.test(t[from]!.text) && t[from + 1]?.kind === 'open' && matchClose(t, from + 1) === to) return text;
  if (/^[-+]?\s*\d{16,}$/.test(text)) return `'${text.replace(/\s/g, '')}'`;
  if (/^[-+]?\s*(?:\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)$/i.test(text) || /^null$/i.test(text) || (from === to && t[from]!.kind === 'string')) return text;
  return `CAST(${text} AS TEXT)`;
}

/** Each application of one of `ops` (one precedence level), leftmost first, as `fn(a, b)`. */
function rewriteLevel(sql: string, calls: Record<string, string>): string {
  return rewriteOperators(
    sql,
    (tok) => tok.kind === 'op' && tok.text in calls,
    (text, t, k) => {
      const from = k > 0 ? chainStart(t, k - 1, arithmetic) : -1;
      const to = chainEnd(t, k + 1);
      if (from < 0 || to < 0) return undefined;
      return { from, to, text: `${calls[t[k]!.text]}(${operand(text, t, from, k - 1)}, ${operand(text, t, k + 1, to)})` };
    },
  );
}

/** The statement with MySQL's `<<`, `>>`, `&`, `|` and `&&` written for SQLite. */
export function rewriteBitOperators(sql: string): string {
  let out = sql;
  // MySQL's && is AND (deprecated in 8.0, still read); SQLite has no &&
  if (out.includes('&&')) out = replaceOutsideQuotes(out, /&&/g, () => ' AND ');
  if (!/[&|]|<<|>>/.test(out)) return out;
  if (/<<|>>/.test(out)) out = rewriteLevel(out, { '<<': 'loupe_shl', '>>': 'loupe_shr' });
  if (out.includes('&')) out = rewriteLevel(out, { '&': 'loupe_bitand' });
  if (out.includes('|')) out = rewriteLevel(out, { '|': 'loupe_bitor' });
  return out;
}
