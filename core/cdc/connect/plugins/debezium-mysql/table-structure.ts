/**
 * The table definitions as Debezium's MySQL connector holds them in memory: a snapshot reads each
 * table's structure from SHOW CREATE TABLE, where MySQL prints its own spelling of every type
 * (tinyint(1) for BOOL, decimal(10,0) for a bare DECIMAL, …), and a DDL statement read from the
 * binlog later is parsed as the user wrote it and applied to those tables: the columns it
 * defines take the new definitions, the others keep theirs. The type name decides the Connect
 * schema (BOOL is a boolean, tinyint(1) an int16), so where a definition came from shows.
 */
import { applyDdl } from '../../../source/catalog-history.js';
import { readHeldTable, showCreateTable } from '../../../source/mysql-ddl.js';
import type { BinlogTransaction, Catalog, ColumnDef, TableDef } from '../../../source/types.js';

/** MySqlSnapshotChangeEventSource.readTableStructure: each table as its SHOW CREATE TABLE parses. */
export function structureAsShown(catalog: Catalog): Catalog {
  const out: Catalog = new Map();
  for (const [db, tables] of catalog) out.set(db, new Map([...tables].map(([name, def]) => [name, { ...readHeldTable(showCreateTable(def)).def, name }])));
  return out;
}

/**
 * Applies a binlog DDL statement to the tables. `before` is the table as the source had it right
 * before the statement, as written: a column the statement left as it was keeps the definition
 * the tables already hold for it.
 */
export function applyStreamedDdl(tables: Catalog, database: string, ddl: NonNullable<BinlogTransaction['ddl']>, before: TableDef | undefined): void {
  const held = ddl.table ? tables.get(database)?.get(ddl.table) : undefined;
  if (!ddl.def || !held || !before || !['alter-table', 'rename-table', 'index'].includes(ddl.kind)) {
    applyDdl(tables, database, ddl);
    return;
  }
  const columns = ddl.def.columns.map((c) => {
    const was = before.columns.find((b) => b.name === c.name);
    const kept = held.columns.find((h) => h.name === c.name);
    return was && kept && sameColumn(was, c) ? kept : c;
  });
  applyDdl(tables, database, { ...ddl, def: { ...ddl.def, columns } });
}

function sameColumn(a: ColumnDef, b: ColumnDef): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
