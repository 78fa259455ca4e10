/**
 * Parenthesized queries as MySQL takes them and SQLite does not: a statement that is a query in
 * parentheses (`(SELECT 1)`), and the members of a UNION, INTERSECT or EXCEPT written in
 * parentheses, as mysqldump-era SQL and ORMs write them to give a member its own ORDER BY and LIMIT
 * (`(SELECT … ORDER BY id DESC LIMIT 1) UNION ALL (SELECT … LIMIT 1)`). Each such query becomes
 * `SELECT * FROM (query)`, which SQLite takes anywhere a SELECT goes, with the same columns. And
 * comparisons with ANY, SOME and ALL of a subquery, as far as SQLite has them.
 */
import { mysqlErrors } from './mysql-error.js';
import { closingParen, maskQuoted, spliceText } from './sql-text.js';

const QUERY_OPEN = /\(\s*(?:select|with)\b/gi;
const HAS_QUERY_OPEN = new RegExp(QUERY_OPEN.source, 'i');
const COMPOUND_BEFORE = /(?<![\w$])(?:union|intersect|except)(?:\s+(?:all|distinct))?\s*$/i;
const COMPOUND_AFTER = /^\s*(?:union|intersect|except)\b/i;

/** The statement with its parenthesized compound members (and a parenthesized statement) made SQLite's; undefined when it has none. */
export function withQueryParentheses(sql: string): string | undefined {
  if (!HAS_QUERY_OPEN.test(sql)) return undefined;
  const masked = maskQuoted(sql);
  const lead = masked.length - masked.trimStart().length;
  const splices: { from: number; to: number; text: string }[] = [];
  for (const m of masked.matchAll(QUERY_OPEN)) {
    const open = m.index!;
    const close = closingParen(masked, open);
    if (close < 0) continue;
    const member = COMPOUND_BEFORE.test(masked.slice(0, open)) || COMPOUND_AFTER.test(masked.slice(close + 1));
    const whole = open === lead && /^\s*;?\s*$/.test(masked.slice(close + 1));
    if (member || whole) splices.push({ from: open, to: open, text: 'SELECT * FROM ' });
  }
  return splices.length ? spliceText(sql, splices) : undefined;
}

const QUANTIFIED = /(=|<>|!=|<=>|<=|>=|<|>)\s*(any|some|all)\s*(?=\(\s*(?:select|with)\b)/gi;

/**
 * A comparison with ANY, SOME or ALL of a subquery, which SQLite has no syntax for: `= ANY` (and
 * `= SOME`) is IN, `<> ALL` NOT IN, with the same NULL rules. Other operators are refused with
 * 1235 (their NULL rules over the subquery's rows have no one-line SQLite form here).
 */
export function withQuantifiedComparisons(sql: string): string | undefined {
  if (!/\b(?:any|some|all)\s*\(/i.test(sql)) return undefined;
  const splices: { from: number; to: number; text: string }[] = [];
  for (const m of maskQuoted(sql).matchAll(QUANTIFIED)) {
    const op = m[1]!;
    const quantifier = m[2]!.toLowerCase();
    const keyword = op === '=' && quantifier !== 'all' ? 'IN' : (op === '<>' || op === '!=') && quantifier === 'all' ? 'NOT IN' : undefined;
    if (!keyword) throw mysqlErrors.notSupported(`${op} ${quantifier.toUpperCase()} (subquery) in the embedded source`);
    splices.push({ from: m.index!, to: m.index! + m[0].length, text: `${keyword} ` });
  }
  return splices.length ? spliceText(sql, splices) : undefined;
}
