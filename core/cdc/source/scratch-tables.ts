/**
 * Rows the source makes up (a SHOW statement's, INFORMATION_SCHEMA's) put into tables of a fresh
 * in-memory SQLite database, so that SQL — a WHERE, a join — can be run over them.
 */
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';

export interface ScratchTable {
  name: string;
  columns: string[];
  rows: unknown[][];
}

/** Runs `query` on a database holding `tables`, closed afterwards. */
export function withScratchTables<T>(SQL: SqlJsStatic, tables: ScratchTable[], query: (db: Database) => T): T {
  const db: Database = new SQL.Database();
  try {
    for (const t of tables) {
      db.run(`CREATE TABLE "${t.name}" (${t.columns.map((c) => `"${c}"`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO "${t.name}" VALUES (${t.columns.map(() => '?').join(', ')})`);
      for (const r of t.rows) insert.run(r.map((v) => (v === undefined ? null : (v as SqlValue))));
      insert.free();
    }
    return query(db);
  } finally {
    db.close();
  }
}
