/**
 * MySQL's string literals written as SQLite's (MySQL 8.0 Reference Manual, "String Literals"). In
 * MySQL, with the default sql_mode (no NO_BACKSLASH_ESCAPES, no ANSI_QUOTES), a backslash escapes
 * the next character (`'it\'s'`, `'a\\b'`, `'\n'`; `\%` and `\_` keep their backslash for LIKE)
 * and double quotes make a string, not a name. SQLite reads a backslash as itself and "x" as a
 * column (or the string only when there is none), so `'it\'s'` was a syntax error, `'a\\b'` kept
 * two backslashes, and `WHERE name = "name"` compared the column with itself.
 *
 * LIKE's escape character is `\` in MySQL unless ESCAPE says otherwise; SQLite's LIKE has none,
 * so `LIKE 'a\_b'` is given `ESCAPE char(92)`.
 */
import { endsOperand, significantTokens, unaryEnd } from './operator-spans.js';
import { significant, tokenize } from './sql-tokens.js';

const ESCAPES: Record<string, string> = { '0': '\0', "'": "'", '"': '"', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a', '\\': '\\', '%': '\\%', _: '\\_' };

/** The value of a quoted MySQL string literal (its quotes included). */
export function stringValue(literal: string): string {
  const q = literal[0]!;
  const body = literal.slice(1, literal.endsWith(q) && literal.length > 1 ? -1 : undefined);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length) {
      const next = body[++i]!;
      out += ESCAPES[next] ?? next;
    } else if (c === q && body[i + 1] === q) {
      out += q;
      i++;
    } else out += c;
  }
  return out;
}

/**
 * A value as SQLite text: a literal, with a NUL character (which an SQL text cannot hold) and a
 * backslash joined in as char(0) and char(92) by CONCAT, so that no backslash is left for the later
 * rewrites, which read the statement with MySQL's rules, to take for an escape.
 */
export function sqliteLiteral(value: string): string {
  if (!/[\0\\]/.test(value)) return `'${value.replace(/'/g, "''")}'`;
  const parts: string[] = [];
  let chunk = '';
  for (const c of value) {
    if (c === '\0' || c === '\\') {
      if (chunk) parts.push(`'${chunk.replace(/'/g, "''")}'`);
      parts.push(c === '\0' ? 'char(0)' : 'char(92)');
      chunk = '';
    } else chunk += c;
  }
  if (chunk) parts.push(`'${chunk.replace(/'/g, "''")}'`);
  return joined(parts);
}

/** CONCAT of the parts (`||` is OR in MySQL, and the rewrites after this one read it so), nested to stay within CONCAT's arguments. */
function joined(parts: string[]): string {
  if (parts.length === 1) return parts[0]!;
  if (parts.length <= 32) return `concat(${parts.join(', ')})`;
  const groups: string[] = [];
  for (let i = 0; i < parts.length; i += 32) groups.push(joined(parts.slice(i, i + 32)));
  return joined(groups);
}

/** The statement with every string literal as SQLite reads it; a statement with no backslash and no double quote is returned as it is, unread. */
export function rewriteStringLiterals(sql: string): string {
  if (!sql.includes('\\') && !sql.includes('"')) return sql;
  let out = '';
  let at = 0;
  const tokens = tokenize(sql).filter(significant);
  tokens.forEach((t, i) => {
    if (t.kind !== 'string') return;
    // a plain single-quoted literal reads the same in both; LIKE BINARY's pattern is read by its own rewrite (mysql-operators.ts)
    if (t.text.startsWith("'") && !t.text.includes('\\')) return;
    if (/^binary$/i.test(tokens[i - 1]?.text ?? '') && /^like$/i.test(tokens[i - 2]?.text ?? '')) return;
    // a prefixed literal (X'0a', _utf8mb4'…', DATE '…') is read by the rewrites that know its prefix
    if (tokens[i - 1]?.kind === 'word' && tokens[i - 1]!.end === t.start) return;
    out += sql.slice(at, t.start) + sqliteLiteral(stringValue(t.text));
    at = t.end;
  });
  return at === 0 ? sql : out + sql.slice(at);
}

/** Every `LIKE pattern` without ESCAPE given MySQL's default escape character; LIKE BINARY (mysql-operators.ts) reads its pattern itself. */
export function rewriteLikeEscapes(sql: string): string {
  if (!/\blike\b/i.test(sql)) return sql;
  const t = significantTokens(sql);
  let out = '';
  let at = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.kind !== 'word' || t[i]!.text.toUpperCase() !== 'LIKE' || (!endsOperand(t[i - 1]) && t[i - 1]?.text.toUpperCase() !== 'NOT')) continue;
    if (t[i + 1]?.kind === 'word' && t[i + 1]!.text.toUpperCase() === 'BINARY') continue;
    const end = unaryEnd(t, i + 1);
    if (end < 0 || (t[end + 1]?.kind === 'word' && t[end + 1]!.text.toUpperCase() === 'ESCAPE')) continue;
    out += `${sql.slice(at, t[end]!.end)} ESCAPE char(92)`;
    at = t[end]!.end;
  }
  return at === 0 ? sql : out + sql.slice(at);
}
