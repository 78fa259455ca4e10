/**
 * InnoDB's AUTO_INCREMENT counter on SQLite. InnoDB hands out a simple INSERT's values before it
 * writes a row and never takes them back, so a failed or ignored row, and a rolled-back
 * transaction, leave gaps; SQLite's counter (sqlite_sequence) is part of the transaction and goes
 * back. What the counter reached is written back after such statements and after ROLLBACK. (After
 * a crash the change log rebuilds the counter from the rows it holds, as MySQL 5.7 did at start.)
 * One difference stays: within a multi-row INSERT IGNORE, InnoDB gives an ignored row's value to
 * the next row, where SQLite moves on; the counter after the statement is the same.
 */
import type { Database } from 'sql.js';
import { aliasesRowid, unquoteIdent, type TableDef } from './mysql-ddl.js';
import { maskQuoted, topLevel } from './sql-text.js';

/** The counter of each AUTO_INCREMENT table. */
export function counters(db: Database): Map<string, number> {
  return new Map((db.exec('SELECT name, seq FROM sqlite_sequence')[0]?.values ?? []).map(([n, s]) => [String(n), Number(s)]));
}

/** Sets a table's counter to at least `value`. */
export function raiseCounter(db: Database, table: string, value: number): void {
  db.run('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?', [value, table]);
  if (db.getRowsModified() === 0) db.run('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', [table, value]);
}

/**
 * SQLite statements that set a table's counter to `last` (the value last handed out; the next is
 * one more): what CREATE TABLE … AUTO_INCREMENT=N and ALTER TABLE … AUTO_INCREMENT = N log, so
 * that the change log replays the counter too.
 */
export function counterStatements(table: string, last: number): string[] {
  const name = `'${table.replace(/'/g, "''")}'`;
  return [`DELETE FROM sqlite_sequence WHERE name = ${name}`, ...(last > 0 ? [`INSERT INTO sqlite_sequence (name, seq) VALUES (${name}, ${last})`] : [])];
}

/** `INSERT|REPLACE [OR …] [INTO] <table>` at the start of a (translated) statement; group 1 is the table. */
export const INSERT_HEAD = /^\s*(?:insert|replace)\s+(?:or\s+\w+\s+)?(?:into\s+)?(`[^`]+`|"[^"]+"|[^\s(]+)/i;

/** INSERT_HEAD, then `(columns) VALUES`; group 2 is the column list. */
const INSERT_COLUMNS_VALUES = new RegExp(`${INSERT_HEAD.source}\\s*\\(([^)]*)\\)\\s*values\\s*`, 'i');

/** INSERT_HEAD, then a column list; group 2 is the list. */
const INSERT_COLUMNS = new RegExp(`${INSERT_HEAD.source}\\s*\\(([^)]*)\\)`, 'i');

/** The table and the column list (names unquoted) of an `INSERT|REPLACE … INTO t (columns) …`, or undefined without a list. */
export function insertColumns(text: string): { table: string; columns: string[] } | undefined {
  const m = INSERT_COLUMNS.exec(text);
  return m ? { table: unquoteIdent(m[1]!), columns: m[2]!.split(',').map((c) => unquoteIdent(c.trim())) } : undefined;
}

/**
 * The table whose AUTO_INCREMENT values an `INSERT|REPLACE … INTO t (columns) VALUES|SELECT …`
 * generates, because its column list leaves the AUTO_INCREMENT column out; undefined for anything
 * else (a statement that gives the values, or a table without the column).
 */
export function generatesIds(text: string, tables: Map<string, TableDef>): string | undefined {
  const insert = insertColumns(text);
  const def = insert && tables.get(insert.table);
  if (!def || !aliasesRowid(def)) return undefined;
  const auto = def.primaryKey[0]!.toLowerCase();
  return insert.columns.some((c) => c.toLowerCase() === auto) ? undefined : insert.table;
}

/**
 * For `INSERT|REPLACE … INTO t (columns) VALUES (…), (…)` into a table whose AUTO_INCREMENT column
 * is not among the columns: the table and how many values InnoDB hands out (one per row).
 * Undefined for anything else (INSERT … SELECT, a given id).
 */
export function autoIncrementRequest(text: string, tables: Map<string, TableDef>): { table: string; rows: number } | undefined {
  const m = INSERT_COLUMNS_VALUES.exec(text);
  const table = m ? generatesIds(text, tables) : undefined;
  if (!m || !table) return undefined;
  const rest = topLevel(maskQuoted(text.slice(m[0].length)));
  const end = rest.search(/\bon\s+conflict\b/i);
  const rows = (end < 0 ? rest : rest.slice(0, end)).split('(').length - 1;
  return rows > 0 ? { table, rows } : undefined;
}
