/**
 * A read of the embedded source as it stood at one binlog position, however long the read takes
 * and whatever is committed meanwhile — what Debezium's snapshot gets from MySQL with
 * START TRANSACTION WITH CONSISTENT SNAPSHOT, so a row committed after the snapshot's position
 * reaches the topic once, as a change event, and never also as a snapshot row.
 *
 * The store keeps one version of each row, so the older versions come from the change log:
 * every transaction after the position is read, and for each row it touched, the first image
 * after the position (the before-image of its first update or delete; none for an insert) is the
 * row as it was at the position. Rows are addressed by their rowid at the position; a row whose
 * rowid is its integer primary key moves when that key is updated.
 *
 * Schema changes after the position are not undone: rows of a table altered or truncated while the
 * read runs come out as the store has them (MySQL would have held the change back, or failed the
 * read with "Table definition has changed").
 */
import { upperBound } from '../../common/sorted.js';
import { rowChangesMade } from './binlog.js';
import { aliasesRowid } from './mysql-ddl.js';
import type { BinlogPosition, BinlogTransaction, Catalog, Row, TableDef } from './types.js';

/** What the read needs of the source. */
export interface ReadableSource {
  scan(database: string, table: string, afterRowid: number, limit: number): { rowid: number; row: Row }[];
  tableDef(database: string, table: string): TableDef | undefined;
  readTransactions(from: BinlogPosition, maxTransactions: number): BinlogTransaction[];
}

/** Where the row now at a rowid came from: its rowid at the position, or none (inserted since). */
const INSERTED = -1;
/** No row is at this rowid any more (deleted, or moved to another rowid). */
const LEFT = -2;

interface TableChanges {
  /** For each rowid touched since the position: where its current row came from. */
  origin: Map<number, number>;
  /** The rows as they were at the position, by their rowid then, for the rows touched since. */
  before: Map<number, Row>;
  /** `before`'s keys in order, made again when `before` grows. */
  sorted: number[] | null;
}

const READ_BATCH = 1000;

export class ConsistentRead {
  private readThrough: BinlogPosition;
  private readonly tables = new Map<string, TableChanges>();

  /**
   * `defs`: the table definitions at `at`, which say whose rowid is its primary key; `wanted`:
   * the tables that will be read (the changes of others are not kept).
   */
  constructor(
    private readonly source: ReadableSource,
    readonly at: BinlogPosition,
    private readonly defs: Catalog,
    private readonly wanted: (database: string, table: string) => boolean = () => true,
  ) {
    this.readThrough = at;
  }

  /**
   * Rows of a table as at the position with rowid above `afterRowid`, in rowid order, at most
   * `limit`; none once the table is read to its end.
   */
  scan(database: string, table: string, afterRowid: number, limit: number): { rowid: number; row: Row }[] {
    this.catchUp();
    const changes = this.tables.get(key(database, table));
    let after = afterRowid;
    for (;;) {
      const now = this.source.tableDef(database, table) ? this.source.scan(database, table, after, limit) : [];
      const full = now.length === limit;
      const bound = full ? now[now.length - 1]!.rowid : Infinity;
      const out = changes ? now.filter((r) => !changes.origin.has(r.rowid)) : now;
      if (changes) {
        const sorted = (changes.sorted ??= [...changes.before.keys()].sort((a, b) => a - b));
        let merged = false;
        for (let i = upperBound(sorted, after); i < sorted.length && sorted[i]! <= bound; i++) {
          out.push({ rowid: sorted[i]!, row: changes.before.get(sorted[i]!)! });
          merged = true;
        }
        if (merged) out.sort((a, b) => a.rowid - b.rowid);
      }
      if (out.length > 0 || !full) return out.slice(0, limit);
      after = bound; // a whole chunk of rows that came after the position: read on
    }
  }

  /** Folds every transaction committed since the last read into the per-table changes. */
  private catchUp(): void {
    for (;;) {
      const txs = this.source.readTransactions(this.readThrough, READ_BATCH);
      for (const tx of txs) {
        // the rows cascading foreign key actions changed too: the snapshot saw them before
        for (const ev of rowChangesMade(tx)) if (this.wanted(tx.database, ev.table)) this.note(tx.database, ev.table, ev.op, Number(ev.rowid), ev.before, ev.after);
        this.readThrough = { file: tx.file, pos: tx.nextPos };
      }
      if (txs.length < READ_BATCH) return;
    }
  }

  private note(database: string, table: string, op: 'c' | 'u' | 'd', rowid: number, before: Row | null, after: Row | null): void {
    const k = key(database, table);
    let t = this.tables.get(k);
    if (!t) this.tables.set(k, (t = { origin: new Map(), before: new Map(), sorted: null }));
    if (op === 'c') {
      t.origin.set(rowid, INSERTED);
      return;
    }
    const from = t.origin.get(rowid) ?? rowid;
    if (from >= 0 && !t.before.has(from) && before) {
      t.before.set(from, before);
      t.sorted = null;
    }
    if (op === 'd') {
      t.origin.set(rowid, LEFT);
      return;
    }
    const to = this.movedTo(database, table, rowid, after);
    if (to !== rowid) t.origin.set(rowid, LEFT);
    t.origin.set(to, from);
  }

  /** The rowid an updated row has now: its new primary key when that is the rowid. */
  private movedTo(database: string, table: string, rowid: number, after: Row | null): number {
    const def = this.defs.get(database)?.get(table);
    if (!def || !after || !aliasesRowid(def)) return rowid;
    const id = Number(after[def.primaryKey[0]!]);
    return Number.isInteger(id) ? id : rowid;
  }
}

function key(database: string, table: string): string {
  return `${database}\0${table}`;
}
