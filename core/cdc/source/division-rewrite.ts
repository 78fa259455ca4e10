/**
 * MySQL's `/` on SQLite, which divides two integers as integers (1 / 3 is 0 there). Each `a / b`
 * outside quotes, names and comments becomes `loupe_div(a, b, 'hints')` (mysql-division.ts), its
 * operands found by MySQL's precedence: `*`, `/`, `%`, DIV and MOD are one left-associative level,
 * unary minus, `~`, `!`, `^`, BINARY and COLLATE bind tighter (operator-spans.ts). The hints say
 * what the text shows and the value cannot: that an operand is a DECIMAL literal and its scale
 * (1.50 is 1.5 in SQLite), a DOUBLE literal (1.5e0) or a string, and how the statement divides
 * (modeOf).
 */
import { assigns, chainStart, clauseBefore, matchOpen, rewriteOperators, textOf, unaryEnd } from './operator-spans.js';
import type { Token } from './sql-tokens.js';

const SAME_LEVEL = (tok: Token) => (tok.kind === 'op' && (tok.text === '*' || tok.text === '/' || tok.text === '%' || tok.text === '^')) || (tok.kind === 'word' && /^(?:div|mod)$/i.test(tok.text));

/** What the operand's text says of its type: `dN` a DECIMAL literal of scale N, `f` a DOUBLE or a string, '' to be seen from the value. */
function hint(t: Token[], from: number, to: number): string {
  let i = from;
  while (i < to && t[i]!.kind === 'op' && (t[i]!.text === '-' || t[i]!.text === '+')) i++;
  if (i !== to) return '';
  const tok = t[i]!;
  if (tok.kind === 'string') return 'f';
  if (tok.kind !== 'number' || /^0[xb]/i.test(tok.text)) return '';
  if (/e/i.test(tok.text)) return 'f';
  return `d${(/\.(\d*)/.exec(tok.text)?.[1] ?? '').length}`;
}

/**
 * How the statement divides: `w` in a write (INSERT, UPDATE, REPLACE), whose values keep the
 * quotient's full precision, and `e` where division by zero fails it too (strict mode, no IGNORE:
 * MySQL 8.0 manual, "Server SQL Modes", ERROR_FOR_DIVISION_BY_ZERO: "for inserts and updates").
 */
function modeOf(sql: string): string {
  if (!/^\s*(?:insert|update|replace)\b/i.test(sql)) return '';
  return /^\s*\w+(?:\s+(?:low_priority|high_priority|delayed))*\s+ignore\b/i.test(sql) ? 'w' : 'we';
}

const ENDS_VALUE = new Set(['WHERE', 'ORDER', 'LIMIT', 'FROM', 'ON', 'AS']);

/**
 * Whether tokens `from`…`to` are a whole value a write stores: the right side of SET's `col =`, an
 * item of a VALUES row, or an item of the select list of INSERT … SELECT. Such a quotient is given
 * to the column as its exact text, which the column rounds as MySQL rounds a DECIMAL (half away from
 * zero; a number would be rounded as a DOUBLE, half to even).
 */
function wholeValue(t: Token[], from: number, to: number): boolean {
  const after = t[to + 1];
  if (after && after.kind !== 'comma' && after.kind !== 'close' && !(after.kind === 'op' && after.text === ';') && !(after.kind === 'word' && ENDS_VALUE.has(after.text.toUpperCase()))) return false;
  const before = t[from - 1];
  if (!before) return false;
  if (before.kind === 'op' && before.text === '=') return assigns(t, from - 1);
  if (before.kind !== 'comma' && before.kind !== 'open' && !/^(?:select|distinct)$/i.test(before.kind === 'word' ? before.text : '')) return false;
  if (before.kind === 'word') return true;
  // a VALUES row: the parenthesis it is in follows VALUES, or a comma after the row before
  const clause = clauseBefore(t, from - 1);
  if (clause === 'SELECT') return true;
  if (clause) return false;
  let open = from - 1;
  for (let depth = 0; open >= 0; open--) {
    const tok = t[open]!;
    if (tok.kind === 'close') open = matchOpen(t, open);
    else if (tok.kind === 'open' && depth-- === 0) break;
  }
  const row = t[open - 1];
  return !!row && ((row.kind === 'word' && /^values?$/i.test(row.text)) || (row.kind === 'comma' && t[open - 2]?.kind === 'close'));
}

/** The statement with each `/` as loupe_div; one without `/` is returned as it is, unparsed. */
export function rewriteDivision(sql: string): string {
  if (!sql.includes('/')) return sql;
  const mode = modeOf(sql);
  return rewriteOperators(
    sql,
    (tok) => tok.kind === 'op' && tok.text === '/',
    (text, t, k) => {
      const from = k > 0 ? chainStart(t, k - 1, SAME_LEVEL) : -1;
      const to = unaryEnd(t, k + 1);
      if (from < 0 || to < 0) return undefined;
      const hints = `${hint(t, from, k - 1)},${hint(t, k + 1, to)},${mode}${mode && wholeValue(t, from, to) ? 'v' : ''}`;
      return { from, to, text: `loupe_div(${textOf(text, t, from, k - 1)}, ${textOf(text, t, k + 1, to)}, '${hints}')` };
    },
  );
}
