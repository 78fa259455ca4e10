/**
 * MySQL's single-table `UPDATE … [ORDER BY …] LIMIT n` and `DELETE FROM … [ORDER BY …] LIMIT n`,
 * which sql.js's SQLite (built without SQLITE_ENABLE_UPDATE_DELETE_LIMIT) refuses: the rows are
 * chosen by rowid in a subquery with the statement's own WHERE, ORDER BY and LIMIT.
 */

const HEAD = /^\s*(update(?:\s+or\s+ignore)?\s+(`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*)\s+set\s|delete\s+from\s+(`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*)(?=\s|$))/i;

/** The statement with its ORDER BY / LIMIT moved into a rowid subquery, or undefined when it has neither. */
export function rewriteDmlLimit(sql: string): string | undefined {
  const head = HEAD.exec(sql);
  if (!head) return undefined;
  const table = head[2] ?? head[3]!;
  const at = topLevel(sql, head[0].length);
  const tail = at.order ?? at.limit;
  if (tail === undefined) return undefined;
  const end = sql.replace(/[\s;]*$/, '').length;
  const where = at.where !== undefined && at.where < tail ? sql.slice(at.where, tail).trim() : '';
  const body = sql.slice(0, at.where !== undefined && at.where < tail ? at.where : tail).trimEnd();
  return `${body} WHERE rowid IN (SELECT rowid FROM ${table}${where ? ` ${where}` : ''} ${sql.slice(tail, end).trim()})`;
}

/** Where WHERE, ORDER BY and LIMIT start at the top level (outside quotes and parentheses), after `from`. */
function topLevel(sql: string, from: number): { where?: number; order?: number; limit?: number } {
  const out: { where?: number; order?: number; limit?: number } = {};
  let depth = 0;
  for (let i = from; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < sql.length && sql[i] !== c; i++) if (sql[i] === '\\' && c !== '`') i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && /[A-Za-z]/.test(c) && !/[\w$]/.test(sql[i - 1] ?? ' ')) {
      const word = /^[A-Za-z_]+/.exec(sql.slice(i))![0].toLowerCase();
      if (word === 'where' && out.where === undefined) out.where = i;
      else if (word === 'order' && out.order === undefined && /^order\s+by\b/i.test(sql.slice(i))) out.order = i;
      else if (word === 'limit' && out.limit === undefined) out.limit = i;
      i += word.length - 1;
    }
  }
  return out;
}
