/**
 * Statements that name tables of several databases (`SELECT … FROM demo.customers c JOIN
 * shop.items i …`, `INSERT INTO shop.items SELECT … FROM demo.customers`). Each MySQL database is
 * its own SQLite database here, and sql.js cannot ATTACH another in-memory database object, so the
 * statement runs in one of them (the one it writes; for a read the session's, or else the first
 * one named) and the tables of the others are copied, rows and column collations, into TEMP tables
 * of that database for the statement, and dropped after it. A TEMP table has no capture triggers
 * and is never exported: the change log and the snapshots see only the database written.
 *
 * The cost is a copy of each table read from another database per statement (about a microsecond a
 * row, measured in cross-database.test.ts); a statement within one database pays nothing.
 */
import type { Database, SqlValue } from 'sql.js';
import { ignoresCase, q, sqliteType, type TableDef } from './mysql-ddl.js';
import { mysqlErrors } from './mysql-error.js';
import { writtenRef } from './multi-table-dml.js';
import { namedTables } from './table-refs.js';

export interface TableCopy {
  database: string;
  table: string;
  def: TableDef;
  /** The TEMP table's name in the database the statement runs in. */
  temp: string;
}

/**
 * Where a statement naming tables of several databases runs, and its text with each table of
 * another database replaced by its copy (keeping the name the statement uses for it as an alias).
 * Undefined when all the tables it names are of one database.
 */
export function planCopies(
  sql: string,
  session: string | null,
  tableOf: (database: string, table: string) => TableDef | undefined,
  exists: (database: string) => boolean,
): { text: string; database: string; copies: TableCopy[] } | undefined {
  const refs = namedTables(sql);
  const dbOf = (r: { database?: string }) => r.database ?? session;
  const named = [...new Set(refs.map(dbOf))].filter((d): d is string => d !== null && exists(d));
  if (named.length <= 1) return undefined;
  const written = writtenRef(sql);
  const database = written ? dbOf(written) : session !== null && named.includes(session) ? session : named[0]!;
  if (database === null || !exists(database)) return undefined;
  const copies = new Map<string, TableCopy>();
  let text = sql;
  for (const r of [...refs].reverse()) {
    const db = dbOf(r);
    if (db === null || db === database || !exists(db)) continue;
    const def = tableOf(db, r.table);
    if (!def) throw mysqlErrors.noSuchTable(db, r.table);
    const temp = `__loupe_x_${db}_${r.table}`;
    copies.set(temp, { database: db, table: r.table, def, temp });
    text = `${text.slice(0, r.from)}${q(temp)}${r.aliased ? '' : ` AS ${q(r.table)}`}${text.slice(r.to)}`;
  }
  return { text, database, copies: [...copies.values()] };
}

/** Fills the TEMP copies in `db` from their databases. */
export function copyTables(db: Database, copies: TableCopy[], source: (copy: TableCopy) => Database): void {
  db.run('SAVEPOINT loupe_copy');
  try {
    for (const c of copies) {
      const cols = c.def.columns;
      db.run(`CREATE TEMP TABLE ${q(c.temp)} (${cols.map((col) => `${q(col.name)} ${sqliteType(col)}${ignoresCase(col) ? ' COLLATE NOCASE' : ''}`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO temp.${q(c.temp)} VALUES (${cols.map(() => '?').join(', ')})`);
      const read = source(c).prepare(`SELECT ${cols.map((col) => q(col.name)).join(', ')} FROM ${q(c.table)}`);
      try {
        while (read.step()) insert.run(read.get() as SqlValue[]);
      } finally {
        read.free();
        insert.free();
      }
    }
    db.run('RELEASE loupe_copy');
  } catch (err) {
    db.run('ROLLBACK TO loupe_copy');
    db.run('RELEASE loupe_copy');
    throw err;
  }
}

export function dropCopies(db: Database, copies: TableCopy[]): void {
  for (const c of copies) db.run(`DROP TABLE IF EXISTS temp.${q(c.temp)}`);
}
