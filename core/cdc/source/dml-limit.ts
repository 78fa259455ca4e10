/**
 * MySQL's single-table `UPDATE … [ORDER BY …] [LIMIT n]` and `DELETE FROM … [ORDER BY …] [LIMIT n]`,
 * which sql.js's SQLite (built without SQLITE_ENABLE_UPDATE_DELETE_LIMIT) refuses.
 *
 * With ORDER BY, MySQL changes the rows one at a time in that order (the manual's
 * `UPDATE t SET id = id + 1 ORDER BY id DESC`, which would otherwise break the unique key), and
 * writes their row events in that order: the statement becomes the query of the rows' rowids and
 * a statement run once per rowid. With LIMIT alone the rows are chosen by rowid in a subquery.
 */
import { maskQuoted, topLevel } from './sql-text.js';

const NAME = '`[^`]+`|"[^"]+"|[A-Za-z_][\\w$]*';
// the table may have an alias (multi-table-dml.ts writes MySQL's aliased forms as SQLite's `t AS a`)
const HEAD = new RegExp(`^\\s*(update(?:\\s+or\\s+ignore)?\\s+(${NAME})(?:\\s+as\\s+(${NAME}))?\\s+set\\s|delete\\s+from\\s+(${NAME})(?:\\s+as\\s+(${NAME}))?(?=\\s|$))`, 'i');

/** The parts of a single-table UPDATE/DELETE with a top-level ORDER BY or LIMIT. */
interface LimitedDml {
  /** The statement up to its WHERE (or its ORDER BY / LIMIT when it has no WHERE). */
  body: string;
  /** `FROM t [AS a] [WHERE …]`: the rows the statement is about. */
  from: string;
  /** `[ORDER BY …] [LIMIT …]` as typed. */
  tail: string;
  ordered: boolean;
}

function splitLimited(sql: string): LimitedDml | undefined {
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
  const orderBy = at(/(?<![\w$])order\s+by\b/gi);
  const tail = orderBy ?? at(/(?<![\w$])limit\b/gi);
  if (tail === undefined) return undefined;
  const end = sql.replace(/[\s;]*$/, '').length;
  const whereText = where !== undefined && where < tail ? sql.slice(where, tail).trim() : '';
  return {
    body: sql.slice(0, where !== undefined && where < tail ? where : tail).trimEnd(),
    from: `FROM ${table}${alias ? ` AS ${alias}` : ''}${whereText ? ` ${whereText}` : ''}`,
    tail: sql.slice(tail, end).trim(),
    ordered: orderBy !== undefined,
  };
}

/** The statement with its LIMIT moved into a rowid subquery, or undefined when it has no LIMIT, or an ORDER BY (see `orderedDml`). */
export function rewriteDmlLimit(sql: string): string | undefined {
  const dml = splitLimited(sql);
  if (!dml || dml.ordered) return undefined;
  return `${dml.body} WHERE rowid IN (SELECT rowid ${dml.from} ${dml.tail})`;
}

/** An UPDATE/DELETE with ORDER BY as MySQL runs it: the rowids in order, then `each` (with the parameter `:loupe_rowid`) once per row. */
export interface OrderedDml {
  rowids: string;
  each: string;
}

export function orderedDml(sql: string): OrderedDml | undefined {
  const dml = splitLimited(sql);
  if (!dml?.ordered) return undefined;
  return { rowids: `SELECT rowid ${dml.from} ${dml.tail}`, each: `${dml.body} WHERE rowid = :loupe_rowid` };
}
