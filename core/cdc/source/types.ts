/**
 * What the CDC engine knows about a relational source: statements and their results, the
 * catalogue, and — for the embedded source — the change log (a MySQL-binlog-like ordered list of
 * committed transactions with positions and before/after row images).
 */
import type { ColumnDef, TableDef } from './mysql-ddl.js';
import type { ViewDef } from './views.js';

export type { ColumnDef, TableDef } from './mysql-ddl.js';

/**
 * A row by column name. A value is a string, a number, a bigint or null: an integer outside
 * ±(2^53 − 1) (a BIGINT beyond what a double holds exactly) is a bigint, every other integer a
 * number (common/exact-json.ts writes and reads such values exactly).
 */
export type Row = Record<string, RowValue>;

/** One value of a row or a result: an integer outside ±(2^53 − 1) is a bigint, every other integer a number. */
export type RowValue = string | number | bigint | null;

/** Database → table → definition. */
export type Catalog = Map<string, Map<string, TableDef>>;

export interface StatementResult {
  /** The statement as given. */
  sql: string;
  /** `rows` for SELECT/SHOW/DESCRIBE; `ok` for the rest (affected rows as MySQL counts them). */
  kind: 'rows' | 'ok';
  columns: string[];
  rows: unknown[][];
  affectedRows: number;
  /** LAST_INSERT_ID after an INSERT into an AUTO_INCREMENT table. */
  insertId?: number;
  /** Binlog position of the transaction this statement committed, if it changed rows. */
  position?: BinlogPosition;
  /** The database in use after the statement (USE changes it). */
  database: string | null;
  /** The OK packet's info, as the mysql client prints it under "Query OK": `Rows matched: 3  Changed: 2  Warnings: 0` for an UPDATE, `Records: 3  Duplicates: 1  Warnings: 0` for an INSERT of several rows or INSERT … SELECT. */
  info?: string;
  /** The notes and warnings it raised, as SHOW WARNINGS lists them (count: all of them, conditions: the first 1,024). */
  warnings?: { count: number; conditions: { level: 'Note' | 'Warning'; code: number; message: string }[] };
}

export interface BinlogPosition {
  file: string;
  pos: number;
}

export interface RowChange {
  table: string;
  op: 'c' | 'u' | 'd';
  before: Row | null;
  after: Row | null;
  /** SQLite rowid of the row; used to replay the log onto a snapshot. A bigint beyond ±(2^53 − 1) (an AUTO_INCREMENT BIGINT key near 2^63, which is the rowid). */
  rowid: number | bigint;
}

/** One committed transaction, as written to the change log. */
export interface BinlogTransaction {
  file: string;
  /** Byte position of the transaction in the file (Debezium's `pos`). */
  pos: number;
  /** Position right after it: where the next transaction starts. */
  nextPos: number;
  /** Global transaction number (1-based), the GTID's sequence part. */
  seq: number;
  /** `<server_uuid>:<seq>` */
  gtid: string;
  /** Commit time, epoch ms. */
  ts: number;
  /** The connection ("thread") that committed it. */
  thread: number;
  database: string;
  /** Statement text(s) of the transaction, for `source.query` when include.query is on. */
  query: string;
  events: RowChange[];
  /**
   * Rows changed by a cascading foreign key action (ON DELETE/UPDATE CASCADE, SET NULL): MySQL 8.0
   * writes no row events for them, so no reader sees them; kept only to replay the log. `at`: how
   * many of `events` came before the change.
   */
  cascaded?: (RowChange & { at: number })[];
  /**
   * Set for schema changes (CREATE/ALTER/DROP TABLE, CREATE/DROP DATABASE, CREATE/ALTER/DROP
   * VIEW). A view's change names no `table` and has no `def`: it carries the view (as it is
   * after CREATE or ALTER, as it was for DROP), so that no reader of the log takes it for a table.
   */
  ddl?: { mysql: string; sqlite: string[]; table?: string; kind: 'create-table' | 'drop-table' | 'alter-table' | 'rename-table' | 'truncate-table' | 'create-database' | 'drop-database' | 'index' | 'create-view' | 'drop-view'; def?: TableDef; view?: ViewDef; /** A create-view that is RENAME TABLE of a view: the name the view had. */ renamedFrom?: string };
}

export interface SourceInfo {
  serverUuid: string;
  serverId: number;
  version: string;
}

/** The part of a source the console (host contract) uses: embedded and remote both have it. */
export interface QuerySource {
  readonly kind: 'embedded' | 'remote';
  /** Runs one or more `;`-separated statements; throws MySqlError on the first failing one. */
  execute(database: string | null, sql: string): Promise<StatementResult[]>;
  listDatabases(): Promise<string[]>;
  listTables(database: string): Promise<string[]>;
  describeTable(database: string, table: string): Promise<ColumnDef[]>;
  close(): Promise<void>;
}

/** What a CDC connector needs from the embedded source (snapshot + binlog streaming). */
export interface CaptureSource extends QuerySource {
  info(): SourceInfo;
  tableDef(database: string, table: string): TableDef | undefined;
  /** The table definitions right before the transaction at `at` (the schema history at that position). */
  tableDefsAt(at: BinlogPosition): Catalog;
  /** Rows with rowid > `afterRowid`, in rowid order. */
  scan(database: string, table: string, afterRowid: number, limit: number): { rowid: number; row: Row }[];
  /** Where the next transaction will be written, and the executed GTID set. */
  position(): BinlogPosition & { gtidSet: string; seq: number };
  /** The change log files kept, oldest first (SHOW BINARY LOGS): a stored position in another file can no longer be read. */
  binlogFiles(): string[];
  /** Committed transactions at or after `from` (an exact transaction start or end position). */
  readTransactions(from: BinlogPosition, maxTransactions: number): BinlogTransaction[];
  /** Resolves when a transaction is committed at or after `from`, or false after the timeout. */
  waitForCommit(from: BinlogPosition, timeoutMs: number): Promise<boolean>;
  onCommit(listener: (tx: BinlogTransaction) => void): () => void;
}
