/**
 * The statement a leading WITH clause belongs to: `WITH [RECURSIVE] name [(columns)] AS (query)
 * [, …]` is skipped and the word after it returned, with where it starts. MySQL 8.0 takes WITH
 * before SELECT, UPDATE and DELETE (and, in parentheses, TABLE and VALUES); before INSERT or
 * REPLACE it is a syntax error there (the CTE goes after INSERT … (columns)).
 */
import { significantTokens } from './operator-spans.js';
import { closingParen, maskQuoted } from './sql-text.js';
import type { Token } from './sql-tokens.js';

const upper = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');

/** The statement word after the WITH clause at the start of `sql`, or undefined when `sql` does not start with one that parses. */
export function statementAfterWith(sql: string): { verb: string; at: number } | undefined {
  const t = significantTokens(sql);
  if (upper(t[0]) !== 'WITH') return undefined;
  let i = upper(t[1]) === 'RECURSIVE' ? 2 : 1;
  for (;;) {
    if (t[i]?.kind !== 'word' && t[i]?.kind !== 'name') return undefined;
    i++;
    if (t[i]?.kind === 'open') i = closeOf(t, i) + 1;
    if (upper(t[i]) !== 'AS' || t[i + 1]?.kind !== 'open') return undefined;
    i = closeOf(t, i + 1) + 1;
    if (i <= 0) return undefined;
    if (t[i]?.kind === 'comma') {
      i++;
      continue;
    }
    const next = t[i];
    return next ? { verb: next.kind === 'open' ? '(' : upper(next), at: next.start } : undefined;
  }
}

function closeOf(t: Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < t.length; j++) {
    if (t[j]!.kind === 'open') depth++;
    else if (t[j]!.kind === 'close' && --depth === 0) return j;
  }
  return -2;
}

/** `INSERT|REPLACE … [(columns)] (` followed by WITH: where the parenthesis around the query opens. */
const PARENTHESIZED_WITH = /^\s*(?:insert|replace)\b[^(]*?(?:\([^()]*\))?\s*(\()\s*with\b/i;

/**
 * `INSERT INTO t (a, b) (WITH … SELECT …)`: MySQL 8.0 takes the query in parentheses; the same
 * statement without them means the same. Undefined when `sql` is not such a statement (the
 * parenthesis must close at the end, before nothing but blanks and a semicolon).
 */
export function withoutQueryParentheses(sql: string): string | undefined {
  const m = PARENTHESIZED_WITH.exec(sql);
  if (!m) return undefined;
  const open = m.index + m[0].lastIndexOf('(');
  const masked = maskQuoted(sql);
  const close = closingParen(masked, open);
  if (close < 0 || !/^\s*;?\s*$/.test(masked.slice(close + 1))) return undefined;
  return `${sql.slice(0, open)}${sql.slice(open + 1, close)}${sql.slice(close + 1)}`;
}
