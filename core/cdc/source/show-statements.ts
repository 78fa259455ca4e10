/**
 * The SHOW statements that describe the server rather than a table, with MySQL 8.0's columns:
 * SHOW [GLOBAL | SESSION] VARIABLES, SHOW BINARY LOGS and SHOW TABLE STATUS, each with its
 * LIKE 'pattern' or WHERE condition (which MySQL evaluates over the statement's own columns).
 * Debezium's set-up guide has users check log_bin, binlog_format, binlog_row_image and gtid_mode
 * with SHOW VARIABLES, so those read as a server ready for CDC.
 */
import type { SqlJsStatic } from 'sql.js';
import { mysqlErrors } from './mysql-error.js';
import { withScratchTables } from './scratch-tables.js';

export interface Shown {
  columns: string[];
  rows: unknown[][];
}

/**
 * Variables whose SHOW VARIABLES value is ON/OFF where SELECT @@name gives 1/0 (their type is
 * boolean in sys_vars.cc).
 */
const BOOLEAN_VARIABLES = new Set(['autocommit', 'log_bin', 'read_only', 'super_read_only', 'foreign_key_checks', 'unique_checks', 'sql_log_bin', 'log_replica_updates', 'log_slave_updates', 'enforce_gtid_consistency', 'binlog_rows_query_log_events', 'binlog_order_commits', 'sql_safe_updates', 'explicit_defaults_for_timestamp', 'require_secure_transport']);

/** SHOW VARIABLES' text of a value: booleans as ON/OFF, the rest as SELECT @@name prints them. */
export function shownValue(name: string, value: string | number): string {
  if (BOOLEAN_VARIABLES.has(name)) return value === 1 || value === '1' || value === 'ON' ? 'ON' : 'OFF';
  return String(value);
}

/** SHOW [GLOBAL | SESSION] VARIABLES [LIKE 'pattern' | WHERE expr]: Variable_name, Value, sorted by name. */
export function showVariables(SQL: SqlJsStatic, variables: Record<string, string | number>, sql: string): Shown {
  const rows = Object.keys(variables)
    .sort()
    .map((name) => [name, shownValue(name, variables[name]!)]);
  return filtered(SQL, ['Variable_name', 'Value'], rows, sql, 0, true);
}

/** SHOW BINARY LOGS: Log_name, File_size and (since 8.0.14) Encrypted. */
export function showBinaryLogs(files: { name: string; size: number }[]): Shown {
  return { columns: ['Log_name', 'File_size', 'Encrypted'], rows: files.map((f) => [f.name, f.size, 'No']) };
}

export type TableStatus =
  | {
      name: string;
      rows: number;
      dataLength: number;
      autoIncrement: number | null;
      comment?: string;
      collation?: string;
      rowFormat?: string;
      createOptions?: string;
    }
  | { name: string; view: true };

/**
 * SHOW TABLE STATUS [FROM db] [LIKE 'pattern' | WHERE expr], MySQL 8.0's eighteen columns. A
 * view's row is NULL but for its name and the Comment VIEW (MySQL 8.0 manual, SHOW TABLE STATUS).
 */
export function showTableStatus(SQL: SqlJsStatic, tables: TableStatus[], sql: string): Shown {
  const columns = ['Name', 'Engine', 'Version', 'Row_format', 'Rows', 'Avg_row_length', 'Data_length', 'Max_data_length', 'Index_length', 'Data_free', 'Auto_increment', 'Create_time', 'Update_time', 'Check_time', 'Collation', 'Checksum', 'Create_options', 'Comment'];
  const rows = [...tables]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => ('view' in t ? [t.name, ...columns.slice(1, -1).map(() => null), 'VIEW'] : [t.name, 'InnoDB', 10, t.rowFormat ?? 'Dynamic', t.rows, t.rows ? Math.floor(t.dataLength / t.rows) : 0, t.dataLength, 0, 0, 0, t.autoIncrement, null, null, null, t.collation ?? 'utf8mb4_0900_ai_ci', null, t.createOptions ?? '', t.comment ?? '']));
  // table names compare case-sensitively (lower_case_table_names=0), as in SHOW TABLES LIKE
  return filtered(SQL, columns, rows, sql, 0, false);
}

/**
 * The rows a SHOW statement's LIKE (on the column at `likeColumn`, with MySQL's % and _) or
 * WHERE clause keeps. WHERE is evaluated by SQLite over a table of the statement's columns.
 */
function filtered(SQL: SqlJsStatic, columns: string[], rows: unknown[][], sql: string, likeColumn: number, ignoreCase: boolean): Shown {
  const where = /\bwhere\b([\s\S]*?);?\s*$/i.exec(sql);
  if (where) return { columns, rows: evaluateWhere(SQL, columns, rows, where[1]!) };
  const like = showLike(sql, ignoreCase);
  return { columns, rows: rows.filter((r) => like.test(String(r[likeColumn]))) };
}

/**
 * SHOW … LIKE 'pattern': the pattern's text and a test for names, with MySQL's % (any run) and _
 * (one character) and backslash escapes; `ignoreCase` where the names compare so (variable
 * names; table and database names are case-sensitive with lower_case_table_names=0).
 */
export function showLike(sql: string, ignoreCase: boolean): { text: string; test: (name: string) => boolean } {
  const m = /\blike\s+'((?:[^'\\]|\\.|'')*)'/i.exec(sql);
  if (!m) return { text: '', test: () => true };
  const pattern = m[1]!.replace(/''/g, "'");
  const re = new RegExp(`^${pattern.replace(/\\(.)|([%_])|([.*+?^${}()|[\]\\])/g, (_x, esc: string, wild: string, special: string) => (esc ? esc.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : wild === '%' ? '.*' : wild === '_' ? '.' : `\\${special}`))}$`, ignoreCase ? 'is' : 's');
  return { text: pattern, test: (name) => re.test(name) };
}

function evaluateWhere(SQL: SqlJsStatic, columns: string[], rows: unknown[][], condition: string): unknown[][] {
  const numbered = { name: 'shown', columns: ['__i', ...columns], rows: rows.map((r, i) => [i, ...r]) };
  return withScratchTables(SQL, [numbered], (db) => {
    let res;
    try {
      res = db.exec(`SELECT __i FROM shown WHERE ${condition}`);
    } catch (err) {
      const msg = (err as Error).message;
      const col = /no such column: (\S+)/.exec(msg);
      if (col) throw mysqlErrors.unknownColumn(col[1]!, 'where clause');
      throw mysqlErrors.syntax(condition.trim().slice(0, 80));
    }
    return (res[0]?.values ?? []).map(([i]) => rows[Number(i)]!);
  });
}
