/**
 * The embedded relational source: MySQL-flavoured databases on sql.js (WASM SQLite), one
 * in-memory SQLite database per MySQL database, with change capture.
 *
 * Capture: every user table has AFTER INSERT/UPDATE/DELETE triggers that record before/after
 * images (json_object) into `__loupe_changes`. When a statement commits (autocommit) or at COMMIT,
 * the recorded changes become one transaction in the binlog — the commit point. Durability is
 * binlog + snapshots: each database is exported now and then to `<name>.sqlite` with the binlog
 * position it contains; on open the binlog after that position is replayed onto it.
 */
import { statementAfterWith, withoutQueryParentheses } from './with-clause.js';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue, type Statement } from 'sql.js';
import { readJsonOrBackup, writeFileAtomicSync } from '../../common/json-store.js';
import { parseExactJson } from '../../common/exact-json.js';
import type { Logger } from '../../common/log.js';
import { silentLogger } from '../../common/log.js';
import { Binlog, rowChangesMade } from './binlog.js';
import { execExact, getExact, type ExactValue } from './exact-integers.js';
import { CatalogHistory, comparePositions as comparePos } from './catalog-history.js';
import { registerDateFunctions, rewriteIntervals } from './date-functions.js';
import { datesReadFor } from './mysql-dates.js';
import { hasOwnIndex, planAlterTable, registerAlterFunctions, rowCount } from './alter-table.js';
import { registerSpatialFunctions } from './spatial-functions.js';
import { autoIncrementRequest, counterStatements, counters, generatesIds, INSERT_HEAD, insertColumns, raiseCounter } from './auto-increment.js';
import { checkParent, FOREIGN_KEY_STATE_DDL, IN_CASCADE, isCascadeTarget, referencing, refreshForeignKeyTriggers } from './foreign-keys.js';
import { rewriteRowAlias } from './upsert-row-alias.js';
import { boundVariables, castBigVariables, hoistConstantAssignments, registerVariableFunctions, rewriteVariableAssignments, selectInto, setItems, withVariables, type UserVariables } from './user-variables.js';
import { comparedColumnsIn, compareAsMySql, mentions, registerComparisonFunctions } from './column-comparisons.js';
import { orderedDml, rewriteDmlLimit, type OrderedDml } from './dml-limit.js';
import { registerStoreFunctions, rewriteStoredValues } from './dml-values.js';
import { rewriteExpressions, systemVariables } from './expression-syntax.js';
import { columnKinds } from './arithmetic-rewrite.js';
import { rewriteInsertSet } from './insert-set.js';
import { planTableDml, writtenRef } from './multi-table-dml.js';
import { namedTables } from './table-refs.js';
import { registerJsonFunctions } from './json-functions.js';
import { registerExactAggregates } from './exact-aggregates.js';
import { mergedView, overBase, writeTarget, writeThroughView } from './view-writes.js';
import { parseCreateTableSelect, selectedTable, type CreateTableSelect } from './create-table-select.js';
import { namedChecks, registerCheckFunctions, sortedChecks, violated } from './check-constraints.js';
import { assignInOrder } from './update-order.js';
import { significant, tokenize } from './sql-tokens.js';
import { registerMySqlFunctions } from './mysql-functions.js';
import { unknownColumnClause } from './column-clause.js';
import { aliasesRowid, describeType, ignoresCase, keyPartSql, keysInMySqlOrder, parseCreateTable, tableCollation, type IndexDef, q, showCreateTable, splitQualified, sqliteCreateIndex, sqliteCreateTable, sqliteIndexName, sqliteType, unquoteIdent, type ColumnDef, type TableDef } from './mysql-ddl.js';
import { MySqlError, mysqlErrors } from './mysql-error.js';
import { describeDefault } from './mysql-type-display.js';
import { columnCollation, columnKey, COLUMN_PRIVILEGES, createOptionsOf, INFORMATION_SCHEMA_TABLES, rowFormatOf, queryInformationSchema, readsInformationSchema, type SchemaCatalog, type SchemaTable } from './information-schema.js';
import { showBinaryLogs, showLike, showTableStatus, showVariables } from './show-statements.js';
import { splitScript, type ScriptStatement } from './sql-split.js';
import { maskQuoted, selectItemNames } from './sql-text.js';
import { databaseQualifiers, withoutQualifiers } from './database-qualifiers.js';
import { withQuantifiedComparisons, withQueryParentheses } from './query-parentheses.js';
import { copyTables, dropCopies, planCopies, type TableCopy } from './cross-database.js';
import { NOT_REPLACING_A_ROW, REPLACE_STATE_DDL, replaceTriggers, uniqueKeysInMySqlOrder } from './replace.js';
import { canonicalSelect, isUpdatable, isViewStatement, parseViewStatement, showCreateView, viewColumnDefs, viewColumns, withColumns, type ViewDef } from './views.js';
import type { BinlogPosition, BinlogTransaction, CaptureSource, Catalog, Row, RowChange, RowValue, SourceInfo, StatementResult } from './types.js';
import { collecting, Diagnostics, warn } from './diagnostics.js';
import { inSqlMode, storeErrorState } from './column-values.js';
import { calcFoundRows, withFoundRows } from './found-rows.js';
import { setTimeZone } from './time-zone.js';
import { DEFAULT_SQL_MODE, parseSqlMode, SQL_MODE_MERGED, sqlModeEffects } from './sql-mode.js';
import { READS_DIAGNOSTICS, showDiagnostics } from './show-warnings.js';
import { rewriteLikeEscapes, rewriteStringLiterals } from './mysql-strings.js';
import { rewriteIntroducers } from './charset-introducers.js';
import { calcColumns, showDecimals } from './decimal-display.js';
import { bindPlaceholders, parsePrepared, preparedText, unknownHandler } from './prepared-statements.js';
import { findSavepoint, parseSavepoint, savepointMissing, type Savepoint, type SavepointStatement } from './savepoints.js';

export interface EmbeddedSourceOptions {
  dir: string;
  log?: Logger;
  now?: () => number;
  /** Export databases after this many transactions (and on close). */
  snapshotEvery?: number;
  /** Create `demo.customers` with a few rows on first start (default true). */
  seedDemo?: boolean;
}

const VERSION = '8.0.36-loupe';
/** The account every session of the embedded server runs as (USER(), CURRENT_USER()). */
const ACCOUNT = 'root@localhost';
const INFORMATION_SCHEMA = 'information_schema';
const DB_NAME = /^[A-Za-z0-9_$]{1,64}$/;

let sqlJs: Promise<SqlJsStatic> | undefined;
// SQLite's own math functions, not sql.js's deprecated extension (which warns on stderr at each use)
const loadSqlJs = () => (sqlJs ??= initSqlJs({ useOldExtensionFunctions: false } as Parameters<typeof initSqlJs>[0]));

interface DbState {
  name: string;
  db: Database;
  tables: Map<string, TableDef>;
  /** Views (views.ts), each also a SQLite view over its translated SELECT. */
  views: Map<string, ViewDef>;
  /** Binlog position the in-memory state includes (everything before it is applied). */
  appliedThrough: BinlogPosition;
  /** Whether a table has a cascading foreign key action (an UPDATE then counts its rows apart from the cascaded ones). */
  cascades?: boolean;
  /** Prepared capture statements; export() frees them, so they are made again on demand. */
  prepared?: { select: Statement; clear: Statement; lastId: Statement; firstInserted: Statement; totalChanges: Statement; lastChange: Statement; weightSince: Statement; ownSince: Statement; updatedSince: Statement; sameRows: Statement };
}

function prepared(st: DbState): NonNullable<DbState['prepared']> {
  return (st.prepared ??= {
    select: st.db.prepare('SELECT tbl, op, rid, b, a, cas FROM __loupe_changes ORDER BY id'),
    clear: st.db.prepare('DELETE FROM __loupe_changes'),
    lastId: st.db.prepare('SELECT last_insert_rowid()'),
    firstInserted: st.db.prepare("SELECT COALESCE(min(rid), 0) FROM __loupe_changes WHERE id > ? AND tbl = ? AND op = 'c'"),
    totalChanges: st.db.prepare('SELECT total_changes()'),
    lastChange: st.db.prepare('SELECT COALESCE(max(id), 0) FROM __loupe_changes'),
    // MySQL's affected rows of an INSERT … ON DUPLICATE KEY UPDATE, REPLACE or INSERT IGNORE:
    // 1 per row inserted or deleted, 2 per row updated (none for a row left as it was)
    weightSince: st.db.prepare("SELECT COALESCE(sum(CASE op WHEN 'u' THEN 2 ELSE 1 END), 0) FROM __loupe_changes WHERE id > ?"),
    // the rows an UPDATE changed itself, without those its cascading actions changed
    ownSince: st.db.prepare('SELECT count(*) FROM __loupe_changes WHERE id > ? AND cas IS NOT 1'),
    // the rows an upsert updated (a duplicate it left as it was is no update)
    updatedSince: st.db.prepare("SELECT count(*) FROM __loupe_changes WHERE id > ? AND op = 'u'"),
    // …and 1 per row a REPLACE found already there as it was (MySQL's update in place of the
    // same row: no row event, but the row is counted)
    sameRows: st.db.prepare('SELECT same FROM __loupe_replace'),
  });
}

function scalar(stmt: Statement, params?: SqlValue[]): number {
  if (params) stmt.bind(params);
  stmt.step();
  const v = Number(stmt.get()[0]);
  stmt.reset();
  return v;
}

interface Session {
  database: string | null;
  thread: number;
  /** The statement running, as the server reads it and as it was written (what the change log keeps as its query). */
  written?: ScriptStatement;
  /** SET foreign_key_checks (on unless the session turned it off). */
  foreignKeyChecks: boolean;
  /** LOCK TABLES: each locked table (`db.table`) and its lock, until UNLOCK TABLES or the session ends. */
  locks?: Map<string, 'read' | 'write'>;
  /** Open explicit transaction: the database it writes to and its statements. */
  tx?: { db: DbState | null; statements: string[]; savepoints: Savepoint[] };
  /** LAST_INSERT_ID(): the first AUTO_INCREMENT value the session's last generating INSERT made (0 before any). */
  lastInsertId: number;
  /** ROW_COUNT(): the previous statement's affected rows, -1 after a SELECT. */
  rowCount: number;
  /** User variables (@name), by lower-case name. */
  vars: UserVariables;
  /** SET autocommit: off, a write opens a transaction that lasts until COMMIT or ROLLBACK. */
  autocommit: boolean;
  /** The last statement's notes and warnings (diagnostics.ts), for SHOW WARNINGS. */
  diagnostics: Diagnostics;
  /** PREPARE's statements, by lower-case name. */
  prepared: Map<string, string>;
  /** @@sql_mode (sql-mode.ts): strict mode and NO_AUTO_VALUE_ON_ZERO decide how writes store values. */
  sqlMode: string;
  /** FOUND_ROWS(): the last SELECT's rows, or what SQL_CALC_FOUND_ROWS counted (found-rows.ts). */
  foundRows: number;
  /** @@time_zone as set (time-zone.ts: only zones that are UTC). */
  timeZone: string;
}

export class EmbeddedSource implements CaptureSource {
  readonly kind = 'embedded' as const;
  private dbs = new Map<string, DbState>();
  private binlog!: Binlog;
  /** The change log's schema changes, for the definitions at a position. */
  private readonly history = new CatalogHistory();
  private meta!: { serverUuid: string; serverId: number };
  /** @@variables as SELECT reads them. */
  private variables: Record<string, string | number> | undefined;
  /** SET GLOBAL sql_mode: the sql_mode of the sessions that start later (not kept across a restart, as MySQL keeps none without PERSIST). */
  private globalSqlMode = DEFAULT_SQL_MODE;
  /** SET GLOBAL time_zone, for the sessions that start later. */
  private globalTimeZone = 'SYSTEM';
  private listeners = new Set<(tx: BinlogTransaction) => void>();
  private waiters = new Set<() => void>();
  private sinceSnapshot = 0;
  /** Names the SQLite savepoints behind user savepoints apart from each other and from the source's own. */
  private nextSavepoint = 1;
  private nextThread = 10;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly log: Logger;
  private readonly now: () => number;

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly opts: EmbeddedSourceOptions,
  ) {
    this.log = opts.log ?? silentLogger;
    this.now = opts.now ?? Date.now;
  }

  static async open(opts: EmbeddedSourceOptions): Promise<EmbeddedSource> {
    const src = new EmbeddedSource(await loadSqlJs(), opts);
    src.load();
    src.timer = setInterval(() => {
      if (src.sinceSnapshot > 0) src.snapshot();
    }, 10_000);
    src.timer.unref();
    return src;
  }

  // ------------------------------------------------------------------------------ catalogue

  info(): SourceInfo {
    return { serverUuid: this.meta.serverUuid, serverId: this.meta.serverId, version: VERSION };
  }

  async listDatabases(): Promise<string[]> {
    return [...this.dbs.keys()].sort();
  }

  async listTables(database: string): Promise<string[]> {
    return [...this.requireDb(database).tables.keys()].sort();
  }

  async describeTable(database: string, table: string): Promise<ColumnDef[]> {
    const def = this.tableDef(database, table);
    if (!def) throw mysqlErrors.noSuchTable(database, table);
    return def.columns.map((c) => ({ ...c }));
  }

  tableDef(database: string, table: string): TableDef | undefined {
    return this.dbs.get(database)?.tables.get(table);
  }

  tableDefsAt(at: BinlogPosition): Catalog {
    const current: Catalog = new Map([...this.dbs].map(([name, st]) => [name, st.tables]));
    return this.history.at(at, current);
  }

  scan(database: string, table: string, afterRowid: number, limit: number): { rowid: number; row: Row }[] {
    const st = this.requireDb(database);
    const def = st.tables.get(table);
    if (!def) throw mysqlErrors.noSuchTable(database, table);
    // a BLOB column as the change log's row images have it, hex(col) (createTriggers): a string stored in it is text to SQLite, not the hex of its bytes
    const columns = def.columns.map((c) => (c.name && sqliteType(c) === 'BLOB' ? `hex(${q(c.name)})` : q(c.name)));
    const res = execExact(st.db, `SELECT rowid AS __rowid, ${columns.join(', ')} FROM ${q(table)} WHERE rowid > ? ORDER BY rowid LIMIT ?`, [afterRowid, limit]);
    const out: { rowid: number; row: Row }[] = [];
    for (const values of res[0]?.values ?? []) {
      const row: Row = {};
      def.columns.forEach((c, i) => (row[c.name] = blobOut(values[i + 1]!)));
      out.push({ rowid: Number(values[0]), row });
    }
    return out;
  }

  // -------------------------------------------------------------------------------- binlog

  position(): BinlogPosition & { gtidSet: string; seq: number } {
    return { ...this.binlog.position(), gtidSet: this.binlog.gtidSet(), seq: this.binlog.nextSeq - 1 };
  }

  binlogFiles(): string[] {
    return fs
      .readdirSync(path.join(this.opts.dir, 'binlog'))
      .filter((f) => /^mysql-bin\.\d{6}$/.test(f))
      .sort();
  }

  readTransactions(from: BinlogPosition, maxTransactions: number): BinlogTransaction[] {
    // A closed source has no change log to read: saying so fails the reader's task, where an
    // empty answer would have it poll again at once, forever, starving the event loop.
    if (this.closed) throw mysqlErrors.general('the embedded source is closed');
    return this.binlog.read(from, maxTransactions);
  }

  waitForCommit(from: BinlogPosition, timeoutMs: number): Promise<boolean> {
    if (this.binlog.hasAfter(from)) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        if (this.closed || this.binlog.hasAfter(from)) {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve(!this.closed);
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }

  onCommit(listener: (tx: BinlogTransaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ----------------------------------------------------------------------------- statements

  /**
   * Runs a script as one client session: statements in order, `USE` switching the database,
   * BEGIN/COMMIT/ROLLBACK honoured; a transaction left open at the end is rolled back (like a
   * client that disconnects). The first error stops the script.
   */
  async execute(database: string | null, sql: string): Promise<StatementResult[]> {
    return this.executeSync(database, sql);
  }

  executeSync(database: string | null, sql: string): StatementResult[] {
    if (this.closed) throw mysqlErrors.general('the embedded source is closed');
    if (database !== null && database !== '' && !this.dbs.has(database) && database.toLowerCase() !== INFORMATION_SCHEMA) throw mysqlErrors.unknownDatabase(database);
    const session = newSession(database || null, this.nextThread++, this.globalSqlMode, this.globalTimeZone);
    const statements = splitScript(sql);
    if (statements.length === 0) throw mysqlErrors.emptyQuery();
    const results: StatementResult[] = [];
    try {
      for (const written of statements) {
        const s = written.sql;
        session.written = written;
        // a statement that reads the diagnostics keeps them; any other starts its own
        const previous = session.diagnostics;
        if (!READS_DIAGNOSTICS.test(s)) session.diagnostics = new Diagnostics();
        const r = collecting(session.diagnostics, () => withVariables(session.vars, () => inSqlMode(sqlModeEffects(session.sqlMode), () => this.statement(session, s, previous))));
        session.rowCount = r.kind === 'rows' ? -1 : r.affectedRows;
        if (session.diagnostics !== previous && session.diagnostics.count) r.warnings = { count: session.diagnostics.count, conditions: session.diagnostics.conditions };
        results.push(r);
      }
    } finally {
      if (session.tx) this.rollback(session);
    }
    return results;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.snapshot();
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const w of [...this.waiters]) w();
    for (const st of this.dbs.values()) st.db.close();
    this.binlog.close();
  }

  /** Writes every database with the binlog position it includes (atomic per file). */
  snapshot(): void {
    if (this.closed) return;
    const pos = this.binlog.position();
    for (const st of this.dbs.values()) {
      st.db.run(`INSERT OR REPLACE INTO __loupe_meta (k, v) VALUES ('binlog_file', ?), ('binlog_pos', ?)`, [pos.file, String(pos.pos)]);
      st.prepared = undefined; // export() frees prepared statements
      const bytes = st.db.export();
      writeFileAtomicSync(path.join(this.opts.dir, 'databases', `${st.name}.sqlite`), bytes);
      st.appliedThrough = pos;
      this.prepareSession(st.db);
    }
    this.sinceSnapshot = 0;
  }

  // ------------------------------------------------------------------------------ internals

  private statement(session: Session, sql: string, previous: Diagnostics): StatementResult {
    const words = sql.trim().split(/\s+/, 4).map((w) => w.toLowerCase().replace(/;$/, ''));
    const [w0 = '', w1 = '', w2 = ''] = words;
    const ok = (affectedRows = 0, extra: Partial<StatementResult> = {}): StatementResult => ({ sql, kind: 'ok', columns: [], rows: [], affectedRows, database: session.database, ...extra });
    const rows = (columns: string[], data: unknown[][]): StatementResult => ({ sql, kind: 'rows', columns, rows: data, affectedRows: 0, database: session.database });

    if (w0 === 'use') {
      const name = unquoteIdent(sql.trim().slice(3).trim().replace(/;$/, ''));
      if (!this.dbs.has(name) && name.toLowerCase() !== INFORMATION_SCHEMA) throw mysqlErrors.unknownDatabase(name);
      session.database = name;
      return ok(0, { database: name });
    }
    if (w0 === 'show') {
      const shown = showDiagnostics(sql, previous);
      if (shown) return rows(shown.columns, shown.rows);
      const like = showLike(sql, false);
      if (w1 === 'databases' || w1 === 'schemas') return rows([`Database${like.text ? ` (${like.text})` : ''}`], [...this.dbs.keys(), INFORMATION_SCHEMA].sort().filter(like.test).map((d) => [d]));
      const scoped = w1 === 'global' || w1 === 'session' ? w2 : w1;
      if (scoped === 'variables') {
        const shown = showVariables(this.SQL, this.systemVariables(w1 === 'global' ? undefined : session), sql);
        return rows(shown.columns, shown.rows);
      }
      if ((w1 === 'binary' || w1 === 'master') && w2 === 'logs') {
        const shown = showBinaryLogs(this.binlogFiles().map((name) => ({ name, size: fs.statSync(path.join(this.opts.dir, 'binlog', name)).size })));
        return rows(shown.columns, shown.rows);
      }
      if (w1 === 'table' && w2 === 'status') {
        const m = /\b(?:from|in)\s+(`[^`]+`|\w+)/i.exec(sql);
        const dbName = m ? unquoteIdent(m[1]!) : session.database;
        if (!dbName) throw mysqlErrors.noDatabase();
        const st = this.requireDb(dbName);
        const shown = showTableStatus(this.SQL, [...this.schemaTables(st).map((t) => ({ name: t.def.name, rows: t.rows, dataLength: 0, autoIncrement: t.autoIncrement, collation: tableCollation(t.def), rowFormat: rowFormatOf(t.def), createOptions: createOptionsOf(t.def), comment: t.def.options?.comment ?? '' })), ...[...st.views.keys()].map((name) => ({ name, view: true as const }))], sql);
        return rows(shown.columns, shown.rows);
      }
      if (w1 === 'tables' || (w1 === 'full' && w2 === 'tables')) {
        const m = /\b(?:from|in)\s+(`[^`]+`|\w+)/i.exec(sql);
        const dbName = m ? unquoteIdent(m[1]!) : session.database;
        if (!dbName) throw mysqlErrors.noDatabase();
        const inSchema = dbName.toLowerCase() === INFORMATION_SCHEMA;
        const views = inSchema ? new Map<string, ViewDef>() : this.requireDb(dbName).views;
        const names = (inSchema ? [...INFORMATION_SCHEMA_TABLES] : [...this.requireDb(dbName).tables.keys(), ...views.keys()]).sort().filter(like.test);
        const title = `Tables_in_${dbName}${like.text ? ` (${like.text})` : ''}`;
        return w1 === 'full' ? rows([title, 'Table_type'], names.map((t) => [t, inSchema ? 'SYSTEM VIEW' : views.has(t) ? 'VIEW' : 'BASE TABLE'])) : rows([title], names.map((t) => [t]));
      }
      if (w1 === 'index' || w1 === 'indexes' || w1 === 'keys') {
        const m = /\b(?:from|in)\s+(\S+?)(?:\s+(?:from|in)\s+(`[^`]+`|\w+))?\s*;?$/i.exec(sql.trim());
        if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
        return this.showIndex(session, m[2] ? `${m[2]}.${m[1]}` : m[1]!, rows);
      }
      if (w1 === 'create' && w2 === 'view') return this.showCreateView(session, sql, rows);
      if (w1 === 'create' && w2 === 'table') {
        const { st, table } = this.resolveTable(session, sql.trim().split(/\s+/).slice(3).join(' ').replace(/;$/, ''));
        // MySQL answers SHOW CREATE TABLE of a view as SHOW CREATE VIEW (MySQL 8.0 manual, SHOW CREATE TABLE)
        if (st.views.has(table)) return this.showCreateView(session, sql, rows);
        const def = st.tables.get(table);
        if (!def) throw mysqlErrors.noSuchTable(st.name, table);
        return rows(['Table', 'Create Table'], [[table, showCreateTable(def, this.nextAutoIncrement(st, def) ?? undefined)]]);
      }
      if (w1 === 'columns' || w1 === 'fields' || (w1 === 'full' && (w2 === 'columns' || w2 === 'fields'))) {
        // SHOW [FULL] COLUMNS {FROM|IN} t [{FROM|IN} db] [LIKE 'pattern']
        const m = /^show\s+(?:full\s+)?(?:columns|fields)\s+(?:from|in)\s+(`[^`]+`|[^\s;`]+)(?:\s+(?:from|in)\s+(`[^`]+`|[^\s;`]+))?(?:\s+like\s+'(?:[^'\\]|\\.|'')*')?\s*;?\s*$/i.exec(sql.trim());
        if (!m) throw mysqlErrors.syntax(sql.slice(5, 85));
        const shown = this.describe(session, m[2] ? `${m[2]}.${m[1]}` : m[1]!, sql, w1 === 'full');
        const like = showLike(sql, true);
        return { ...shown, rows: shown.rows.filter((r) => like.test(String(r[0]))) };
      }
      if (w1 === 'master' || (w1 === 'binary' && w2 === 'log')) {
        const p = this.binlog.position();
        return rows(['File', 'Position', 'Binlog_Do_DB', 'Binlog_Ignore_DB', 'Executed_Gtid_Set'], [[p.file, p.pos, '', '', this.binlog.gtidSet()]]);
      }
      if (w1 === 'create' && (w2 === 'database' || w2 === 'schema')) {
        const m = /^show\s+create\s+(?:database|schema)\s+(if\s+not\s+exists\s+)?(`[^`]+`|[A-Za-z0-9_$]+)\s*;?\s*$/i.exec(sql.trim());
        if (!m) throw mysqlErrors.syntax(sql.slice(5, 85));
        const name = unquoteIdent(m[2]!);
        if (!this.dbs.has(name)) throw mysqlErrors.unknownDatabase(name);
        // MySQL 8.0's text for a database made with the server's defaults
        return rows(['Database', 'Create Database'], [[name, `CREATE DATABASE ${m[1] ? '/*!32312 IF NOT EXISTS*/ ' : ''}\`${name}\` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci */ /*!80016 DEFAULT ENCRYPTION='N' */`]]);
      }
      // statements MySQL has that the embedded source does not answer: said so, not called a syntax error
      const unsupported = /^show\s+(?:(?:full\s+)?processlist|engines|(?:global\s+|session\s+)?status|grants|privileges|plugins|triggers|events|(?:procedure|function)\s+status|character\s+set|charset|collation|open\s+tables|profiles?|replicas|slave\s+hosts|(?:replica|slave)\s+status|(?:binlog|relaylog)\s+events|engine|create\s+(?:procedure|function|event|trigger|user))\b/i.exec(sql.trim());
      if (unsupported) throw mysqlErrors.notSupported(`${unsupported[0].replace(/\s+/g, ' ').toUpperCase()} in the embedded source`);
      throw mysqlErrors.syntax(sql.slice(5, 85));
    }
    if ((w0 === 'analyze' || w0 === 'check' || w0 === 'optimize' || w0 === 'repair') && /^(?:(?:no_write_to_binlog|local)\s+)?tables?\b/i.test(sql.trim().slice(w0.length).trim())) return this.maintainTables(session, sql, rows);
    if (w0 === 'checksum' && /^tables?\b/i.test(w1)) throw mysqlErrors.notSupported('CHECKSUM TABLE in the embedded source');
    if (w0 === 'describe' || w0 === 'desc' || w0 === 'explain') {
      if (w0 === 'explain' && /^(select|insert|update|delete)$/.test(w1)) throw mysqlErrors.notSupported('EXPLAIN in the embedded source');
      return this.describe(session, sql.trim().split(/\s+/)[1]!.replace(/;$/, ''), sql);
    }
    if ((w0 === 'create' || w0 === 'alter') && isViewStatement(sql)) return this.createView(session, sql, ok);
    if (w0 === 'drop' && w1 === 'view') return this.dropView(session, sql, ok);
    if (w0 === 'create' && (w1 === 'database' || w1 === 'schema')) {
      const m = /^create\s+(?:database|schema)\s+(if\s+not\s+exists\s+)?(`[^`]+`|[A-Za-z0-9_$]+)/i.exec(sql.trim());
      if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
      const name = unquoteIdent(m[2]!);
      if (this.dbs.has(name)) {
        if (m[1]) {
          note(mysqlErrors.databaseExists(name));
          return ok(0);
        }
        throw mysqlErrors.databaseExists(name);
      }
      this.requireNoTx(session, 'CREATE DATABASE');
      if (!DB_NAME.test(name)) throw new MySqlError(1102, '42000', `Incorrect database name '${name}'`);
      this.commitDdl(session, null, { mysql: sql, sqlite: [], kind: 'create-database' }, name);
      return ok(1);
    }
    if (w0 === 'drop' && (w1 === 'database' || w1 === 'schema')) {
      const m = /^drop\s+(?:database|schema)\s+(if\s+exists\s+)?(`[^`]+`|[A-Za-z0-9_$]+)/i.exec(sql.trim());
      if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
      const name = unquoteIdent(m[2]!);
      if (!this.dbs.has(name)) {
        if (m[1]) {
          note(mysqlErrors.dropMissingDatabase(name));
          return ok(0);
        }
        throw mysqlErrors.dropMissingDatabase(name);
      }
      this.requireNoTx(session, 'DROP DATABASE');
      const n = this.dbs.get(name)!.tables.size;
      this.commitDdl(session, null, { mysql: sql, sqlite: [], kind: 'drop-database' }, name);
      if (session.database === name) session.database = null;
      return ok(n);
    }
    if (w0 === 'create' && w1 === 'table' && /^create\s+table\s+(?:if\s+not\s+exists\s+)?\S+\s+\(?\s*like\s/i.test(sql.trim())) {
      const m = /^create\s+table\s+(if\s+not\s+exists\s+)?(\S+)\s+\(?\s*like\s+([^\s)]+)\s*\)?\s*;?$/i.exec(sql.trim());
      if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
      const from = this.resolveTable(session, m[3]!);
      const source = from.st.tables.get(from.table);
      if (!source) throw mysqlErrors.noSuchTable(from.st.name, from.table);
      const to = this.resolveTable(session, m[2]!);
      if (to.st.tables.has(to.table) || to.st.views.has(to.table)) {
        if (m[1]) {
          note(mysqlErrors.tableExists(to.table));
          return ok(0);
        }
        throw mysqlErrors.tableExists(to.table);
      }
      this.requireNoTx(session, 'CREATE TABLE');
      // MySQL 8.0 manual, CREATE TABLE … LIKE: no foreign keys, and the CHECK constraints under generated names
      const { foreignKeys: _fks, checks, ...copy } = structuredClone(source);
      const def: TableDef = { ...copy, name: to.table, ...(checks?.length ? { checks: namedChecks(to.table, sortedChecks(checks).map((c) => ({ expr: c.expr, enforced: c.enforced }))) } : {}) };
      this.checkNamesFree(to.st, def);
      this.commitDdl(session, to.st, { mysql: sql, sqlite: sqliteCreateTable(def), kind: 'create-table', table: to.table }, undefined, def);
      return ok(0);
    }
    if (w0 === 'create' && (w1 === 'table' || (w1 === 'temporary' && w2 === 'table'))) {
      const selecting = w1 === 'table' ? parseCreateTableSelect(sql) : undefined;
      if (selecting) return this.createTableSelect(session, selecting, ok, rows);
      const parsed = parseCreateTable(sql);
      const dbName = parsed.database ?? session.database;
      if (!dbName) throw mysqlErrors.noDatabase();
      const st = this.requireDb(dbName);
      if (st.tables.has(parsed.def.name) || st.views.has(parsed.def.name)) {
        if (parsed.ifNotExists) {
          note(mysqlErrors.tableExists(parsed.def.name));
          return ok(0);
        }
        throw mysqlErrors.tableExists(parsed.def.name);
      }
      this.requireNoTx(session, 'CREATE TABLE');
      this.checkNewForeignKeys(session, st, parsed.def);
      this.checkNamesFree(st, parsed.def);
      const sqlite = sqliteCreateTable(parsed.def);
      // AUTO_INCREMENT=N: the first value handed out is N (logged, so that a replay starts there too)
      if (parsed.autoIncrement !== undefined && parsed.autoIncrement > 1 && aliasesRowid(parsed.def)) sqlite.push(...counterStatements(parsed.def.name, parsed.autoIncrement - 1));
      this.commitDdl(session, st, { mysql: sql, sqlite, kind: 'create-table', table: parsed.def.name }, undefined, parsed.def);
      return ok(0);
    }
    if (w0 === 'drop' && w1 === 'table') {
      const m = /^drop\s+table\s+(if\s+exists\s+)?(.+)$/i.exec(sql.trim().replace(/;$/, ''));
      if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
      this.requireNoTx(session, 'DROP TABLE');
      // MySQL 8 drops all or nothing, and names every missing table (a table of an unknown
      // database included) in one 1051.
      const found: { st: DbState; table: string }[] = [];
      const missing: string[] = [];
      for (const { dbName, st, name } of this.dropTargets(session, m[2]!)) {
        if (st?.tables.has(name)) found.push({ st, table: name });
        else missing.push(`${dbName}.${name}`);
      }
      if (missing.length && !m[1]) throw mysqlErrors.unknownTable(missing.join(','));
      for (const name of missing) note(mysqlErrors.unknownTable(name));
      if (session.foreignKeyChecks) {
        for (const { st, table } of found) {
          // a parent can go only with its children (ER_FK_CANNOT_DROP_PARENT, errmsg-utf8.txt)
          const ref = referencing(st.tables, table).find((r) => r.child.name !== table && !found.some((f) => f.st === st && f.table === r.child.name));
          if (ref) throw new MySqlError(3730, 'HY000', `Cannot drop table '${table}' referenced by a foreign key constraint '${ref.fk.name}' on table '${ref.child.name}'.`);
        }
      }
      // the change log keeps the dropped table's definition (Debezium's DROP change carries it)
      for (const { st, table } of found) this.commitDdl(session, st, { mysql: sql, sqlite: [`DROP TABLE ${q(table)}`], kind: 'drop-table', table }, undefined, st.tables.get(table));
      return ok(0);
    }
    if (w0 === 'alter' && w1 === 'table') return this.alterTable(session, sql, ok);
    if (w0 === 'rename' && w1 === 'table') {
      const pairs = sql.trim().replace(/;$/, '').replace(/^rename\s+table\s+/i, '').split(',').map((p) => /^\s*(\S+)\s+to\s+(\S+)\s*$/i.exec(p));
      if (pairs.some((p) => !p)) throw mysqlErrors.syntax(sql.slice(0, 80));
      this.requireNoTx(session, 'RENAME TABLE');
      for (const p of pairs) this.renameTable(session, p![1]!, p![2]!, sql);
      return ok(0);
    }
    if ((w0 === 'create' && (w1 === 'index' || (w1 === 'unique' && w2 === 'index'))) || (w0 === 'drop' && w1 === 'index')) {
      // the same as ALTER TABLE … ADD/DROP INDEX, which is how MySQL runs them too
      const create = /^create\s+(unique\s+)?index\s+(`[^`]+`|\w+)\s+on\s+(\S+?)\s*(\(.*\))\s*;?$/is.exec(sql.trim());
      const drop = /^drop\s+index\s+(`[^`]+`|\w+)\s+on\s+(\S+?)\s*;?$/is.exec(sql.trim());
      if (create) return this.alterTable(session, `ALTER TABLE ${create[3]} ADD ${create[1] ? 'UNIQUE ' : ''}INDEX ${create[2]} ${create[4]}`, ok, sql);
      if (drop) return this.alterTable(session, `ALTER TABLE ${drop[2]} DROP INDEX ${drop[1]}`, ok, sql);
      throw mysqlErrors.syntax(sql.slice(0, 80));
    }
    if (w0 === 'truncate') {
      // MySQL logs TRUNCATE as a statement, with no row events (Debezium sends only a schema
      // change event for it), resets AUTO_INCREMENT and reports no affected rows.
      const { st, table } = this.resolveTable(session, sql.trim().replace(/;$/, '').split(/\s+/).slice(w1 === 'table' ? 2 : 1).join(' '));
      const def = st.tables.get(table);
      if (!def) throw mysqlErrors.noSuchTable(st.name, table);
      this.requireNoTx(session, 'TRUNCATE');
      // ER_TRUNCATE_ILLEGAL_FK (errmsg-utf8.txt): InnoDB truncates no table another table references
      const ref = session.foreignKeyChecks ? referencing(st.tables, table).find((r) => r.child.name !== table) : undefined;
      if (ref) throw new MySqlError(1701, '42000', `Cannot truncate a table referenced in a foreign key constraint (\`${st.name}\`.\`${ref.child.name}\`, CONSTRAINT \`${ref.fk.name}\`)`);
      const sqlite = [`DELETE FROM ${q(table)}`];
      if (aliasesRowid(def)) sqlite.push(`DELETE FROM sqlite_sequence WHERE name = '${table.replace(/'/g, "''")}'`);
      this.commitDdl(session, st, { mysql: sql, sqlite, kind: 'truncate-table', table }, undefined, def);
      return ok(0);
    }
    if (w0 === 'savepoint' || (w0 === 'release' && w1 === 'savepoint') || (w0 === 'rollback' && (w1 === 'to' || (w1 === 'work' && w2 === 'to')))) {
      const sp = parseSavepoint(sql);
      if (!sp) throw mysqlErrors.syntax(sql.trim().slice(0, 80));
      this.savepoint(session, sp);
      return ok(0);
    }
    if (w0 === 'begin' || (w0 === 'start' && w1 === 'transaction')) {
      if (session.tx) this.commit(session);
      session.tx = { db: null, statements: [], savepoints: [] };
      return ok(0);
    }
    if (w0 === 'commit') {
      if (session.tx) return ok(0, { position: this.commit(session) });
      return ok(0);
    }
    if (w0 === 'rollback') {
      if (session.tx) this.rollback(session);
      return ok(0);
    }
    if (w0 === 'set') {
      // a session's foreign_key_checks and autocommit (SET GLOBAL changes only later sessions); the
      // value may be an expression, as mysqldump's SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS
      const isOn = (value: string) => (/^(0|1|on|off|true|false)$/i.test(value) ? !/^(0|off|false)$/i.test(value) : Boolean(Number(this.evaluate(session, value, ok, rows))));
      for (const item of setItems(sql)) {
        if ('user' in item) session.vars.set(item.user, this.evaluate(session, item.expr, ok, rows));
        else if (item.system === 'foreign_key_checks' && !item.global) session.foreignKeyChecks = isOn(item.value);
        else if (item.system === 'time_zone') {
          // a zone, or an expression (mysqldump's SET TIME_ZONE=@OLD_TIME_ZONE)
          const v = item.value.trim();
          const zone = setTimeZone(/^[@(]|\(/.test(v) ? String(this.evaluate(session, v, ok, rows)) : v);
          if (item.global) this.globalTimeZone = zone;
          else session.timeZone = zone;
        } else if (item.system === 'sql_mode') {
          // a list of names (quoted or not), DEFAULT, a number, or an expression (mysqldump's SET SQL_MODE=@OLD_SQL_MODE)
          const v = item.value.trim();
          const given = /^default$/i.test(v) ? (item.global ? DEFAULT_SQL_MODE : this.globalSqlMode) : /^\d+$/.test(v) ? BigInt(v) : /^[\w,]*$/.test(v) ? v : this.evaluate(session, v, ok, rows);
          const mode = parseSqlMode(typeof given === 'number' ? BigInt(given) : (given as string | bigint | null));
          if (mode.mergedWarning) warn(SQL_MODE_MERGED.code, SQL_MODE_MERGED.message);
          // SET GLOBAL changes the sessions that start later, not this one
          if (item.global) this.globalSqlMode = mode.value;
          else session.sqlMode = mode.value;
        }
        else if (item.system === 'autocommit' && !item.global) {
          const on = isOn(item.value);
          // turning autocommit back on commits the open transaction (MySQL 8.0 manual, autocommit)
          if (on && !session.autocommit && session.tx) this.commit(session);
          session.autocommit = on;
        }
      }
      return ok(0); // other session variables (names, time_zone…) are accepted
    }
    if ((w0 === 'lock' || w0 === 'unlock') && (w1 === 'tables' || w1 === 'table')) return this.lockTables(session, sql, ok);
    // DO expr, …: evaluated, nothing returned
    if (w0 === 'do') {
      this.dml(session, `SELECT ${sql.trim().replace(/;$/, '').slice(2)}`, ok, rows, sql);
      return ok(0);
    }
    if (w0 === 'prepare' || w0 === 'execute' || ((w0 === 'deallocate' || w0 === 'drop') && w1 === 'prepare')) {
      const ps = parsePrepared(sql);
      if (!ps) throw mysqlErrors.syntax(sql.trim().slice(0, 80));
      const key = ps.name.toLowerCase();
      if (ps.kind === 'prepare') {
        // a NULL variable is the text NULL, as MySQL reads it
        const text = 'literal' in ps.text ? ps.text.literal : String(session.vars.get(ps.text.variable) ?? 'NULL');
        session.prepared.set(key, preparedText(text));
        return ok(0);
      }
      const text = session.prepared.get(key);
      if (text === undefined) throw unknownHandler(ps.name, ps.kind === 'execute' ? 'EXECUTE' : 'DEALLOCATE PREPARE');
      if (ps.kind === 'deallocate') {
        session.prepared.delete(key);
        return ok(0);
      }
      return this.statement(session, bindPlaceholders(text, ps.using.map((v) => session.vars.get(v) ?? null)), previous);
    }
    if (w0 === 'with') refuseWithBeforeWrite(sql);
    if (w0 === 'select' || w0 === 'insert' || w0 === 'update' || w0 === 'delete' || w0 === 'replace' || w0 === 'with' || w0.startsWith('(')) {
      const into = selectInto(sql);
      if (into) return this.selectIntoVariables(session, into, ok, rows);
      const calc = calcFoundRows(sql);
      if (calc) {
        const total = this.dml(session, calc.count, ok, rows, calc.count).rows[0]?.[0];
        const r = this.dml(session, calc.select, ok, rows, sql);
        session.foundRows = Number(total ?? 0);
        return r;
      }
      const viaView = this.throughViews(session, sql);
      const r = viaView ? viaView.run(() => this.dml(session, viaView.text, ok, rows, sql)) : this.dml(session, sql, ok, rows, sql);
      if (r.kind === 'rows') session.foundRows = r.rows.length;
      return r;
    }
    // statements MySQL has that the embedded source does not run: said so, not called a syntax error
    const unsupported = UNSUPPORTED_STATEMENT.exec(sql.trim());
    if (unsupported) throw mysqlErrors.notSupported(`${unsupported[0].replace(/\s+/g, ' ').replace(/\s*definer\s*=\s*\S+/i, '').toUpperCase()} in the embedded source`);
    throw mysqlErrors.syntax(sql.slice(0, 80));
  }

  /**
   * SELECT … INTO @a, @b: the one row's values into the variables (MySQL 8.0 manual, SELECT … INTO):
   * more rows are ER_TOO_MANY_ROWS, none leaves them as they were with the warning ER_SP_FETCH_NO_DATA.
   */
  /**
   * CREATE TABLE … SELECT (create-table-select.ts): the table, logged as its definition (the
   * SELECT's columns filled in, as MySQL logs it), then the SELECT's rows, logged as row events.
   * A failing copy drops the table again, so that nothing of the statement stays.
   */
  private createTableSelect(session: Session, c: CreateTableSelect, ok: (n?: number, e?: Partial<StatementResult>) => StatementResult, rows: (c: string[], d: unknown[][]) => StatementResult): StatementResult {
    const { st, table } = this.resolveTable(session, c.target);
    if (st.tables.has(table) || st.views.has(table)) {
      if (c.ifNotExists) {
        note(mysqlErrors.tableExists(table));
        return ok(0);
      }
      throw mysqlErrors.tableExists(table);
    }
    this.requireNoTx(session, 'CREATE TABLE');
    // the SELECT's columns, named as it answers them
    const { columns } = this.dml(session, `SELECT * FROM (${c.select}) AS loupe_selected LIMIT 0`, ok, rows, c.select);
    const { def } = parseCreateTable(selectedTable(table, c, columns, (t, db) => this.dbs.get(db ?? session.database ?? '')?.tables.get(t)));
    this.checkNewForeignKeys(session, st, def);
    this.checkNamesFree(st, def);
    this.commitDdl(session, st, { mysql: showCreateTable(def), sqlite: sqliteCreateTable(def), kind: 'create-table', table }, undefined, def);
    const insert = `INSERT${c.duplicates === 'IGNORE' ? ' IGNORE' : ''} INTO \`${st.name}\`.\`${table}\` (${columns.map((n) => `\`${n.replace(/`/g, '``')}\``).join(', ')}) ${c.select}`;
    try {
      return this.dml(session, c.duplicates === 'REPLACE' ? insert.replace(/^INSERT/, 'REPLACE') : insert, ok, rows, insert);
    } catch (err) {
      this.commitDdl(session, st, { mysql: `DROP TABLE \`${table}\` /* generated by server */`, sqlite: [`DROP TABLE IF EXISTS ${q(table)}`], kind: 'drop-table', table });
      throw err;
    }
  }

  private selectIntoVariables(session: Session, into: { select: string; targets: string[] }, ok: (n?: number, e?: Partial<StatementResult>) => StatementResult, rows: (c: string[], d: unknown[][]) => StatementResult): StatementResult {
    const r = this.dml(session, into.select, ok, rows, into.select);
    if (r.columns.length !== into.targets.length) throw new MySqlError(1222, '21000', 'The used SELECT statements have a different number of columns');
    if (r.rows.length > 1) throw new MySqlError(1172, '42000', 'Result consisted of more than one row');
    const [row] = r.rows;
    if (!row) {
      warn(1329, 'No data - zero rows fetched, selected, or processed');
      return ok(0);
    }
    into.targets.forEach((name, i) => session.vars.set(name, (row[i] ?? null) as SqlValue));
    return ok(1);
  }

  /** The value of an expression, as `SET @v = expr` stores it (in the session's database, or any when none is chosen). */
  private evaluate(session: Session, expr: string, ok: (n?: number, e?: Partial<StatementResult>) => StatementResult, rows: (c: string[], d: unknown[][]) => StatementResult): SqlValue {
    const database = session.database ?? this.dbs.keys().next().value ?? null;
    const r = this.dml({ ...session, database }, `SELECT ${expr}`, ok, rows, `SELECT ${expr}`);
    return (r.rows[0]?.[0] ?? null) as SqlValue;
  }

  /**
   * LOCK TABLES t [[AS] a] READ [LOCAL] | [LOW_PRIORITY] WRITE, … and UNLOCK TABLES. The embedded
   * server runs one statement at a time, so no two sessions' locks can conflict; what a lock means
   * to its own session is kept (checkLocks). Both commit an open transaction, as MySQL's do.
   */
  private lockTables(session: Session, sql: string, ok: () => StatementResult): StatementResult {
    const body = sql.trim().replace(/;$/, '').replace(/^(?:un)?lock\s+tables?\b/i, '').trim();
    if (/^unlock/i.test(sql.trim())) {
      if (body) throw mysqlErrors.syntax(body.slice(0, 80));
      if (session.locks && session.tx) this.commit(session);
      session.locks = undefined;
      return ok();
    }
    const locks = new Map<string, 'read' | 'write'>();
    for (const item of body.split(',')) {
      const m = /^\s*(\S+?)(?:\s+(?:as\s+)?(?!read\b|write\b|low_priority\b)(`[^`]+`|\w+))?\s+(read(?:\s+local)?|(?:low_priority\s+)?write)\s*$/i.exec(item);
      if (!m) throw mysqlErrors.syntax(item.trim().slice(0, 80));
      const { st, table } = this.resolveTable(session, m[1]!);
      if (!st.tables.has(table)) throw mysqlErrors.noSuchTable(st.name, table);
      const key = `${st.name}.${table}`;
      // a table named twice takes the stronger lock
      locks.set(key, /write$/i.test(m[3]!) || locks.get(key) === 'write' ? 'write' : 'read');
    }
    if (session.tx) this.commit(session);
    session.locks = locks;
    return ok();
  }

  /** SHOW INDEX FROM t, with MySQL 8.0's columns (Cardinality is the number of distinct values). */
  private showIndex(session: Session, raw: string, rows: (c: string[], d: unknown[][]) => StatementResult): StatementResult {
    const { st, table } = this.resolveTable(session, raw);
    const def = st.tables.get(table);
    if (!def) throw mysqlErrors.noSuchTable(st.name, table);
    const keys = keysInMySqlOrder(def);
    const data: unknown[][] = [];
    for (const k of keys) {
      k.columns.forEach((c, i) => {
        const col = def.columns.find((x) => x.name === c);
        const cardinality = Number(st.db.exec(`SELECT count(DISTINCT ${k.columns.slice(0, i + 1).map(q).join(' || \'-\' || ')}) FROM ${q(table)}`)[0]?.values[0]?.[0] ?? 0);
        data.push([table, k.unique ? 0 : 1, k.name, i + 1, c, k.descending?.[i] ? 'D' : 'A', cardinality, k.prefixes?.[i] ?? null, null, col?.nullable ? 'YES' : '', 'BTREE', '', '', 'YES', null]);
      });
    }
    return rows(['Table', 'Non_unique', 'Key_name', 'Seq_in_index', 'Column_name', 'Collation', 'Cardinality', 'Sub_part', 'Packed', 'Null', 'Index_type', 'Comment', 'Index_comment', 'Visible', 'Expression'], data);
  }

  /** DESCRIBE and SHOW COLUMNS; SHOW FULL COLUMNS adds each column's collation, privileges and comment. */
  private describe(session: Session, raw: string, sql: string, full = false): StatementResult {
    const { st, table } = this.resolveTable(session, raw);
    const view = st.views.get(table);
    const def = view ? this.viewAsTable(st, view) : st.tables.get(table);
    if (!def) throw mysqlErrors.noSuchTable(st.name, table);
    const data = def.columns.map((c) => {
      const key = columnKey(def, c);
      const { default: dflt, extra } = describeDefault(c);
      if (full) return [c.name, describeType(c), columnCollation(c, def), c.nullable ? 'YES' : 'NO', key, dflt, extra, COLUMN_PRIVILEGES, c.comment ?? ''];
      return [c.name, describeType(c), c.nullable ? 'YES' : 'NO', key, dflt, extra];
    });
    const columns = full ? ['Field', 'Type', 'Collation', 'Null', 'Key', 'Default', 'Extra', 'Privileges', 'Comment'] : ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'];
    return { sql, kind: 'rows', columns, rows: data, affectedRows: 0, database: session.database };
  }

  /**
   * CREATE [OR REPLACE] / ALTER VIEW (views.ts): the SELECT is translated as a query would be and
   * checked by preparing it (a missing table is 1146, a missing column 1054, as MySQL's CREATE
   * VIEW finds them), then kept as a SQLite view named after the view, with the view's columns.
   */
  private createView(session: Session, sql: string, ok: () => StatementResult): StatementResult {
    const parsed = parseViewStatement(sql, ACCOUNT);
    const dbName = parsed.database ?? session.database;
    if (!dbName) throw mysqlErrors.noDatabase();
    const st = this.requireDb(dbName);
    const name = parsed.def.name;
    // ER_WRONG_OBJECT for a table where a view is meant (MySQL 8.0's error message reference)
    if (st.tables.has(name) && (parsed.verb === 'alter' || parsed.orReplace)) throw notView(st.name, name);
    if (parsed.verb === 'create' && (st.tables.has(name) || (st.views.has(name) && !parsed.orReplace))) throw mysqlErrors.tableExists(name);
    if (parsed.verb === 'alter' && !st.views.has(name)) throw mysqlErrors.noSuchTable(st.name, name);
    this.requireNoTx(session, 'CREATE VIEW');
    const translated = this.translateDml({ ...session, database: st.name }, parsed.def.select);
    if (translated.copies || translated.multi || translated.st !== st) throw mysqlErrors.notSupported('a view of tables of another database in the embedded source');
    let names: string[];
    try {
      const stmt = st.db.prepare(translated.text);
      names = stmt.getColumnNames();
      stmt.free();
    } catch (err) {
      throw this.translateError(err as Error, st, translated.text, parsed.def.select);
    }
    const view = withColumns(parsed.def, viewColumns(parsed.def, names));
    const sqlite = [`DROP VIEW IF EXISTS ${q(name)}`, `CREATE VIEW ${q(name)} (${view.columns.map(q).join(', ')}) AS ${translated.text}`];
    // MySQL logs the statement with its clauses filled in and the SELECT as typed (sql_view.cc)
    const head = parsed.verb === 'alter' ? 'ALTER' : parsed.orReplace ? 'CREATE OR REPLACE' : 'CREATE';
    const logged = `${head} ALGORITHM=${view.algorithm} DEFINER=${view.definer} SQL SECURITY ${view.security} VIEW \`${name}\`${view.columnList ? `(${view.columnList.map((c) => `\`${c}\``).join(',')})` : ''} AS ${view.select}${view.checkOption === 'NONE' ? '' : ` WITH ${view.checkOption} CHECK OPTION`}`;
    this.commitDdl(session, st, { mysql: logged, sqlite, kind: 'create-view', view });
    return ok();
  }

  /** The `[db.]name, …` list of a DROP TABLE or DROP VIEW, each name with its database (the session's when not named), in order. */
  private *dropTargets(session: Session, list: string): Generator<{ dbName: string; st: DbState | undefined; name: string }> {
    for (const raw of list.split(',').map((x) => x.trim())) {
      const { database, table } = splitQualified(raw);
      const dbName = database ?? session.database;
      if (!dbName) throw mysqlErrors.noDatabase();
      yield { dbName, st: this.dbs.get(dbName), name: table };
    }
  }

  /** DROP VIEW [IF EXISTS] v[, …] [RESTRICT | CASCADE]: all or nothing, as MySQL 8.0 drops them (manual, DROP VIEW). */
  private dropView(session: Session, sql: string, ok: () => StatementResult): StatementResult {
    const m = /^drop\s+view\s+(if\s+exists\s+)?([\s\S]+?)(?:\s+(?:restrict|cascade))?\s*;?$/i.exec(sql.trim());
    if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
    const found: { st: DbState; view: ViewDef }[] = [];
    const missing: string[] = [];
    for (const { dbName, st, name } of this.dropTargets(session, m[2]!)) {
      const view = st?.views.get(name);
      if (view) found.push({ st: st!, view });
      else if (st?.tables.has(name)) throw notView(dbName, name);
      else missing.push(`${dbName}.${name}`);
    }
    // ER_BAD_TABLE_ERROR naming every missing view
    if (missing.length && !m[1]) throw mysqlErrors.unknownTable(missing.join(','));
    for (const name of missing) note(mysqlErrors.unknownTable(name));
    this.requireNoTx(session, 'DROP VIEW');
    for (const { st, view } of found) this.commitDdl(session, st, { mysql: sql, sqlite: [`DROP VIEW IF EXISTS ${q(view.name)}`], kind: 'drop-view', view });
    return ok();
  }

  /** SHOW CREATE VIEW v (and SHOW CREATE TABLE of a view): MySQL 8.0's four columns. */
  private showCreateView(session: Session, sql: string, rows: (c: string[], d: unknown[][]) => StatementResult): StatementResult {
    const { st, table } = this.resolveTable(session, sql.trim().split(/\s+/).slice(3).join(' ').replace(/;$/, ''));
    const view = st.views.get(table);
    if (!view) throw st.tables.has(table) ? notView(st.name, table) : mysqlErrors.noSuchTable(st.name, table);
    return rows(['View', 'Create View', 'character_set_client', 'collation_connection'], [[table, showCreateView(view, st.name, st.tables, session.database), 'utf8mb4', 'utf8mb4_0900_ai_ci']]);
  }

  /** A view's columns as a table definition with no keys (DESCRIBE, INFORMATION_SCHEMA.COLUMNS). */
  private viewAsTable(st: DbState, view: ViewDef): TableDef {
    let sampled: (string | undefined)[] = [];
    try {
      const r = st.db.exec(`SELECT ${view.columns.map((c) => `typeof(${q(c)})`).join(', ')} FROM ${q(view.name)} LIMIT 1`);
      sampled = (r[0]?.values[0] ?? []).map((v) => String(v));
    } catch {
      // a view whose tables have gone: its expressions are shown as text
    }
    return { name: view.name, columns: viewColumnDefs(view, st.tables, sampled), primaryKey: [], indexes: [] };
  }

  /** Each view of a database as INFORMATION_SCHEMA shows it. */
  private schemaViews(st: DbState): SchemaTable[] {
    return [...st.views.values()].map((v) => ({ def: this.viewAsTable(st, v), rows: 0, autoIncrement: null, view: { definition: canonicalSelect(v, st.name, st.tables, true), checkOption: v.checkOption, updatable: isUpdatable(v), definer: v.definer, security: v.security } }));
  }

  private alterTable(session: Session, sql: string, ok: (n?: number) => StatementResult, logged = sql): StatementResult {
    const m = /^alter\s+table\s+(\S+)\s+(.*)$/is.exec(sql.trim().replace(/;$/, ''));
    if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
    const { st, table } = this.resolveTable(session, m[1]!);
    const def = st.tables.get(table);
    // ER_WRONG_OBJECT: MySQL alters only base tables, a view's RENAME included
    if (!def) throw st.views.has(table) ? wrongObject(st.name, table, 'BASE TABLE') : mysqlErrors.noSuchTable(st.name, table);
    this.requireNoTx(session, 'ALTER TABLE');
    const renameTo = /^rename\s+(?:to\s+|as\s+)?(\S+)$/i.exec(m[2]!.trim());
    if (renameTo && !/^column\b/i.test(renameTo[1]!)) {
      this.renameTable(session, m[1]!, renameTo[1]!, logged);
      return ok(0);
    }
    const { next, sqlite, rowsCopied, verify } = planAlterTable(st.db, def, m[2]!, { database: st.name, tables: st.tables, foreignKeyChecks: session.foreignKeyChecks });
    this.checkNamesFree(st, next);
    // a changed data type makes MySQL copy the table, which it reports as rows affected
    const rows = rowsCopied ? rowCount(st.db, table) : 0;
    // a CHECK constraint added or enforced holds for the rows, read once the table is altered
    const holds = () => {
      const broken = verify.find((c) => this.violatesCheck(st, next, c.expr));
      if (broken) throw new MySqlError(3819, 'HY000', violated(broken.name));
    };
    this.commitDdl(session, st, { mysql: logged, sqlite, kind: 'alter-table', table }, undefined, next, holds);
    return ok(rows);
  }

  /**
   * RENAME TABLE / ALTER TABLE … RENAME TO: the table, its keys' indexes and its capture triggers
   * take the new name. RENAME TABLE renames a view too (MySQL 8.0 manual, RENAME TABLE).
   */
  private renameTable(session: Session, rawFrom: string, rawTo: string, logged: string): void {
    const from = this.resolveTable(session, rawFrom);
    const def = from.st.tables.get(from.table);
    const view = def ? undefined : from.st.views.get(from.table);
    if (!def && !view) throw mysqlErrors.noSuchTable(from.st.name, from.table);
    const to = this.resolveTable(session, rawTo);
    if (to.st !== from.st) throw mysqlErrors.notSupported(`moving a ${view ? 'view' : 'table'} to another database in the embedded source`);
    if (to.st.tables.has(to.table) || to.st.views.has(to.table)) throw mysqlErrors.tableExists(to.table);
    if (view) {
      this.renameView(session, from.st, view, to.table, logged);
      return;
    }
    if (!def) return;
    const next: TableDef = { ...structuredClone(def), name: to.table };
    const sqlite = [`ALTER TABLE ${q(from.table)} RENAME TO ${q(to.table)}`];
    for (const ix of def.indexes) {
      // keys declared inline by an earlier version are SQLite's own and follow the table
      if (!hasOwnIndex(from.st.db, from.table, ix.name)) continue;
      sqlite.push(`DROP INDEX ${q(sqliteIndexName(from.table, ix.name))}`, sqliteCreateIndex(to.table, ix, def));
    }
    this.commitDdl(session, from.st, { mysql: logged, sqlite, kind: 'rename-table', table: from.table }, undefined, next);
  }

  /**
   * A view renamed: the SQLite view is made again under the new name over the same translated
   * SELECT, logged as a create-view that names the view's old name, so a replay renames it too.
   */
  private renameView(session: Session, st: DbState, view: ViewDef, to: string, logged: string): void {
    const stored = st.db.exec('SELECT sql FROM sqlite_master WHERE type = ? AND name = ?', ['view', view.name])[0]?.values[0]?.[0];
    const head = `CREATE VIEW ${q(view.name)} `;
    if (typeof stored !== 'string' || !stored.startsWith(head)) throw mysqlErrors.notSupported(`renaming the view '${view.name}' in the embedded source`);
    const sqlite = [`DROP VIEW ${q(view.name)}`, `CREATE VIEW ${q(to)} ${stored.slice(head.length)}`];
    this.commitDdl(session, st, { mysql: logged, sqlite, kind: 'create-view', view: { ...view, name: to }, renamedFrom: view.name });
  }

  private dml(session: Session, sql: string, ok: (n?: number, e?: Partial<StatementResult>) => StatementResult, rows: (c: string[], d: unknown[][]) => StatementResult, original: string): StatementResult {
    const { strict } = sqlModeEffects(session.sqlMode);
    return datesReadFor(sql, () => this.dmlStatement(session, sql, ok, rows, original), strict);
  }

  private dmlStatement(session: Session, sql: string, ok: (n?: number, e?: Partial<StatementResult>) => StatementResult, rows: (c: string[], d: unknown[][]) => StatementResult, original: string): StatementResult {
    if (readsInformationSchema(sql, session.database)) {
      if (!/^\s*(select|with|\()/i.test(sql)) throw new MySqlError(1044, '42000', `Access denied for user '${ACCOUNT.replace('@', "'@'")}' to database 'information_schema'`);
      const catalog: SchemaCatalog = new Map([...this.dbs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, st]) => [name, [...this.schemaTables(st), ...this.schemaViews(st)]]));
      const r = queryInformationSchema(this.SQL, catalog, sql);
      return rows(r.columns, r.rows);
    }
    if (session.locks) checkLocks(sql, session.database, session.locks, (db, table) => this.dbs.get(db)?.tables.has(table) ?? false);
    const { st, text, lenient, ignore, multi, ordered, copies } = this.translateDml(session, sql);
    // INSERT/UPDATE IGNORE warns for each row a duplicate key skips (REPLACE and upserts resolve theirs)
    session.diagnostics.ignoring = ignore === true;
    const isRead = /^\s*(select|with|\()/i.test(text) && !/^\s*with\b[\s\S]*\b(insert|update|delete)\b/i.test(text);
    if (!session.tx && !session.autocommit && !isRead) session.tx = { db: null, statements: [], savepoints: [] };
    const params = boundVariables(text, session.vars);
    if (session.tx) {
      if (!isRead) {
        if (session.tx.db && session.tx.db !== st) throw mysqlErrors.notSupported('a transaction that writes to two databases in the embedded source');
        if (!session.tx.db) {
          session.tx.db = st;
          st.db.run('BEGIN');
          // savepoints set before the first write stand at the transaction's start
          for (const sp of session.tx.savepoints) st.db.run(`SAVEPOINT ${(sp.sqlite = `loupe_user_${this.nextSavepoint++}`)}`);
        }
        session.tx.statements.push(asWritten(session, original));
      }
    }
    if (lenient) st.db.run('UPDATE __loupe_mode SET strict = 0');
    if (!session.foreignKeyChecks) st.db.run('UPDATE __loupe_fk SET checks = 0');
    const autoIds = autoIncrementRequest(text, st.tables);
    const generating = generatesIds(text, st.tables);
    const counterBefore = autoIds ? (counters(st.db).get(autoIds.table) ?? 0) : 0;
    const isUpdate = /^\s*update\b/i.test(text);
    const weighed = lenient && /^\s*(insert|replace)\b/i.test(text);
    // the REPLACE triggers (replace.ts) log what MySQL logs
    const replacing = /^\s*replace\b/i.test(text);
    if (replacing) st.db.run('UPDATE __loupe_replace SET active = 1, victim = NULL, entry = NULL, same = 0');
    let res;
    let affected: number;
    let lastChange: number;
    // an UPDATE's rows matched, which the OK packet's info tells beside those changed, and an
    // INSERT's rows given (SQLite's count: inserted, replacing or updating an upsert's duplicate)
    let matched = 0;
    let records = 0;
    const inserting = /^\s*(insert|replace)\b/i.test(text);
    // a SELECT's columns that are exact arithmetic, shown as DECIMAL text (decimal-display.ts)
    let exactColumns: ReturnType<typeof calcColumns>;
    try {
      if (copies) copyTables(st.db, copies, (c) => this.dbs.get(c.database)!.db);
      const before = isUpdate ? scalar(prepared(st).totalChanges) : 0;
      lastChange = weighed || multi || ordered || generating || (isUpdate && st.cascades) ? scalar(prepared(st).lastChange) : 0;
      if (multi || ordered) {
        // several SQLite statements as one MySQL statement: all or nothing; MySQL counts the
        // rows changed (or deleted) in every table, which are the rows the capture triggers logged
        res = [];
        let matched: number | undefined;
        if (multi) atomically(st.db, () => multi.forEach((s) => st.db.run(s, boundVariables(s, session.vars))));
        else matched = runInOrder(st.db, ordered!, session.vars);
        affected = scalar(prepared(st).ownSince, [lastChange]);
        return this.finishWrite(session, st, original, affected, ok, undefined, isUpdate && matched !== undefined ? updateInfo(matched, affected, session) : undefined);
      }
      // a derived table that only assigns variables is filled first, as MySQL does
      const hoisted = hoistConstantAssignments(text);
      for (const first of hoisted?.first ?? []) st.db.exec(first, params);
      if (isRead) exactColumns = calcColumns(hoisted?.text ?? text);
      // a read's INTEGERs exact (exact-integers.ts); a write gives no rows
      res = isRead ? execExact(st.db, hoisted?.text ?? text, params) : st.db.exec(hoisted?.text ?? text, params);
      affected = st.db.getRowsModified();
      if (isUpdate) matched = affected;
      else if (inserting) records = affected;
      // total_changes() counts the capture trigger's rows too: what is left after the
      // statement's own rows is the rows whose values really changed (with cascading foreign
      // keys, the capture trigger's rows are counted instead, as other triggers write rows too)
      if (isUpdate && st.cascades) affected = scalar(prepared(st).ownSince, [lastChange]);
      else if (isUpdate) affected = scalar(prepared(st).totalChanges) - before - affected;
      else if (weighed) affected = scalar(prepared(st).weightSince, [lastChange]) + (replacing ? scalar(prepared(st).sameRows) : 0);
    } catch (err) {
      const error = this.translateError(err as Error, st, text, original);
      // the values InnoDB handed out stay used, whether the rows went in, were ignored or failed;
      // a value refused in the first row fails before InnoDB is asked for any (fill_record comes
      // before write_row), so then none are used (an upsert's update comes after the write)
      if (autoIds && !(refusedInFirstRow(error, autoIds.rows) && !/\bon\s+conflict\b/i.test(text))) raiseCounter(st.db, autoIds.table, counterBefore + autoIds.rows);
      throw error;
    } finally {
      if (lenient) st.db.run('UPDATE __loupe_mode SET strict = 1');
      if (!session.foreignKeyChecks) st.db.run('UPDATE __loupe_fk SET checks = 1');
      if (replacing) st.db.run('UPDATE __loupe_replace SET active = 0, victim = NULL, entry = NULL');
      if (copies) dropCopies(st.db, copies);
    }
    if (isRead) {
      const r = res[res.length - 1];
      // sql.js gives no result for a query without rows; MySQL still names its columns
      let columns = r?.columns ?? columnNames(st.db, text);
      // SQLite names columns after the text it ran; MySQL after the select list as typed
      // (as typed, SQLite's name is MySQL's too, but for a string literal, named after its text)
      const names = text !== sql ? selectItemNames(sql) : /['"]/.test(sql) ? selectItemNames(sql, true) : undefined;
      if (names && names.length === columns.length) columns = columns.map((c, i) => names[i] ?? c);
      const values = (r?.values ?? []).map((v) => v.map(blobOut));
      return rows(columns, exactColumns && exactColumns.length === columns.length ? showDecimals(values, exactColumns) : values);
    }
    // MySQL counts an UPDATE's changed rows, not the rows it matched (no CLIENT_FOUND_ROWS)
    let insertId: number | undefined;
    // LAST_INSERT_ID is the AUTO_INCREMENT value; a table without one leaves it 0
    if (/^\s*(insert|replace)/i.test(text) && this.hasAutoIncrement(st, text)) insertId = scalar(prepared(st).lastId);
    // values the statement generated: the first of them is the OK packet's insert id and the
    // session's LAST_INSERT_ID() (a statement that gives its ids leaves LAST_INSERT_ID() as it was)
    const firstGenerated = generating ? scalar(prepared(st).firstInserted, [lastChange, generating]) : 0;
    if (firstGenerated > 0) {
      insertId = firstGenerated;
      session.lastInsertId = firstGenerated;
    }
    if (autoIds) raiseCounter(st.db, autoIds.table, counterBefore + autoIds.rows);
    let info: string | undefined;
    if (isUpdate) info = updateInfo(matched, affected, session);
    else if (inserting) {
      // MySQL's ER_INSERT_INFO (sql_insert.cc), for more than one row or INSERT … SELECT: as
      // Duplicates, the rows skipped under IGNORE, else those deleted or updated (REPLACE, upsert)
      const skipped = session.diagnostics.duplicates;
      const given = records + skipped;
      const duplicates = skipped || (replacing ? affected - records : weighed ? scalar(prepared(st).updatedSince, [lastChange]) : 0);
      if (given > 1 || INSERT_SELECT.test(original)) info = `Records: ${given}  Duplicates: ${duplicates}  Warnings: ${session.diagnostics.count}`;
    }
    return this.finishWrite(session, st, original, affected, ok, insertId, info);
  }

  /** A write's answer; outside a transaction its changes are committed to the change log first. */
  private finishWrite(session: Session, st: DbState, original: string, affected: number, ok: (n?: number, e?: Partial<StatementResult>) => StatementResult, insertId?: number, info?: string): StatementResult {
    const extra = { ...(insertId ? { insertId } : {}), ...(info ? { info } : {}) };
    if (session.tx) return ok(affected, extra);
    const tx = this.captureAndCommit(st, session, [asWritten(session, original)]);
    return ok(affected, { ...extra, ...(tx ? { position: { file: tx.file, pos: tx.pos } } : {}) });
  }

  /**
   * A statement naming tables of several databases: it runs in the database it writes (a read in
   * the session's database, or the first one named), and the tables of the others are read from
   * copies (cross-database.ts). Undefined for the usual statement, which names one database.
   */
  private acrossDatabases(session: Session, sql: string): { text: string; database: string; copies: TableCopy[] } | undefined {
    const qualifiers = new Set(databaseQualifiers(sql, (name) => this.dbs.has(name)).map((q) => q.database));
    if (qualifiers.size === 0 || (qualifiers.size === 1 && (session.database === null || qualifiers.has(session.database)))) return undefined;
    return planCopies(sql, session.database, (db, table) => this.dbs.get(db)?.tables.get(table), (db) => this.dbs.has(db));
  }

  /** MySQL → SQLite for the statements users type: qualified names, NOW(), INSERT IGNORE, ON DUPLICATE KEY. */
  private translateDml(session: Session, sql: string): { st: DbState; text: string; lenient: boolean; ignore?: boolean; multi?: string[]; ordered?: OrderedDml; copies?: TableCopy[] } {
    let text = rewriteLikeEscapes(rewriteStringLiterals(rewriteIntroducers(assignInOrder(withoutQueryParentheses(sql) ?? sql, (table, column) => this.defaultExpression(session, table, column)))));
    text = withQueryParentheses(text) ?? text;
    text = withQuantifiedComparisons(text) ?? text;
    text = rewriteVariableAssignments(text) ?? text;
    let dbName = session.database;
    // tables of other databases than the one the statement runs in are read from copies (cross-database.ts)
    const across = this.acrossDatabases(session, text);
    if (across) text = across.text;
    // `db.table` → `table`, routing the statement to that database.
    const qualifiers = databaseQualifiers(text, (name) => this.dbs.has(name));
    if (qualifiers.length) {
      dbName = qualifiers.at(-1)!.database;
      text = withoutQualifiers(text, qualifiers);
    }
    if (across) dbName = across.database;
    if (!dbName) throw mysqlErrors.noDatabase();
    const st = this.requireDb(dbName);
    let lenient = false;
    // IGNORE alone turns refused values into warnings (REPLACE and upserts only relax the key checks)
    let ignore = false;
    text = text.replace(/\b(now|sysdate|current_timestamp|localtime|localtimestamp|utc_timestamp)\s*\(\s*0?\s*\)/gi, "datetime('now')");
    text = text.replace(/\b(curdate|current_date|utc_date)\s*\(\s*\)/gi, "date('now')");
    text = text.replace(/\bunix_timestamp\s*\(\s*\)/gi, "CAST(strftime('%s','now') AS INTEGER)");
    text = text.replace(/\b(?:database|schema)\s*\(\s*\)/gi, session.database ? `'${session.database.replace(/'/g, "''")}'` : 'NULL');
    // the embedded server's one account
    text = text.replace(/\b(?:user|current_user|session_user|system_user)\s*\(\s*\)/gi, `'${ACCOUNT}'`);
    text = text.replace(/\bversion\s*\(\s*\)/gi, `'${VERSION}'`);
    // the session's values, not the shared connection's last_insert_rowid()
    text = text.replace(/\blast_insert_id\s*\(\s*\)/gi, String(session.lastInsertId));
    text = text.replace(/\brow_count\s*\(\s*\)/gi, String(session.rowCount));
    if (/\bfound_rows\s*\(/i.test(text)) text = withFoundRows(text, session.foundRows);
    text = text.replace(/\bconnection_id\s*\(\s*\)/gi, String(session.thread));
    text = rewriteIntervals(text);
    text = rewriteExpressions(text, this.systemVariables(session), columnKinds(text, st.tables), this.systemVariables());
    // MySQL's modifiers: the priorities (and QUICK, and DELAYED, which MySQL 8.0 accepts and
    // ignores) change nothing with one writer; IGNORE is SQLite's OR IGNORE with relaxed checks.
    const head = DML_MODIFIERS.exec(text);
    if (head) {
      const verb = head[1]!.toUpperCase();
      const words = head[2]!.trim().toUpperCase().split(/\s+/);
      ignore = words.includes('IGNORE');
      text = `${verb}${ignore && verb !== 'DELETE' ? ' OR IGNORE' : ''}${text.slice(head[0].length)}`;
      if (ignore) lenient = true;
      ignore = ignore && verb !== 'DELETE';
    }
    // UPDATE/DELETE with a table alias or of several tables (multi-table-dml.ts)
    const copies = across?.copies;
    const effects = sqlModeEffects(session.sqlMode);
    const plan = planTableDml(text, st.name, st.tables, !ignore && effects.strict, new Map(copies?.map((c) => [c.temp, c.def])));
    if (plan?.kind === 'multi') {
      const statements = plan.statements.map((s) => this.comparedAsMySql(st, s, lenient));
      return { st, text: statements.join(';\n'), lenient, ignore, multi: statements, copies };
    }
    if (plan) text = plan.text;
    text = rewriteRowAlias(text, st.tables) ?? text;
    text = rewriteInsertSet(text) ?? text;
    checkInsertColumns(text);
    if (/^\s*replace\b/i.test(text)) lenient = true;
    const dup = /\bon\s+duplicate\s+key\s+update\b/i.exec(text);
    if (dup) {
      const head = text.slice(0, dup.index);
      const tail = text.slice(dup.index + dup[0].length).replace(/\bvalues\s*\(\s*(`[^`]+`|\w+)\s*\)/gi, (_m, c: string) => `excluded.${q(unquoteIdent(c))}`);
      text = `${head} ON CONFLICT DO UPDATE SET ${tail}`;
      lenient = true;
    }
    text = rewriteStoredValues(text, st.tables, { strict: effects.strict && !ignore, ignore, zeroGeneratesId: effects.zeroGeneratesId }) ?? text;
    text = this.comparedAsMySql(st, text, lenient && /^\s*(?:update|delete)\b/i.test(text));
    const ordered = orderedDml(text);
    if (ordered) return { st, text: ordered.each, lenient, ignore, ordered, copies };
    text = rewriteDmlLimit(text) ?? text;
    return { st, text: castBigVariables(text, session.vars), lenient, ignore, copies };
  }

  /** Columns compared as MySQL compares their types: DECIMAL, date/time, text and number columns (column-comparisons.ts). */
  private comparedAsMySql(st: DbState, text: string, ignoring: boolean): string {
    let tables = st.tables;
    // a view's columns are those of its tables (viewColumnDefs), DECIMALs included
    for (const view of st.views.values()) {
      if (!mentions(text, view.name)) continue;
      if (tables === st.tables) tables = new Map(st.tables);
      tables.set(view.name, { name: view.name, columns: viewColumnDefs(view, st.tables, []), primaryKey: [], indexes: [] });
    }
    const columns = comparedColumnsIn(text, tables);
    return (columns && compareAsMySql(text, columns, ignoring)) ?? text;
  }

  private translateError(err: Error, st: DbState, text: string, original: string): MySqlError {
    if (err instanceof MySqlError) return err;
    const msg = err.message;
    let m: RegExpExecArray | null;
    if ((m = /^ERROR(\d{4}):(.*)$/s.exec(msg))) return new MySqlError(Number(m[1]), storeErrorState(Number(m[1])), m[2]!);
    if (msg === 'datatype mismatch') return this.rowidMismatch(st, text);
    // SQLite's AUTOINCREMENT past 2^63 − 1 (SQLITE_FULL): MySQL 8.0's InnoDB counter has run out, HA_ERR_AUTOINC_READ_FAILED (MariaDB 10.11 says 167, out of range)
    if (msg === 'database or disk is full' && /^\s*(insert|replace)\b/i.test(text)) return new MySqlError(1467, 'HY000', 'Failed to read auto-increment value from storage engine');
    if ((m = /^(Duplicate entry '.*' for key '.*')$/s.exec(msg))) {
      const inner = /^Duplicate entry '(.*)' for key '(.*)'$/s.exec(m[1]!)!;
      return mysqlErrors.duplicate(inner[1]!, inner[2]!);
    }
    // SQLite writes through no view; MySQL would write through a simple one, which is not done here
    if ((m = /cannot modify (\S+) because it is a view/.exec(msg))) return mysqlErrors.notSupported(`INSERT, UPDATE or DELETE through the view '${m[1]}' in the embedded source`);
    // a view whose table or column has gone since it was made (ER_VIEW_INVALID, MySQL 8.0's error message reference)
    if ((m = /no such (?:table|column): (?:\w+\.)?(\S+)/.exec(msg)) && !maskQuoted(original).includes(m[1]!.replace(/^"|"$/g, ''))) {
      const view = namedTables(original).find((r) => !r.database && st.views.has(r.table));
      if (view) return new MySqlError(1356, 'HY000', `View '${st.name}.${view.table}' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them`);
    }
    // a qualifier that is not a database of ours was left in the statement: it names the database
    if ((m = /no such table: (?:(\w+)\.)?(\S+)/.exec(msg))) return mysqlErrors.noSuchTable(m[1] ?? st.name, m[2]!);
    if ((m = /no such column: (\S+)/.exec(msg))) {
      const column = m[1]!.replace(/^"|"$/g, '');
      return mysqlErrors.unknownColumn(column, unknownColumnClause(original, column));
    }
    if ((m = /table \S+ has no column named (\S+)/.exec(msg))) return mysqlErrors.unknownColumn(m[1]!);
    if ((m = /near "((?:[^"]|"")*)": syntax error/.exec(msg))) {
      // MySQL's multi-table DELETE takes `DELETE t1[, t2] FROM …`: without FROM its parser stops
      // after the table list, where SQLite stops at the first table.
      const del = MULTI_DELETE_HEAD.exec(original);
      if (del && !/^(FROM|USING)\b|^,/i.test(original.slice(del[0].length))) {
        const at = del[0].length;
        return mysqlErrors.syntax(original.slice(at, at + 80), original.slice(0, at).split('\n').length);
      }
      const tok = m[1]!.replace(/""/g, '"');
      const at = nthIndex(original, tok, stoppedAtOccurrence(st.db, text, tok));
      const near = at >= 0 ? original.slice(at) : tok;
      const line = at >= 0 ? original.slice(0, at).split('\n').length : 1;
      return mysqlErrors.syntax(near.slice(0, 80), line);
    }
    if ((m = /unrecognized token: "((?:[^"]|"")*)"/.exec(msg))) {
      // an unterminated string or quoted name: MySQL quotes from its opening quote to the end
      const tok = m[1]!.replace(/""/g, '"');
      const at = original.lastIndexOf(tok);
      if (at >= 0) return mysqlErrors.syntax(original.slice(at, at + 80), original.slice(0, at).split('\n').length);
    }
    if (/incomplete input|unrecognized token/.test(msg)) return mysqlErrors.syntax('', original.split('\n').length);
    if ((m = /NOT NULL constraint failed: \w+\.(\w+)/.exec(msg))) {
      const col = m[1]!;
      const cols = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+\S+\s*\(([^)]*)\)/i.exec(text);
      if (cols && !cols[1]!.split(',').some((c) => unquoteIdent(c.trim()) === col)) return mysqlErrors.noDefault(col);
      return mysqlErrors.notNull(col);
    }
    if ((m = /UNIQUE constraint failed: (\w+)\./.exec(msg))) return mysqlErrors.duplicate('', `${m[1]}.PRIMARY`);
    if ((m = /UNIQUE constraint failed: index '(.+?)__(.+)'/.exec(msg))) return mysqlErrors.duplicate('', `${m[1]}.${m[2]}`);
    if (/has \d+ columns but \d+ values were supplied|\d+ values for \d+ columns|all VALUES must have the same number of terms/.test(msg)) return mysqlErrors.columnCount();
    if ((m = /no such function: (\w+)/.exec(msg))) return new MySqlError(1305, '42000', `FUNCTION ${st.name}.${m[1]} does not exist`);
    return mysqlErrors.general(msg);
  }

  /**
   * SQLite rejects a non-integer for an INTEGER PRIMARY KEY before any trigger runs; MySQL says
   * which value and column. The value is read back from the statement when it is a plain
   * INSERT … (cols) VALUES (…) or UPDATE … SET col = value.
   */
  private rowidMismatch(st: DbState, text: string): MySqlError {
    const ins = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+(\S+)\s*\(([^)]*)\)\s*values\s*\(([^)]*)\)/i.exec(text);
    const upd = /^\s*update\s+(\S+)\s+set\s+(.*?)(?:\s+where\s|$)/is.exec(text);
    const table = unquoteIdent((ins?.[1] ?? upd?.[1] ?? '').replace(/^.*\./, ''));
    const def = st.tables.get(table);
    const pk = def?.primaryKey.length === 1 ? def.primaryKey[0]! : 'id';
    let value: string | undefined;
    if (ins) {
      const cols = ins[2]!.split(',').map((c) => unquoteIdent(c.trim()));
      const vals = ins[3]!.split(',').map((v) => v.trim());
      const i = cols.indexOf(pk);
      if (i >= 0 && vals[i] !== undefined) value = vals[i]!.replace(/^'(.*)'$/s, '$1');
    } else if (upd) {
      const a = new RegExp(`(?:^|,)\\s*\`?${pk}\`?\\s*=\\s*('(?:[^']|'')*'|[^,]+)`, 'i').exec(upd[2]!);
      if (a) value = a[1]!.trim().replace(/^'(.*)'$/s, '$1');
    }
    return new MySqlError(1366, 'HY000', value !== undefined ? `Incorrect integer value: '${value}' for column '${pk}' at row 1` : `Incorrect integer value for column '${pk}' at row 1`);
  }

  private captureAndCommit(st: DbState, session: Session, statements: string[]): BinlogTransaction | undefined {
    const p = prepared(st);
    const values: ExactValue[][] = [];
    // the rowid exact: an AUTO_INCREMENT BIGINT key is the rowid, and may be beyond 2^53
    while (p.select.step()) values.push(getExact(p.select));
    p.select.reset();
    if (values.length === 0) return undefined;
    p.clear.run();
    p.clear.reset();
    const events: RowChange[] = [];
    // rows a cascading foreign key action changed: no row events (foreign-keys.ts), kept only for replay
    const cascaded: NonNullable<BinlogTransaction['cascaded']> = [];
    for (const [tbl, op, rid, b, a, cas] of values) {
      const change: RowChange = {
        table: tbl as string,
        op: op as RowChange['op'],
        rowid: rid as number | bigint,
        // SQLite's JSON writes a BIGINT's digits exactly; parseExactJson keeps them
        before: b === null ? null : (parseExactJson(b as string) as Row),
        after: a === null ? null : (parseExactJson(a as string) as Row),
      };
      if (cas === 1) cascaded.push({ ...change, at: events.length });
      else events.push(change);
    }
    return this.appendTx({ database: st.name, thread: session.thread, query: statements.join(';\n'), events, ...(cascaded.length ? { cascaded } : {}) });
  }

  private appendTx(tx: { database: string; thread: number; query: string; events: RowChange[]; cascaded?: BinlogTransaction['cascaded']; ddl?: BinlogTransaction['ddl'] }): BinlogTransaction {
    const seq = this.binlog.nextSeq;
    const written = this.binlog.append({ seq, gtid: `${this.meta.serverUuid}:${seq}`, ts: this.now(), ...tx });
    this.history.add(written);
    const st = this.dbs.get(tx.database);
    if (st) st.appliedThrough = { file: written.file, pos: written.nextPos };
    this.sinceSnapshot++;
    for (const l of this.listeners) {
      try {
        l(written);
      } catch (err) {
        this.log.warn('commit listener failed', { error: (err as Error).message });
      }
    }
    for (const w of [...this.waiters]) w();
    if (this.sinceSnapshot >= (this.opts.snapshotEvery ?? 5000)) this.snapshot();
    return written;
  }

  private commit(session: Session): BinlogPosition | undefined {
    const tx = session.tx!;
    session.tx = undefined;
    if (!tx.db) return undefined;
    tx.db.db.run('COMMIT');
    const written = this.captureAndCommit(tx.db, session, tx.statements);
    return written ? { file: written.file, pos: written.pos } : undefined;
  }

  /** SAVEPOINT, ROLLBACK TO and RELEASE (savepoints.ts); outside a transaction only SAVEPOINT passes, and keeps nothing. */
  private savepoint(session: Session, sp: SavepointStatement): void {
    // with autocommit off every statement is inside a transaction, so a savepoint opens one
    if (!session.tx && !session.autocommit) session.tx = { db: null, statements: [], savepoints: [] };
    const tx = session.tx;
    if (!tx) {
      if (sp.kind !== 'set') throw savepointMissing(sp.name);
      return;
    }
    const at = findSavepoint(tx.savepoints, sp.name);
    const db = tx.db?.db;
    if (sp.kind === 'set') {
      if (at >= 0) tx.savepoints.splice(at, 1);
      const sqlite = db ? `loupe_user_${this.nextSavepoint++}` : undefined;
      if (sqlite) db!.run(`SAVEPOINT ${sqlite}`);
      tx.savepoints.push({ name: sp.name, statements: tx.statements.length, ...(sqlite ? { sqlite } : {}) });
      return;
    }
    if (at < 0) throw savepointMissing(sp.name);
    const target = tx.savepoints[at]!;
    if (sp.kind === 'release') {
      if (db && target.sqlite) db.run(`RELEASE ${target.sqlite}`);
      tx.savepoints.length = at;
      return;
    }
    tx.savepoints.length = at + 1;
    if (!db || !target.sqlite) return;
    undoKeepingCounters(db, `ROLLBACK TO ${target.sqlite}`);
    tx.statements.length = target.statements;
  }

  private rollback(session: Session): void {
    const tx = session.tx!;
    session.tx = undefined;
    if (!tx.db) return;
    undoKeepingCounters(tx.db.db, 'ROLLBACK');
  }

  private requireNoTx(session: Session, what: string): void {
    // MySQL commits implicitly before DDL.
    if (session.tx) this.commit(session);
    void what;
  }

  /** Applies a schema change and writes it to the binlog (the commit point). */
  /** A DDL statement applied and logged; `verify` runs on the changed tables before the change is kept (throwing undoes it). */
  private commitDdl(session: Session, st: DbState | null, ddl: NonNullable<BinlogTransaction['ddl']>, database?: string, def?: TableDef, verify?: () => void): void {
    const dbName = st?.name ?? database!;
    this.applyDdl(dbName, ddl, def, verify);
    // the statement as written, comments and all, as MySQL's binary log has it
    const logged = { ...ddl, mysql: asWritten(session, ddl.mysql) };
    this.appendTx({ database: dbName, thread: session.thread, query: logged.mysql, events: [], ddl: def ? { ...logged, def } : logged });
  }

  private applyDdl(dbName: string, ddl: NonNullable<BinlogTransaction['ddl']>, def?: TableDef, verify?: () => void): void {
    const tableDef = def ?? ddl.def;
    switch (ddl.kind) {
      case 'create-database':
        this.dbs.set(dbName, this.newDb(dbName, new this.SQL.Database()));
        this.writeDbList();
        return;
      case 'drop-database': {
        const st = this.dbs.get(dbName);
        st?.db.close();
        this.dbs.delete(dbName);
        fs.rmSync(path.join(this.opts.dir, 'databases', `${dbName}.sqlite`), { force: true });
        this.writeDbList();
        return;
      }
      case 'create-view':
      case 'drop-view': {
        const st = this.requireDb(dbName);
        const view = ddl.view!;
        st.db.run('SAVEPOINT loupe_ddl');
        try {
          for (const s of ddl.sqlite) st.db.run(s);
          if (ddl.renamedFrom !== undefined) st.db.run('DELETE FROM __loupe_views WHERE name = ?', [ddl.renamedFrom]);
          if (ddl.kind === 'create-view') st.db.run('INSERT OR REPLACE INTO __loupe_views (name, def) VALUES (?, ?)', [view.name, JSON.stringify(view)]);
          else st.db.run('DELETE FROM __loupe_views WHERE name = ?', [view.name]);
          st.db.run('RELEASE loupe_ddl');
        } catch (err) {
          st.db.run('ROLLBACK TO loupe_ddl');
          st.db.run('RELEASE loupe_ddl');
          throw err;
        }
        if (ddl.renamedFrom !== undefined) st.views.delete(ddl.renamedFrom);
        if (ddl.kind === 'create-view') st.views.set(view.name, view);
        else st.views.delete(view.name);
        return;
      }
      default: {
        const st = this.requireDb(dbName);
        const table = ddl.table!;
        const tables = new Map(st.tables);
        if (ddl.kind === 'drop-table' || ddl.kind === 'rename-table') tables.delete(table);
        if (ddl.kind !== 'drop-table' && tableDef) tables.set(tableDef.name, tableDef);
        // a renamed parent: the constraints that reference it follow it (MySQL 8.0 manual, RENAME TABLE)
        const changed = ddl.kind !== 'drop-table' && tableDef ? [tableDef.name] : [];
        if (ddl.kind === 'rename-table' && tableDef) {
          for (const { child } of referencing(tables, table)) {
            const moved = structuredClone(tables.get(child.name)!);
            for (const fk of moved.foreignKeys ?? []) if (fk.refTable === table) fk.refTable = tableDef.name;
            tables.set(moved.name, moved);
            if (!changed.includes(moved.name)) changed.push(moved.name);
          }
        }
        // the statement is atomic: a failing step leaves the database as it was
        st.db.run('SAVEPOINT loupe_ddl');
        try {
          this.dropTriggers(st, table);
          // SQLite checks every view when a table is renamed (and a rebuilt table is dropped and
          // renamed): the views step aside and come back as they were, as MySQL's stay as defined
          const views = (st.db.exec("SELECT name, sql FROM sqlite_master WHERE type = 'view'")[0]?.values ?? []) as [string, string][];
          for (const [name] of views) st.db.run(`DROP VIEW ${q(name)}`);
          for (const s of ddl.sqlite) st.db.run(s);
          for (const [, sql] of views) st.db.run(sql);
          if (ddl.kind === 'drop-table' || ddl.kind === 'rename-table') st.db.run('DELETE FROM __loupe_tables WHERE name = ?', [table]);
          for (const name of changed) {
            const d = tables.get(name)!;
            st.db.run('INSERT OR REPLACE INTO __loupe_tables (name, def) VALUES (?, ?)', [d.name, JSON.stringify(d)]);
            if (name === tableDef?.name) this.createTriggers(st, d);
          }
          refreshForeignKeyTriggers(st.db, st.name, tables);
          verify?.();
          st.db.run('RELEASE loupe_ddl');
        } catch (err) {
          st.db.run('ROLLBACK TO loupe_ddl');
          st.db.run('RELEASE loupe_ddl');
          throw err;
        }
        st.tables.clear();
        for (const [name, d] of tables) st.tables.set(name, d);
        st.cascades = [...tables.values()].some(isCascadeTarget);
      }
    }
  }

  /**
   * The foreign keys of a new table, checked as MySQL 8.0 checks them: constraint names unique in
   * the database (ER_FK_DUP_NAME) and, with foreign_key_checks on, each parent (foreign-keys.ts).
   */
  private checkNewForeignKeys(session: Session, st: DbState, def: TableDef): void {
    const taken = new Set([...st.tables.values()].flatMap((t) => (t.foreignKeys ?? []).map((k) => k.name.toLowerCase())));
    for (const fk of def.foreignKeys ?? []) {
      if (taken.has(fk.name.toLowerCase())) throw new MySqlError(1826, 'HY000', `Duplicate foreign key constraint name '${fk.name}'`);
      taken.add(fk.name.toLowerCase());
      if (session.foreignKeyChecks) checkParent(def, fk, fk.refTable === def.name ? def : st.tables.get(fk.refTable));
    }
  }

  /** A column's DEFAULT as an expression (`NULL` where it has none), for `SET c = DEFAULT` read by a later assignment. */
  private defaultExpression(session: Session, table: string, column: string): string | undefined {
    const { database, table: name } = splitQualified(table.replace(/\s*\.\s*/, '.'));
    const def = this.dbs.get(database ?? session.database ?? '')?.tables.get(name);
    const col = def?.columns.find((c) => c.name.toLowerCase() === unquoteIdent(column).toLowerCase());
    if (!col || col.autoIncrement) return undefined;
    return col.defaultExpr === null ? (col.nullable ? 'NULL' : undefined) : col.defaultExpr;
  }

  /** CHECK constraint names are the database's (ER_CHECK_CONSTRAINT_DUP_NAME). */
  private checkNamesFree(st: DbState, def: TableDef): void {
    const taken = new Set([...st.tables.values()].filter((t) => t.name !== def.name).flatMap((t) => (t.checks ?? []).map((c) => c.name.toLowerCase())));
    const clash = (def.checks ?? []).find((c) => taken.has(c.name.toLowerCase()));
    if (clash) throw new MySqlError(3822, 'HY000', `Duplicate check constraint name '${clash.name}'.`);
  }

  private dropTriggers(st: DbState, table: string): void {
    const res = st.db.exec(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`, [table]);
    for (const [name] of res[0]?.values ?? []) st.db.run(`DROP TRIGGER IF EXISTS ${q(name as string)}`);
  }

  /** Capture triggers (before/after images) and MySQL-worded duplicate-key checks. */
  private createTriggers(st: DbState, def: TableDef): void {
    const t = def.name;
    // a BLOB is logged as hex; hex is MySQL's HEX (mysql-functions.ts), which keeps a NULL NULL where SQLite's gives ''.
    // SQLite's own JSON writer, which writes a BIGINT's 64 bits exactly: json_object is MySQL's
    // (json-functions.ts), in JavaScript, which gets an INTEGER as a double (4611686018427387907 → …88000)
    const image = (alias: 'NEW' | 'OLD') => `json(jsonb_object(${def.columns.map((c) => `'${c.name.replace(/'/g, "''")}', ${c.name && sqliteType(c) === 'BLOB' ? `hex(${alias}.${q(c.name)})` : `${alias}.${q(c.name)}`}`).join(', ')}))`;
    // a table a cascading foreign key action can change marks the rows it changes that way (foreign-keys.ts)
    const [cas, casValue] = isCascadeTarget(def) ? [', cas', `, ${IN_CASCADE}`] : ['', ''];
    st.db.run(`CREATE TRIGGER ${q(`__loupe_ai_${t}`)} AFTER INSERT ON ${q(t)} WHEN ${NOT_REPLACING_A_ROW} BEGIN INSERT INTO __loupe_changes (tbl, op, rid, b, a${cas}) VALUES ('${t.replace(/'/g, "''")}', 'c', NEW.rowid, NULL, ${image('NEW')}${casValue}); END`);
    // MySQL writes no row event for a row an UPDATE leaves as it was; a value whose case alone
    // changed is a change (MySQL compares the stored bytes, compare_records), whatever the collation
    const changed = def.columns.map((c) => `OLD.${q(c.name)} IS NOT NEW.${q(c.name)}${ignoresCase(c) ? ' COLLATE BINARY' : ''}`).join(' OR ');
    st.db.run(`CREATE TRIGGER ${q(`__loupe_au_${t}`)} AFTER UPDATE ON ${q(t)} WHEN ${changed} BEGIN INSERT INTO __loupe_changes (tbl, op, rid, b, a${cas}) VALUES ('${t.replace(/'/g, "''")}', 'u', OLD.rowid, ${image('OLD')}, ${image('NEW')}${casValue}); END`);
    st.db.run(`CREATE TRIGGER ${q(`__loupe_ad_${t}`)} AFTER DELETE ON ${q(t)} BEGIN INSERT INTO __loupe_changes (tbl, op, rid, b, a${cas}) VALUES ('${t.replace(/'/g, "''")}', 'd', OLD.rowid, ${image('OLD')}, NULL${casValue}); END`);
    for (const sql of replaceTriggers(def, image)) st.db.run(sql);
    // MySQL (strict mode) rejects values that do not fit the column type; SQLite would keep them.
    const checks: string[] = [];
    for (const c of def.columns) {
      const col = `NEW.${q(c.name)}`;
      const name = c.name.replace(/'/g, "''");
      if (sqliteType(c) === 'INTEGER') {
        checks.push(`SELECT RAISE(ABORT, 'ERROR1366:Incorrect integer value: ''' || ${col} || ''' for column ''${name}'' at row 1') WHERE typeof(${col}) NOT IN ('integer', 'null')`);
      } else if (sqliteType(c) === 'REAL') {
        checks.push(`SELECT RAISE(ABORT, 'ERROR1366:Incorrect double value: ''' || ${col} || ''' for column ''${name}'' at row 1') WHERE typeof(${col}) NOT IN ('real', 'integer', 'null')`);
      } else if (c.baseType === 'decimal' || c.baseType === 'numeric') {
        const num = `(typeof(${col}) IN ('integer', 'real') OR (trim(${col}) GLOB '*[0-9]*' AND trim(${col}) NOT GLOB '*[^-+0-9.eE]*'))`;
        checks.push(`SELECT RAISE(ABORT, 'ERROR1366:Incorrect decimal value: ''' || ${col} || ''' for column ''${name}'' at row 1') WHERE ${col} IS NOT NULL AND NOT ${num}`);
      } else if (c.baseType === 'datetime' || c.baseType === 'timestamp' || c.baseType === 'date') {
        const fn = c.baseType === 'date' ? 'date' : 'datetime';
        const kind = c.baseType === 'date' ? 'date' : 'datetime';
        // SQLite's calendar has no zero date and no zero month or day, which MySQL stores outside NO_ZERO_DATE and NO_ZERO_IN_DATE (column-values.ts)
        const zeroParts = `(${col} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND (${col} GLOB '0000-*' OR ${col} GLOB '?????00-*' OR ${col} GLOB '????-??-00*'))`;
        checks.push(`SELECT RAISE(ABORT, 'ERROR1292:Incorrect ${kind} value: ''' || ${col} || ''' for column ''${name}'' at row 1') WHERE ${col} IS NOT NULL AND ${fn}(${col}) IS NULL AND NOT ${zeroParts}`);
      }
    }
    if (checks.length) {
      st.db.run(`CREATE TRIGGER ${q(`__loupe_tci_${t}`)} BEFORE INSERT ON ${q(t)} BEGIN ${checks.join('; ')}; END`);
      st.db.run(`CREATE TRIGGER ${q(`__loupe_tcu_${t}`)} BEFORE UPDATE ON ${q(t)} BEGIN ${checks.join('; ')}; END`);
    }
    const keys: IndexDef[] = [];
    if (def.primaryKey.length) keys.push({ name: 'PRIMARY', columns: def.primaryKey, unique: true });
    for (const ix of def.indexes) if (ix.unique) keys.push(ix);
    // the new row's values taken by another row of the key (`other` keeps the updated row out), and
    // MySQL's 1062 text for them; a prefix key compares (and names) the prefixes
    const found = (k: IndexDef, other: string) => `EXISTS (SELECT 1 FROM ${q(t)} WHERE ${k.columns.map((_c, i) => `${keyPartSql(k, i, undefined, def)} = ${keyPartSql(k, i, 'NEW')}`).join(' AND ')}${other})`;
    // MySQL 8.0.19 and later name the key with its table (print_keydup_error)
    const message = (k: IndexDef) => `'Duplicate entry ''' || ${k.columns.map((_c, i) => `COALESCE(${keyPartSql(k, i, 'NEW')}, 'NULL')`).join(` || '-' || `)} || ''' for key ''${`${t}.${k.name}`.replace(/'/g, "''''")}'''`;
    keys.forEach((k, i) => {
      const strict = `(SELECT strict FROM __loupe_mode) = 1`;
      st.db.run(`CREATE TRIGGER ${q(`__loupe_dki${i}_${t}`)} BEFORE INSERT ON ${q(t)} WHEN ${strict} AND ${found(k, '')} BEGIN SELECT RAISE(ABORT, ${message(k)}); END`);
      st.db.run(`CREATE TRIGGER ${q(`__loupe_dku${i}_${t}`)} BEFORE UPDATE ON ${q(t)} WHEN ${strict} AND ${found(k, ' AND rowid <> OLD.rowid')} BEGIN SELECT RAISE(ABORT, ${message(k)}); END`);
    });
    // with the key checks relaxed, the row a duplicate skips (INSERT/UPDATE IGNORE) is a warning
    // naming the first key it duplicates, in the order InnoDB checks them (replace.ts)
    const ordered = uniqueKeysInMySqlOrder(def);
    if (ordered.length) {
      const warning = (other: string) => `WHEN (SELECT strict FROM __loupe_mode) = 0 AND (${ordered.map((k) => found(k, other)).join(' OR ')}) BEGIN SELECT loupe_duplicate(CASE ${ordered.map((k) => `WHEN ${found(k, other)} THEN ${message(k)}`).join(' ')} END); END`;
      st.db.run(`CREATE TRIGGER ${q(`__loupe_dwi_${t}`)} BEFORE INSERT ON ${q(t)} ${warning('')}`);
      st.db.run(`CREATE TRIGGER ${q(`__loupe_dwu_${t}`)} BEFORE UPDATE ON ${q(t)} ${warning(' AND rowid <> OLD.rowid')}`);
    }
    // CHECK constraints (check-constraints.ts): a row for which one is false fails the statement,
    // or, under IGNORE, is skipped with the error as a warning; the first false one in name order
    // (as SHOW CREATE TABLE lists them) is the one named
    const enforced = sortedChecks(def.checks ?? []).filter((c) => c.enforced);
    if (enforced.length) {
      const fails = enforced.map((c) => ({ when: `NOT coalesce((${this.checkCondition(st, def, c.expr)}), 1)`, message: `'${violated(c.name).replace(/'/g, "''")}'` }));
      const any = fails.map((f) => f.when).join(' OR ');
      const first = `CASE ${fails.map((f) => `WHEN ${f.when} THEN ${f.message}`).join(' ')} END`;
      for (const [event, tag] of [['INSERT', 'i'], ['UPDATE', 'u']] as const) {
        st.db.run(`CREATE TRIGGER ${q(`__loupe_ck${tag}_${t}`)} BEFORE ${event} ON ${q(t)} WHEN loupe_ignoring() = 0 AND (${any}) BEGIN SELECT RAISE(ABORT, 'ERROR3819:' || ${first}); END`);
        st.db.run(`CREATE TRIGGER ${q(`__loupe_ckw${tag}_${t}`)} BEFORE ${event} ON ${q(t)} WHEN loupe_ignoring() = 1 AND (${any}) BEGIN SELECT loupe_row_skipped(3819, ${first}); SELECT RAISE(IGNORE); END`);
      }
    }
  }

  /**
   * A CHECK constraint's expression as SQLite evaluates it on the row being written (`NEW`):
   * translated as a query's WHERE on the table is, so that it compares and computes as MySQL does.
   */
  private checkCondition(st: DbState, def: TableDef, expr: string): string {
    const text = this.checkQuery(st, def, `SELECT 1 FROM \`${def.name.replace(/`/g, '``')}\` WHERE ${expr}`);
    const where = /\bwhere\b/i.exec(maskQuoted(text))!;
    return onNewRow(text.slice(where.index + where[0].length), def);
  }

  /** Whether a row of the table makes the CHECK expression false (ALTER TABLE … ADD CHECK and ENFORCED). */
  private violatesCheck(st: DbState, def: TableDef, expr: string): boolean {
    return st.db.exec(this.checkQuery(st, def, `SELECT 1 FROM \`${def.name.replace(/`/g, '``')}\` WHERE NOT (${expr}) LIMIT 1`)).length > 0;
  }

  /** A query of a CHECK constraint translated with `def` as the table's definition (and the database known while it loads). */
  private checkQuery(st: DbState, def: TableDef, sql: string): string {
    const before = st.tables.get(def.name);
    const registered = this.dbs.get(st.name);
    st.tables.set(def.name, def);
    this.dbs.set(st.name, st);
    try {
      return this.translateDml(newSession(st.name, 0), sql).text;
    } finally {
      if (before) st.tables.set(def.name, before);
      else st.tables.delete(def.name);
      if (registered) this.dbs.set(st.name, registered);
      else this.dbs.delete(st.name);
    }
  }

  /** The next AUTO_INCREMENT value of a table that has a counter (SQLite's last one plus one), else null. */
  private nextAutoIncrement(st: DbState, def: TableDef): number | null {
    return aliasesRowid(def) ? (counters(st.db).get(def.name) ?? 0) + 1 : null;
  }

  /** Each table of a database with its row count and next AUTO_INCREMENT value (SHOW TABLE STATUS, INFORMATION_SCHEMA). */
  private schemaTables(st: DbState): SchemaTable[] {
    return [...st.tables.values()].map((def) => ({ def, rows: rowCount(st.db, def.name), autoIncrement: this.nextAutoIncrement(st, def) }));
  }

  /** @@variables: the server's, with the session's own foreign_key_checks and autocommit. */
  private systemVariables(session?: Session): Record<string, string | number> {
    const server = (this.variables ??= systemVariables(VERSION, this.meta.serverId, this.meta.serverUuid));
    return session
      ? { ...server, foreign_key_checks: session.foreignKeyChecks ? 1 : 0, autocommit: session.autocommit ? 1 : 0, sql_mode: session.sqlMode, time_zone: session.timeZone, warning_count: session.diagnostics.count, error_count: 0 }
      : { ...server, sql_mode: this.globalSqlMode, time_zone: this.globalTimeZone };
  }

  private hasAutoIncrement(st: DbState, text: string): boolean {
    const m = INSERT_HEAD.exec(text);
    const def = m ? st.tables.get(unquoteIdent(m[1]!)) : undefined;
    return def?.columns.some((c) => c.autoIncrement) ?? false;
  }

  /**
   * ANALYZE, CHECK, OPTIMIZE and REPAIR TABLE: MySQL 8.0's answer for InnoDB tables, a row per
   * table (and per message) in the columns Table, Op, Msg_type, Msg_text. SQLite needs none of
   * them; a table that does not exist is reported in its row, as MySQL does, not as an error.
   */
  private maintainTables(session: Session, sql: string, rows: (c: string[], d: unknown[][]) => StatementResult): StatementResult {
    const m = /^(analyze|check|optimize|repair)\s+(?:(?:no_write_to_binlog|local)\s+)?tables?\s+([\s\S]+?)\s*;?\s*$/i.exec(sql.trim());
    if (!m) throw mysqlErrors.syntax(sql.slice(0, 80));
    const op = m[1]!.toLowerCase();
    const list = m[2]!.replace(/(?:\s+(?:quick|fast|medium|extended|changed|use_frm|for\s+upgrade))+$/i, '');
    const out: unknown[][] = [];
    for (const raw of list.split(',')) {
      const { database, table } = splitQualified(raw.trim());
      const dbName = database ?? session.database;
      if (!dbName) throw mysqlErrors.noDatabase();
      const name = `${dbName}.${table}`;
      const st = this.dbs.get(dbName);
      if (!st || (!st.tables.has(table) && !st.views.has(table))) {
        out.push([name, op, 'Error', `Table '${name}' doesn't exist`], [name, op, 'status', 'Operation failed']);
      } else if (op === 'optimize') {
        out.push([name, op, 'note', 'Table does not support optimize, doing recreate + analyze instead'], [name, op, 'status', 'OK']);
      } else if (op === 'repair') {
        out.push([name, op, 'note', "The storage engine for the table doesn't support repair"]);
      } else out.push([name, op, 'status', 'OK']);
    }
    return rows(['Table', 'Op', 'Msg_type', 'Msg_text'], out);
  }

  /**
   * A write whose table is a view (view-writes.ts), as the statement on the view's base table, and
   * how to run it: with WITH CHECK OPTION's check on each row it writes, a trigger for the statement.
   */
  private throughViews(session: Session, sql: string): { text: string; run: <T>(write: () => T) => T } | undefined {
    // most databases have no view: nothing to look for
    if (![...this.dbs.values()].some((st) => st.views.size)) return undefined;
    let text = sql;
    // each view's WHERE to check, carried down to the table through the views below it
    const pending: { where: string; view: string }[] = [];
    const checks: { st: DbState; table: string; where: string; view: string }[] = [];
    let cascaded = false;
    let named: string | undefined;
    for (let depth = 0; depth < 32; depth++) {
      const at = writeTarget(text);
      if (!at) break;
      const { database, table } = splitQualified(at.target.replace(/\s*\.\s*/, '.'));
      const dbName = database ?? session.database;
      const st = dbName ? this.dbs.get(dbName) : undefined;
      const view = st?.views.get(table);
      if (!st || !view) break;
      const merged = mergedView(view, (t) => st.tables.get(t)?.columns.map((c) => c.name) ?? st.views.get(t)?.columns);
      text = writeThroughView(text, at, view, merged, database);
      if (!merged) break;
      for (const p of pending) p.where = overBase(p.where, view, merged);
      cascaded ||= view.checkOption === 'CASCADED';
      // MySQL names the view the statement wrote through (TABLE_LIST::view_check_option, top_table())
      named ??= `${dbName}.${view.name}`;
      if (merged.where && (view.checkOption !== 'NONE' || cascaded)) pending.push({ where: merged.where, view: named });
      if (st.tables.has(merged.table)) for (const p of pending.splice(0)) checks.push({ st, table: merged.table, ...p });
    }
    if (text === sql) return undefined;
    return {
      text,
      run: (write) => {
        const triggers: { st: DbState; name: string }[] = [];
        try {
          for (const c of checks) {
            const def = c.st.tables.get(c.table)!;
            const rowids = this.checkQuery(c.st, def, `SELECT 1 FROM \`${c.table.replace(/`/g, '``')}\` WHERE ${c.where}`).replace(/^\s*select\s+1\b/i, 'SELECT rowid');
            const message = `CHECK OPTION failed '${c.view}'`.replace(/'/g, "''");
            // under IGNORE the row is skipped and the error is a warning (MySQL's view_check_option), decided before the row is written
            const fails = `NOT coalesce((${this.checkCondition(c.st, def, c.where)}), 1)`;
            for (const event of ['INSERT', 'UPDATE']) {
              const name = `__loupe_check_option_${triggers.length}`;
              c.st.db.run(`CREATE TEMP TRIGGER ${q(name)} AFTER ${event} ON main.${q(c.table)} WHEN loupe_ignoring() = 0 AND NEW.rowid NOT IN (${rowids}) BEGIN SELECT RAISE(ABORT, 'ERROR1369:${message}'); END`);
              const skip = `${name}_ignore`;
              c.st.db.run(`CREATE TEMP TRIGGER ${q(skip)} BEFORE ${event} ON main.${q(c.table)} WHEN loupe_ignoring() = 1 AND ${fails} BEGIN SELECT loupe_row_skipped(1369, '${message}'); SELECT RAISE(IGNORE); END`);
              triggers.push({ st: c.st, name }, { st: c.st, name: skip });
            }
          }
          return write();
        } finally {
          for (const t of triggers) t.st.db.run(`DROP TRIGGER IF EXISTS temp.${q(t.name)}`);
        }
      },
    };
  }

  private resolveTable(session: Session, raw: string): { st: DbState; table: string } {
    const { database, table } = splitQualified(raw.trim());
    const dbName = database ?? session.database;
    if (!dbName) throw mysqlErrors.noDatabase();
    return { st: this.requireDb(dbName), table };
  }

  private requireDb(name: string): DbState {
    const st = this.dbs.get(name);
    if (!st) throw mysqlErrors.unknownDatabase(name);
    return st;
  }

  private newDb(name: string, db: Database): DbState {
    db.run('CREATE TABLE IF NOT EXISTS __loupe_meta (k TEXT PRIMARY KEY, v TEXT)');
    db.run('CREATE TABLE IF NOT EXISTS __loupe_tables (name TEXT PRIMARY KEY, def TEXT NOT NULL)');
    db.run('CREATE TABLE IF NOT EXISTS __loupe_views (name TEXT PRIMARY KEY, def TEXT NOT NULL)');
    db.run('CREATE TABLE IF NOT EXISTS __loupe_changes (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT, op TEXT, rid INTEGER, b TEXT, a TEXT, cas INTEGER)');
    // a snapshot of an earlier version has no column for the rows of cascading actions
    if (!(db.exec('PRAGMA table_info(__loupe_changes)')[0]?.values ?? []).some((c) => c[1] === 'cas')) db.run('ALTER TABLE __loupe_changes ADD COLUMN cas INTEGER');
    this.prepareSession(db);
    const tables = new Map<string, TableDef>();
    for (const [n, d] of db.exec('SELECT name, def FROM __loupe_tables')[0]?.values ?? []) tables.set(n as string, JSON.parse(d as string) as TableDef);
    const views = new Map<string, ViewDef>();
    for (const [n, d] of db.exec('SELECT name, def FROM __loupe_views')[0]?.values ?? []) views.set(n as string, JSON.parse(d as string) as ViewDef);
    const st: DbState = { name, db, tables, views, appliedThrough: { file: '', pos: 0 } };
    // a snapshot keeps the triggers of the version that wrote it (one from before the REPLACE
    // triggers would make REPLACE a delete and an insert again): they are made anew from the
    // definitions
    for (const def of tables.values()) {
      this.dropTriggers(st, def.name);
      this.createTriggers(st, def);
    }
    refreshForeignKeyTriggers(db, name, tables);
    st.cascades = [...tables.values()].some(isCascadeTarget);
    return st;
  }

  /** Connection-level state that export() resets. */
  private prepareSession(db: Database): void {
    // The binlog is the durable record; SQLite's own journal would only churn sql.js's in-memory
    // file system on every commit. Rollback still works with the journal in memory.
    db.run('PRAGMA journal_mode = MEMORY');
    db.run('PRAGMA synchronous = OFF');
    db.run('PRAGMA temp_store = MEMORY');
    // The REPLACE triggers (replace.ts) remove the conflicting rows themselves; a conflict SQLite's
    // own REPLACE still resolves fires the capture trigger only with recursive triggers, so that
    // the change log holds that delete too.
    db.run('PRAGMA recursive_triggers = ON');
    registerDateFunctions(db);
    registerMySqlFunctions(db);
    registerJsonFunctions(db);
    registerExactAggregates(db);
    registerCheckFunctions(db);
    registerStoreFunctions(db);
    registerVariableFunctions(db);
    registerAlterFunctions(db);
    registerSpatialFunctions(db);
    registerComparisonFunctions(db);
    db.run(FOREIGN_KEY_STATE_DDL);
    db.run('DELETE FROM __loupe_fk');
    db.run('INSERT INTO __loupe_fk VALUES (1, 0)');
    db.run('CREATE TABLE IF NOT EXISTS __loupe_mode (strict INTEGER)');
    db.run('DELETE FROM __loupe_mode');
    db.run('INSERT INTO __loupe_mode VALUES (1)');
    db.run(REPLACE_STATE_DDL);
    db.run('DELETE FROM __loupe_replace');
    db.run('INSERT INTO __loupe_replace VALUES (0, NULL, NULL, 0)');
  }

  private writeDbList(): void {
    writeFileAtomicSync(path.join(this.opts.dir, 'databases.json'), JSON.stringify([...this.dbs.keys()]) + '\n');
  }

  private load(): void {
    const dir = this.opts.dir;
    fs.mkdirSync(path.join(dir, 'databases'), { recursive: true });
    const metaFile = path.join(dir, 'server.json');
    const meta = readJsonOrBackup<{ serverUuid: string; serverId: number }>(metaFile);
    const fresh = meta.kind !== 'ok';
    this.meta = meta.kind === 'ok' ? meta.value : { serverUuid: randomUUID(), serverId: 1 };
    if (fresh) writeFileAtomicSync(metaFile, JSON.stringify(this.meta, null, 2) + '\n');
    this.binlog = new Binlog(path.join(dir, 'binlog'), this.meta.serverUuid);

    // Snapshots first, each with the binlog position it includes.
    const files = fs.readdirSync(path.join(dir, 'databases')).filter((f) => f.endsWith('.sqlite'));
    for (const f of files) {
      const name = f.slice(0, -'.sqlite'.length);
      const db = new this.SQL.Database(fs.readFileSync(path.join(dir, 'databases', f)));
      const st = this.newDb(name, db);
      const kv = Object.fromEntries((db.exec('SELECT k, v FROM __loupe_meta')[0]?.values ?? []).map(([k, v]) => [k, v]));
      st.appliedThrough = { file: String(kv.binlog_file ?? ''), pos: Number(kv.binlog_pos ?? 0) };
      this.dbs.set(name, st);
    }
    // Then replay the binlog from the oldest position any database needs.
    let replayed = 0;
    let from: BinlogPosition = { file: '', pos: 0 };
    for (;;) {
      const batch = this.binlog.read(from, 1000);
      if (batch.length === 0) break;
      for (const tx of batch) {
        this.history.add(tx);
        if (this.replay(tx)) replayed++;
      }
      const last = batch[batch.length - 1]!;
      from = { file: last.file, pos: last.nextPos };
    }
    if (replayed) this.log.info('replayed the change log onto the snapshots', { transactions: replayed });
    if (fresh && this.dbs.size === 0 && this.opts.seedDemo !== false) this.seed();
    if (replayed) this.snapshot();
  }

  /** Applies one logged transaction to a database whose snapshot predates it. */
  private replay(tx: BinlogTransaction): boolean {
    const st = this.dbs.get(tx.database);
    const applied = st ? comparePos(st.appliedThrough, { file: tx.file, pos: tx.pos }) > 0 : false;
    if (applied) return false;
    if (tx.ddl) {
      if (tx.ddl.kind === 'create-database' && st) return false;
      this.applyDdl(tx.database, tx.ddl);
    } else if (st) {
      // the rows cascading actions changed are replayed as logged, in their place, with no constraint run again
      const events = rowChangesMade(tx);
      st.db.run('UPDATE __loupe_fk SET checks = 0');
      for (const ev of events) {
        const def = st.tables.get(ev.table);
        if (!def) continue;
        const cols = def.columns.filter((c) => ev.after && c.name in ev.after);
        // a BLOB's image is its hex (createTriggers): the bytes go back
        const value = (c: ColumnDef) => {
          const v = ev.after![c.name];
          return typeof v === 'string' && sqliteType(c) === 'BLOB' ? Uint8Array.from(Buffer.from(v, 'hex')) : toSql(v);
        };
        // a rowid beyond 2^53 is bound as its digits (toSql), which CAST reads back as the INTEGER
        const rowid = toSql(ev.rowid);
        if (ev.op === 'd') st.db.run(`DELETE FROM ${q(ev.table)} WHERE rowid = CAST(? AS INTEGER)`, [rowid]);
        else if (ev.op === 'c') st.db.run(`INSERT INTO ${q(ev.table)} (rowid, ${cols.map((c) => q(c.name)).join(', ')}) VALUES (CAST(? AS INTEGER), ${cols.map(() => '?').join(', ')})`, [rowid, ...cols.map(value)]);
        else st.db.run(`UPDATE ${q(ev.table)} SET ${cols.map((c) => `${q(c.name)} = ?`).join(', ')} WHERE rowid = CAST(? AS INTEGER)`, [...cols.map(value), rowid]);
      }
      st.db.run('UPDATE __loupe_fk SET checks = 1');
      st.db.run('DELETE FROM __loupe_changes');
    }
    const after = this.dbs.get(tx.database);
    if (after) after.appliedThrough = { file: tx.file, pos: tx.nextPos };
    return true;
  }

  private seed(): void {
    this.executeSync(
      null,
      `CREATE DATABASE demo;
       CREATE TABLE demo.customers (created_at DATETIME DEFAULT CURRENT_TIMESTAMP, id int NOT NULL PRIMARY KEY, name varchar(255));
       INSERT INTO demo.customers (id, name) VALUES (1, 'Ada Lovelace'), (2, 'Grace Hopper'), (3, 'Edsger Dijkstra')`,
    );
    this.snapshot();
  }
}


/** ER_WRONG_OBJECT (MySQL 8.0's error message reference): a table where a view is meant, or a view where a table is. */
function wrongObject(db: string, name: string, meant: 'VIEW' | 'BASE TABLE'): MySqlError {
  return new MySqlError(1347, 'HY000', `'${db}.${name}' is not ${meant}`);
}

const notView = (db: string, name: string) => wrongObject(db, name, 'VIEW');

/** SQLSTATEs of the errors the store rules (column-values.ts) and the capture triggers raise. */

/** Whether a statement failed on a value of its first row, before any row reached the table. */
function refusedInFirstRow(err: MySqlError, rows: number): boolean {
  // a NULL for a NOT NULL column names no row: in a statement of one row it is the first
  if (err.errno === 1364 || (err.errno === 1048 && rows === 1)) return true;
  return [1264, 1265, 1292, 1366, 1406].includes(err.errno) && / at row 1$/.test(err.message);
}

/**
 * Under LOCK TABLES, a statement may use only the tables locked, and write only those locked for
 * WRITE: ER_TABLE_NOT_LOCKED (1100) and ER_TABLE_NOT_LOCKED_FOR_WRITE (1099), worded as in MySQL
 * 8.0's error message reference. Names that are no table (a word after EXTRACT(… FROM) are let be.
 */
function checkLocks(sql: string, session: string | null, locks: Map<string, 'read' | 'write'>, isTable: (db: string, table: string) => boolean): void {
  const written = writtenRef(sql);
  for (const r of namedTables(sql)) {
    const db = r.database ?? session;
    if (db === null || db.toLowerCase() === INFORMATION_SCHEMA || !isTable(db, r.table)) continue;
    const lock = locks.get(`${db}.${r.table}`);
    if (!lock) throw new MySqlError(1100, 'HY000', `Table '${r.alias}' was not locked with LOCK TABLES`);
    if (written && written.from === r.from && lock === 'read') throw new MySqlError(1099, 'HY000', `Table '${r.alias}' was locked with a READ lock and can't be updated`);
  }
}

/** Runs statements as one: a failing one undoes those before it (a savepoint, inside a transaction or not). */
function atomically(db: Database, run: () => void): void {
  db.run('SAVEPOINT loupe_stmt');
  try {
    run();
  } catch (err) {
    db.run('ROLLBACK TO loupe_stmt');
    db.run('RELEASE loupe_stmt');
    throw err;
  }
  db.run('RELEASE loupe_stmt');
}

/** An INSERT's column list names each column once (ER_FIELD_SPECIFIED_TWICE, whatever IGNORE says). */
function checkInsertColumns(text: string): void {
  const seen = new Set<string>();
  for (const name of insertColumns(text)?.columns ?? []) {
    if (seen.has(name.toLowerCase())) throw new MySqlError(1110, '42000', `Column '${name}' specified twice`);
    seen.add(name.toLowerCase());
  }
}

/** The columns a query would return, for one that returned no rows. */
function columnNames(db: Database, sql: string): string[] {
  const stmt = db.prepare(sql);
  try {
    return stmt.getColumnNames();
  } finally {
    stmt.free();
  }
}

/** An UPDATE/DELETE … ORDER BY: its rows are chosen first, then changed one at a time in that order, all or nothing; answers how many it matched. */
function runInOrder(db: Database, ordered: OrderedDml, vars: UserVariables): number {
  const rowids = (db.exec(ordered.rowids, boundVariables(ordered.rowids, vars))[0]?.values ?? []).map((v) => v[0]!);
  const params = boundVariables(ordered.each, vars) as Record<string, SqlValue> | undefined;
  atomically(db, () => {
    const each = db.prepare(ordered.each);
    try {
      for (const rowid of rowids) each.run({ ...params, ':loupe_rowid': rowid });
    } finally {
      each.free();
    }
  });
  return rowids.length;
}

/** A logged value as a bound parameter; a bigint (an INTEGER beyond 2^53) as its digits, which a column of INTEGER affinity stores as the INTEGER (sql.js would bind it so too). */
function toSql(v: unknown): SqlValue {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return String(v);
  return v as SqlValue;
}

function blobOut(v: ExactValue): RowValue {
  return v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v;
}

const IDENT = '(?:`[^`]*`|\\w+)';
const TABLE_REF = `${IDENT}(?:\\.${IDENT})?(?:\\.\\*)?`;
/** The modifiers MySQL takes after INSERT, REPLACE, UPDATE and DELETE (reserved words, but QUICK, which MySQL reads as one there too). */
const DML_MODIFIERS = /^\s*(insert|replace|update|delete)((?:\s+(?:low_priority|high_priority|delayed|quick|ignore)\b)+)/i;

/** `DELETE [LOW_PRIORITY] [QUICK] [IGNORE] t1[.*][, t2[.*]]…` and the blanks after it. */
const MULTI_DELETE_HEAD = new RegExp(`^\\s*DELETE\\s+(?:(?:LOW_PRIORITY|QUICK|IGNORE)\\s+)*(?!FROM\\b)${TABLE_REF}(?:\\s*,\\s*${TABLE_REF})*\\s*`, 'i');

/** Where `tok` occurs in `text` as a token of its own (a word is not matched inside a longer word). */
function occurrences(text: string, tok: string): number[] {
  const out: number[] = [];
  const word = /^\w+$/.test(tok);
  for (let i = text.indexOf(tok); i >= 0; i = text.indexOf(tok, i + 1)) {
    if (word && (/\w/.test(text[i - 1] ?? '') || /\w/.test(text[i + tok.length] ?? ''))) continue;
    out.push(i);
  }
  return out;
}

/**
 * Which occurrence of `tok` SQLite's parser stopped at (SQLite names the token, not its place):
 * the first one where the statement cut just after it fails there too. Preparing only parses.
 */
function stoppedAtOccurrence(db: Database, text: string, tok: string): number {
  const all = occurrences(text, tok);
  for (let k = 0; k < all.length - 1; k++) {
    try {
      db.prepare(text.slice(0, all[k]! + tok.length)).free();
    } catch (err) {
      if ((err as Error).message.includes(`near "${tok.replace(/"/g, '""')}": syntax error`)) return k;
    }
  }
  return Math.max(0, all.length - 1);
}

/** Index of the k-th occurrence of `tok` in `text` (the last one when there are fewer), or -1. */
function nthIndex(text: string, tok: string, k: number): number {
  const all = occurrences(text, tok);
  return all.length ? all[Math.min(k, all.length - 1)]! : text.indexOf(tok);
}

/** A session of `database` with the server's defaults. */
function newSession(database: string | null, thread: number, sqlMode = DEFAULT_SQL_MODE, timeZone = 'SYSTEM'): Session {
  return { database, thread, foreignKeyChecks: true, lastInsertId: 0, rowCount: 0, vars: new Map(), autocommit: true, diagnostics: new Diagnostics(), prepared: new Map(), sqlMode, foundRows: 0, timeZone };
}

/** The statement as written where `sql` is the one running as the server read it (its executable comments opened, its comments dropped). */
const asWritten = (session: Session, sql: string) => (session.written?.sql === sql ? session.written.text : sql);

/** An expression over the table's columns as one over the row a trigger is given (`NEW."c"`). */
function onNewRow(expr: string, def: TableDef): string {
  const columns = new Map(def.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const t = tokenize(expr);
  let out = '';
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    const name = tok.kind === 'name' ? tok.text.slice(1, -1) : tok.kind === 'word' ? tok.text : undefined;
    const next = t.slice(i + 1).find(significant);
    // `t.c`: the table's own qualifier goes
    if (name !== undefined && name.toLowerCase() === def.name.toLowerCase() && next?.kind === 'op' && next.text === '.') {
      i = t.indexOf(next);
      continue;
    }
    const column = name === undefined ? undefined : columns.get(name.toLowerCase());
    const prev = t.slice(0, i).filter(significant).at(-1);
    out += column && next?.kind !== 'open' && !(prev?.kind === 'op' && prev.text === '.') ? `NEW.${q(column)}` : tok.text;
  }
  return out;
}

/**
 * A WITH clause before a write. Before INSERT or REPLACE MySQL 8.0's parser stops there (the CTE
 * goes after `INSERT … (columns)`); before UPDATE or DELETE MySQL runs it, but the embedded
 * source's rewrites of UPDATE and DELETE (sql_mode, ON UPDATE CURRENT_TIMESTAMP, ORDER BY …
 * LIMIT, several tables, the info line) read the statement from its verb, so it is refused rather
 * than run another way.
 */
function refuseWithBeforeWrite(sql: string): void {
  const after = statementAfterWith(sql);
  if (!after) return;
  if (after.verb === 'INSERT' || after.verb === 'REPLACE') throw mysqlErrors.syntax(sql.slice(after.at, after.at + 80), sql.slice(0, after.at).split('\n').length);
  if (after.verb === 'UPDATE' || after.verb === 'DELETE') throw mysqlErrors.notSupported(`WITH before ${after.verb} in the embedded source`);
}

/** Stored programs, accounts, replication, server administration and file loading. */
const UNSUPPORTED_STATEMENT =
  /^(?:(?:create|alter|drop)\s+(?:or\s+replace\s+)?(?:definer\s*=\s*\S+\s+)?(?:procedure|function|trigger|event|user|role|server|tablespace|logfile\s+group|spatial\s+reference\s+system|resource\s+group)|drop\s+temporary\s+table|grant|revoke|set\s+(?:password|role|default\s+role)|rename\s+user|call|handler|load\s+(?:data|xml)|install|uninstall|xa|flush|kill|reset|purge|change\s+(?:master|replication))\b/i;

/** An IF [NOT] EXISTS that found what it skips: MySQL's error, as a note. */
function note(err: MySqlError): void {
  warn(err.errno, err.message, 'Note');
}

/** INSERT … SELECT (and REPLACE … SELECT, with a column list or not). */
const INSERT_SELECT = /^\s*(?:insert|replace)\b[^(]*?(?:\([^()]*\))?\s*(?:\(\s*)?(?:select|with|table)\b/i;

/** An UPDATE's OK packet info (ER_UPDATE_INFO), as the mysql client prints it under "Query OK". */
function updateInfo(matched: number, changed: number, session: Session): string {
  return `Rows matched: ${matched}  Changed: ${changed}  Warnings: ${session.diagnostics.count}`;
}

/** Undoes (ROLLBACK, or ROLLBACK TO a savepoint) as InnoDB does: the AUTO_INCREMENT values the undone rows took stay used. */
function undoKeepingCounters(db: Database, undo: string): void {
  const reached = counters(db);
  db.run(undo);
  for (const [table, value] of reached) raiseCounter(db, table, value);
}
