/**
 * A single-table UPDATE's assignments in MySQL's order: "Single-table UPDATE assignments are
 * generally evaluated from left to right" (MySQL 8.0 manual, UPDATE Statement), so in
 * `SET a = a + 1, b = a * 2` b reads the new a. SQLite (and standard SQL) give every assignment
 * the row as it was. Each assignment that reads a column assigned before it gets that column's
 * new value written in: `SET a = a + 1, b = (a + 1) * 2`. INSERT … ON DUPLICATE KEY UPDATE's
 * assignments likewise.
 */
import { maskQuoted, NAME_PATTERN as IDENT, splitTopLevel, unquotedName } from './sql-text.js';
import { significant, tokenize } from './sql-tokens.js';

const HEAD = new RegExp(`^\\s*update(?:\\s+(?:low_priority|ignore))*\\s+((?:${IDENT})(?:\\s*\\.\\s*(?:${IDENT}))?)(?:\\s+(?:as\\s+)?(?!set\\b)(${IDENT}))?\\s+set\\b`, 'i');
const unquote = (name: string) => unquotedName(name).toLowerCase();

/**
 * The UPDATE with each assignment reading the values assigned before it; any other statement as
 * it is. `defaultOf` gives a column's DEFAULT as an expression (`NULL`, `'x'`, `CURRENT_TIMESTAMP`)
 * for `SET c = DEFAULT`, given the table as the UPDATE names it.
 */
export function assignInOrder(sql: string, defaultOf: (table: string, column: string) => string | undefined = () => undefined): string {
  if (/^\s*insert\b/i.test(sql)) return /\bduplicate\s+key\b/i.test(sql) ? upsertInOrder(sql, defaultOf) : sql;
  if (!/^\s*update\b/i.test(sql)) return sql;
  const masked = maskQuoted(sql);
  const head = HEAD.exec(masked);
  if (!head || masked.slice(head[0].length).includes(',') === false) return sql;
  return inOrder(sql, masked, head[0].length, head[1]!, head[2], defaultOf);
}

const UPSERT = new RegExp(`^\\s*insert(?:\\s+(?:low_priority|delayed|high_priority|ignore))*\\s+(?:into\\s+)?((?:${IDENT})(?:\\s*\\.\\s*(?:${IDENT}))?)[\\s\\S]*?\\bon\\s+duplicate\\s+key\\s+update\\b`, 'i');

/**
 * INSERT … ON DUPLICATE KEY UPDATE: its assignments run left to right too (the same
 * fill_record as UPDATE's), where SQLite's upsert gives each the row as it was.
 */
function upsertInOrder(sql: string, defaultOf: (table: string, column: string) => string | undefined): string {
  const masked = maskQuoted(sql);
  const m = UPSERT.exec(masked);
  return m ? inOrder(sql, masked, m[0].length, m[1]!, undefined, defaultOf) : sql;
}

/** The assignment list from `from` (to WHERE, ORDER BY, LIMIT or the end) with each reading those before it. */
function inOrder(sql: string, masked: string, from: number, named: string, alias: string | undefined, defaultOf: (table: string, column: string) => string | undefined): string {
  // the SET list runs to WHERE, ORDER BY or LIMIT at its own level
  let depth = 0;
  let end = masked.length;
  for (let i = from; i < masked.length; i++) {
    const c = masked[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && /[a-z;]/i.test(c) && !/[\w$]/.test(masked[i - 1] ?? ' ') && /^(?:where|order\s+by|limit|;)/i.test(masked.slice(i))) {
      end = i;
      break;
    }
  }
  const list = sql.slice(from, end);
  const items = splitTopLevel(list);
  if (items.length < 2) return sql;
  const table = unquote(named.split(/\s*\.\s*/).at(-1)!);
  const qualifiers = new Set([table, ...(alias ? [unquote(alias)] : [])]);
  const assigned = new Map<string, string>();
  let changed = false;
  const out = items.map((item) => {
    const m = new RegExp(`^(\\s*(?:(${IDENT})\\s*\\.\\s*)?(${IDENT})\\s*=)([\\s\\S]*)$`).exec(item);
    if (!m) return item;
    const written = withAssigned(m[4]!, assigned, qualifiers);
    if (written !== m[4]) changed = true;
    if (!m[2] || qualifiers.has(unquote(m[2]))) {
      const column = unquote(m[3]!);
      // DEFAULT: the column's default is its new value; one not known leaves later readers the old one
      const value = /^\s*default\s*$/i.test(written) ? defaultOf(named, m[3]!) : written.trim();
      if (value === undefined) assigned.delete(column);
      else assigned.set(column, value);
    }
    return m[1] + written;
  });
  return changed ? sql.slice(0, from) + out.join(',') + sql.slice(end) : sql;
}

/** `expr` with each column assigned before it (`c`, or qualified by the table) replaced by its new value. */
function withAssigned(expr: string, assigned: Map<string, string>, qualifiers: Set<string>): string {
  if (!assigned.size) return expr;
  const t = tokenize(expr);
  let out = '';
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    const sig = t.slice(i + 1).filter(significant);
    const next = sig[0];
    // `t.c`: the qualifier and the column together
    if ((tok.kind === 'word' || tok.kind === 'name') && qualifiers.has(unquote(tok.text)) && next?.kind === 'op' && next.text === '.' && sig[1] && assigned.has(unquote(sig[1].text))) {
      out += `(${assigned.get(unquote(sig[1].text))})`;
      i = t.indexOf(sig[1]);
      continue;
    }
    const prev = t.slice(0, i).filter(significant).at(-1);
    const column = (tok.kind === 'word' || tok.kind === 'name') && next?.kind !== 'open' && !(prev?.kind === 'op' && prev.text === '.') ? assigned.get(unquote(tok.text)) : undefined;
    out += column !== undefined ? `(${column})` : tok.text;
  }
  return out;
}
