/**
 * FOREIGN KEY constraints as InnoDB keeps them in MySQL 8.0: checked when a child row is written
 * (1452) and when a parent row is deleted or its key changed (1451), with the CASCADE and SET NULL
 * actions run on the child rows.
 *
 * On SQLite the constraints are triggers made from the table definitions, named `__loupe_fk…` and
 * made again after every schema change of the database. `__loupe_fk` holds the session's
 * foreign_key_checks (`checks`; with it off nothing is checked and no action runs, as in MySQL)
 * and how deep a cascading action is (`depth`).
 *
 * What a cascading action changes is not written to MySQL 8.0's binlog: InnoDB changes the child
 * rows below the SQL layer, so only the parent's row event is logged and a binlog reader (Debezium)
 * never sees the child rows change. (MariaDB's "Replication and Foreign Keys" page; Oracle
 * GoldenGate's "Cascade Constraints Considerations" for MySQL and MariaDB; MySQL 9.6 is the first
 * release to log them.) The capture trigger of a child table marks the rows it records while
 * `depth` > 0; the change log keeps them apart from the row events (`cascaded`), only to replay
 * them after a restart.
 */
import type { Database } from 'sql.js';
import { storeKind } from './column-values.js';
import { foreignKeyClause, q, type ColumnDef, type ForeignKeyDef, type TableDef } from './mysql-ddl.js';
import { MySqlError } from './mysql-error.js';

/** The session state the triggers read; one row. */
export const FOREIGN_KEY_STATE_DDL = 'CREATE TABLE IF NOT EXISTS __loupe_fk (checks INTEGER NOT NULL, depth INTEGER NOT NULL)';

const CHECKS_ON = '(SELECT checks FROM __loupe_fk) = 1';
/** The capture trigger's value for `__loupe_changes.cas`: whether a cascading action made the change. */
export const IN_CASCADE = '(SELECT depth FROM __loupe_fk) > 0';

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Whether the table's rows can be changed by a cascading action (it has a CASCADE or SET NULL constraint). */
export function isCascadeTarget(def: TableDef): boolean {
  return (def.foreignKeys ?? []).some((fk) => fk.onDelete === 'CASCADE' || fk.onDelete === 'SET NULL' || fk.onUpdate === 'CASCADE' || fk.onUpdate === 'SET NULL');
}

/** The constraints of the database that reference `table`, with their child tables. */
export function referencing(tables: Map<string, TableDef>, table: string): { child: TableDef; fk: ForeignKeyDef }[] {
  const out: { child: TableDef; fk: ForeignKeyDef }[] = [];
  for (const child of tables.values()) for (const fk of child.foreignKeys ?? []) if (fk.refTable === table) out.push({ child, fk });
  return out;
}

/** ER_NO_REFERENCED_ROW_2 / ER_ROW_IS_REFERENCED_2 (errmsg-utf8.txt): the child table and the constraint as SHOW CREATE TABLE prints it. */
const constraintText = (database: string, child: string, fk: ForeignKeyDef) => `(\`${database}\`.\`${child}\`, ${foreignKeyClause(fk)})`;
export const childRowError = (database: string, child: string, fk: ForeignKeyDef) => `Cannot add or update a child row: a foreign key constraint fails ${constraintText(database, child, fk)}`;
export const parentRowError = (database: string, child: string, fk: ForeignKeyDef) => `Cannot delete or update a parent row: a foreign key constraint fails ${constraintText(database, child, fk)}`;

/**
 * A new constraint checked against its parent as MySQL 8.0 does when foreign_key_checks is on
 * (errmsg-utf8.txt texts): the table exists (1824), has the columns (3734) and a key that starts
 * with them (1822), and each pair of columns is of the same kind (3780: integers of the same size
 * and sign, decimals of the same precision and scale, strings of any length).
 */
export function checkParent(child: TableDef, fk: ForeignKeyDef, parent: TableDef | undefined): void {
  if (!parent) throw new MySqlError(1824, 'HY000', `Failed to open the referenced table '${fk.refTable}'`);
  const refColumns = fk.refColumns.map((r) => {
    const col = parent.columns.find((c) => c.name.toLowerCase() === r.toLowerCase());
    if (!col) throw new MySqlError(3734, 'HY000', `Failed to add the foreign key constraint. Missing column '${r}' for constraint '${fk.name}' in the referenced table '${fk.refTable}'`);
    return col;
  });
  const startsWith = (cols: string[]) => refColumns.every((c, i) => cols[i]?.toLowerCase() === c.name.toLowerCase());
  if (!startsWith(parent.primaryKey) && !parent.indexes.some((ix) => startsWith(ix.columns))) {
    throw new MySqlError(1822, 'HY000', `Failed to add the foreign key constraint. Missing index for constraint '${fk.name}' in the referenced table '${fk.refTable}'`);
  }
  fk.columns.forEach((name, i) => {
    const col = child.columns.find((c) => c.name === name)!;
    if (typeClass(col) !== typeClass(refColumns[i]!)) {
      throw new MySqlError(3780, 'HY000', `Referencing column '${name}' and referenced column '${refColumns[i]!.name}' in foreign key constraint '${fk.name}' are incompatible.`);
    }
  });
  fk.refColumns = refColumns.map((c) => c.name);
}

function typeClass(c: ColumnDef): string {
  const k = storeKind(c);
  switch (k.kind) {
    case 'int':
      return `int ${k.min} ${k.max}`;
    case 'decimal':
      return `decimal ${k.precision} ${k.scale} ${k.unsigned}`;
    case 'text':
      return k.bytes ? 'blob-text' : 'text';
    default:
      return k.kind === 'none' ? c.baseType : k.kind;
  }
}

/** A child row the parent lacks, which fails ALTER TABLE … ADD FOREIGN KEY (1452), or undefined. */
export function hasOrphan(db: Database, child: TableDef, fk: ForeignKeyDef, parentExists: boolean): boolean {
  const notNull = fk.columns.map((c) => `c.${q(c)} IS NOT NULL`).join(' AND ');
  const match = fk.columns.map((c, i) => `p.${q(fk.refColumns[i]!)} = c.${q(c)}`).join(' AND ');
  const missing = parentExists ? `NOT EXISTS (SELECT 1 FROM ${q(fk.refTable)} p WHERE ${match})` : '1';
  return (db.exec(`SELECT 1 FROM ${q(child.name)} c WHERE ${notNull} AND ${missing} LIMIT 1`)[0]?.values.length ?? 0) > 0;
}

/** The SQLite triggers that enforce every constraint of the database. */
export function foreignKeyTriggers(database: string, tables: Map<string, TableDef>): string[] {
  const out: string[] = [];
  for (const child of tables.values()) {
    for (const fk of child.foreignKeys ?? []) {
      const parent = tables.get(fk.refTable);
      const id = `${child.name}_${fk.name}`;
      const c = q(child.name);
      const raise = (errno: number, text: string) => `SELECT RAISE(ABORT, ${sqlText(`ERROR${errno}:${text}`)})`;
      const notNull = fk.columns.map((col) => `NEW.${q(col)} IS NOT NULL`).join(' AND ');
      const changed = (cols: string[]) => cols.map((col) => `OLD.${q(col)} IS NOT NEW.${q(col)}`).join(' OR ');
      const noParent = parent ? `NOT EXISTS (SELECT 1 FROM ${q(parent.name)} WHERE ${fk.refColumns.map((r, i) => `${q(r)} = NEW.${q(fk.columns[i]!)}`).join(' AND ')})` : '1';
      const childError = raise(1452, childRowError(database, child.name, fk));
      // the child side: a row written with a key the parent lacks (a NULL in the key is not checked)
      out.push(`CREATE TRIGGER ${q(`__loupe_fki_${id}`)} BEFORE INSERT ON ${c} WHEN ${CHECKS_ON} AND ${notNull} AND ${noParent} BEGIN ${childError}; END`);
      out.push(`CREATE TRIGGER ${q(`__loupe_fku_${id}`)} BEFORE UPDATE OF ${fk.columns.map(q).join(', ')} ON ${c} WHEN ${CHECKS_ON} AND (${changed(fk.columns)}) AND ${notNull} AND ${noParent} BEGIN ${childError}; END`);
      if (!parent) continue;
      const p = q(parent.name);
      const children = (alias: 'OLD') => fk.columns.map((col, i) => `${q(col)} = ${alias}.${q(fk.refColumns[i]!)}`).join(' AND ');
      const referenced = `EXISTS (SELECT 1 FROM ${c} WHERE ${children('OLD')})`;
      const parentError = raise(1451, parentRowError(database, child.name, fk));
      const cascade = (body: string) => `UPDATE __loupe_fk SET depth = depth + 1; ${body}; UPDATE __loupe_fk SET depth = depth - 1;`;
      // the parent side: a row deleted…
      if (fk.onDelete === 'CASCADE') out.push(`CREATE TRIGGER ${q(`__loupe_fkd_${id}`)} AFTER DELETE ON ${p} WHEN ${CHECKS_ON} BEGIN ${cascade(`DELETE FROM ${c} WHERE ${children('OLD')}`)} END`);
      else if (fk.onDelete === 'SET NULL') out.push(`CREATE TRIGGER ${q(`__loupe_fkd_${id}`)} AFTER DELETE ON ${p} WHEN ${CHECKS_ON} BEGIN ${cascade(`UPDATE ${c} SET ${fk.columns.map((col) => `${q(col)} = NULL`).join(', ')} WHERE ${children('OLD')}`)} END`);
      else out.push(`CREATE TRIGGER ${q(`__loupe_fkd_${id}`)} BEFORE DELETE ON ${p} WHEN ${CHECKS_ON} AND ${referenced} BEGIN ${parentError}; END`);
      // …or its key changed
      const keyChanged = `(${changed(fk.refColumns)})`;
      const of = fk.refColumns.map(q).join(', ');
      if (fk.onUpdate === 'CASCADE') out.push(`CREATE TRIGGER ${q(`__loupe_fkp_${id}`)} AFTER UPDATE OF ${of} ON ${p} WHEN ${CHECKS_ON} AND ${keyChanged} BEGIN ${cascade(`UPDATE ${c} SET ${fk.columns.map((col, i) => `${q(col)} = NEW.${q(fk.refColumns[i]!)}`).join(', ')} WHERE ${children('OLD')}`)} END`);
      else if (fk.onUpdate === 'SET NULL') out.push(`CREATE TRIGGER ${q(`__loupe_fkp_${id}`)} AFTER UPDATE OF ${of} ON ${p} WHEN ${CHECKS_ON} AND ${keyChanged} BEGIN ${cascade(`UPDATE ${c} SET ${fk.columns.map((col) => `${q(col)} = NULL`).join(', ')} WHERE ${children('OLD')}`)} END`);
      else out.push(`CREATE TRIGGER ${q(`__loupe_fkp_${id}`)} BEFORE UPDATE OF ${of} ON ${p} WHEN ${CHECKS_ON} AND ${keyChanged} AND ${referenced} BEGIN ${parentError}; END`);
    }
  }
  return out;
}

/** Drops the database's constraint triggers and makes them again from the definitions. */
export function refreshForeignKeyTriggers(db: Database, database: string, tables: Map<string, TableDef>): void {
  const old = db.exec(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB '__loupe_fk*'`)[0]?.values ?? [];
  for (const [name] of old) db.run(`DROP TRIGGER IF EXISTS ${q(String(name))}`);
  for (const sql of foreignKeyTriggers(database, tables)) db.run(sql);
}
