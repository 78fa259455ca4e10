/**
 * MySQL's single-table `UPDATE … [ORDER BY …] LIMIT n` and `DELETE FROM … [ORDER BY …] LIMIT n`,
 * which sql.js's SQLite (built without SQLITE_ENABLE_UPDATE_DELETE_LIMIT) refuses: the rows are
 * chosen by rowid in a subquery with the statement's own WHERE, ORDER BY and LIMIT.
 */
import { maskQuoted, topLevel } from './sql-text.js';

const NAME = '`[^`]+`|"[^"]+"|[A-Za-z_][\\w$]*';
// the table may have an alias (multi-table-dml.ts writes MySQL's aliased forms as SQLite's `t AS a`)
const HEAD = new RegExp(`^\\s*(update(?:\\s+or\\s+ignore)?\\s+(${NAME})(?:\\s+as\\s+(${NAME}))?\\s+set\\s|delete\\s+from\\s+(${NAME})(?:\\s+as\\s+(${NAME}))?(?=\\s|$))`, 'i');

/** The statement with its ORDER BY / LIMIT moved into a rowid subquery, or undefined when it has neither. */
export function rewriteDmlLimit(sql: string): string | undefined {
  const head = HEAD.exec(sql);
  if (!head) return undefined;
  const table = head[2] ?? head[4]!;
  const alias = head[3] ?? head[5];
  // the clauses at the top level: outside quotes and parentheses, after the head
  const top = topLevel(maskQuoted(sql));
  const at = (re: RegExp) => {
    re.lastIndex = head[0].length;
    return re.exec(top)?.index;
  };
  const where = at(/(?<![\w$])where\b/gi);
  const tail = at(/(?<![\w$])order\s+by\b/gi) ?? at(/(?<![\w$])limit\b/gi);
  if (tail === undefined) return undefined;
  const end = sql.replace(/[\s;]*$/, '').length;
  const whereText = where !== undefined && where < tail ? sql.slice(where, tail).trim() : '';
  const body = sql.slice(0, where !== undefined && where < tail ? where : tail).trimEnd();
  return `${body} WHERE rowid IN (SELECT rowid FROM ${table}${alias ? ` AS ${alias}` : ''}${whereText ? ` ${whereText}` : ''} ${sql.slice(tail, end).trim()})`;
}
