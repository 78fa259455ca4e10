/**
 * SQL_CALC_FOUND_ROWS and FOUND_ROWS() (deprecated in MySQL 8.0.17, still answered): a SELECT with
 * the modifier counts the rows it would have given without its LIMIT; FOUND_ROWS() after it gives
 * that count, and after any other SELECT the rows that SELECT gave. Both raise MySQL's 1287.
 */
import { warn } from './diagnostics.js';
import { maskQuoted, topLevel } from './sql-text.js';

const MODIFIERS = /^(\s*select\s+(?:(?:all|distinct|distinctrow|high_priority|straight_join|sql_small_result|sql_big_result|sql_buffer_result|sql_no_cache)\s+)*)sql_calc_found_rows\s+/i;

/** A SELECT with SQL_CALC_FOUND_ROWS: the statement without it, and the query counting its rows without the LIMIT. */
export function calcFoundRows(sql: string): { select: string; count: string } | undefined {
  const m = MODIFIERS.exec(sql);
  if (!m) return undefined;
  warn(1287, "SQL_CALC_FOUND_ROWS is deprecated and will be removed in a future release. Consider using two separate queries instead.");
  const select = `${m[1]}${sql.slice(m[0].length)}`;
  const top = topLevel(maskQuoted(select));
  // the top-level LIMIT (and what follows it: FOR UPDATE, LOCK IN SHARE MODE) is what the count leaves out
  const limit = /\blimit\s+\d+(?:\s*,\s*\d+|\s+offset\s+\d+)?[\s\S]*$/i.exec(top);
  const lock = /\b(?:for\s+(?:update|share)|lock\s+in\s+share\s+mode)\b[\s\S]*$/i.exec(top);
  const end = Math.min(limit?.index ?? select.length, lock?.index ?? select.length);
  const body = select.slice(0, end).trim().replace(/;$/, '');
  return { select, count: `SELECT COUNT(*) FROM (${body}) AS __loupe_found_rows` };
}

/** The statement with FOUND_ROWS() as the session's count. */
export function withFoundRows(sql: string, found: number): string {
  return sql.replace(/\bfound_rows\s*\(\s*\)/gi, () => {
    warn(1287, 'FOUND_ROWS() is deprecated and will be removed in a future release. Consider using COUNT(*) instead.');
    return String(found);
  });
}
