/**
 * Table definitions as of a binlog position, rebuilt from the DDL the change log holds — what
 * Debezium recovers from its schema history topic, so that a change read from a backlog is shaped
 * by the table as it was when the change was made, not as it is now (a column added since, a
 * table dropped or renamed since).
 */
import type { BinlogPosition, BinlogTransaction, Catalog } from './types.js';

type Ddl = NonNullable<BinlogTransaction['ddl']>;

interface DdlEntry {
  file: string;
  pos: number;
  database: string;
  ddl: Ddl;
}

/** Applies one logged schema change to a catalogue, as the source applied it to its tables. */
export function applyDdl(catalog: Catalog, database: string, ddl: Ddl): void {
  switch (ddl.kind) {
    case 'create-database':
      if (!catalog.has(database)) catalog.set(database, new Map());
      return;
    case 'drop-database':
      catalog.delete(database);
      return;
    case 'truncate-table':
    case 'create-view':
    case 'drop-view':
      // a view is no table: its rows are never captured
      return;
    default: {
      let tables = catalog.get(database);
      if (!tables) catalog.set(database, (tables = new Map()));
      if (ddl.kind === 'drop-table' || ddl.kind === 'rename-table') tables.delete(ddl.table!);
      if (ddl.kind !== 'drop-table' && ddl.def) tables.set(ddl.def.name, ddl.def);
    }
  }
}

/** A catalogue whose table maps can be changed apart from the original's (the definitions are shared, never changed in place). */
export function copyCatalog(catalog: Catalog): Catalog {
  return new Map([...catalog].map(([db, tables]) => [db, new Map(tables)]));
}

export function comparePositions(a: BinlogPosition, b: BinlogPosition): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.pos - b.pos;
}

/** The change log's schema changes, in order, and the catalogue at any position. */
export class CatalogHistory {
  private readonly entries: DdlEntry[] = [];

  /** Takes note of a transaction read from or written to the change log, in log order. */
  add(tx: BinlogTransaction): void {
    if (tx.ddl) this.entries.push({ file: tx.file, pos: tx.pos, database: tx.database, ddl: tx.ddl });
  }

  /**
   * The tables as they were defined right before the transaction at `at`: every schema change
   * logged before it, applied in order. A table that exists now but that no logged change names
   * (a data directory whose log does not reach back to its creation) has only its current
   * definition to go by, so `current` fills it in.
   */
  at(at: BinlogPosition, current: Catalog): Catalog {
    const catalog: Catalog = new Map();
    const named = new Set<string>();
    for (const e of this.entries) {
      if (e.ddl.table) named.add(`${e.database}\0${e.ddl.table}`);
      if (e.ddl.def) named.add(`${e.database}\0${e.ddl.def.name}`);
      if (e.ddl.kind === 'create-database' || e.ddl.kind === 'drop-database') named.add(`${e.database}\0`);
    }
    for (const e of this.entries) {
      if (comparePositions(e, at) >= 0) break;
      applyDdl(catalog, e.database, e.ddl);
    }
    for (const [db, tables] of current) {
      for (const [name, def] of tables) {
        if (named.has(`${db}\0${name}`)) continue;
        if (!catalog.has(db) && named.has(`${db}\0`)) continue; // the database itself came later
        let into = catalog.get(db);
        if (!into) catalog.set(db, (into = new Map()));
        into.set(name, def);
      }
    }
    return catalog;
  }
}
