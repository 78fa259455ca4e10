/**
 * A real MySQL or MariaDB server as a capture source: what Debezium's MySQL connector reads, through
 * a maintained binlog client (`@powersync/mysql-zongji`, which reads MySQL 8 and MariaDB) for the
 * row events and mysql2 for everything else. It presents the same CaptureSource as the embedded
 * source, so one Debezium task, envelope, converters and transforms serve both.
 *
 * - open(): logs in with the connector's user and password (a wrong one is MySQL's own 1045), and
 *   checks what Debezium checks: log_bin ON, binlog_format=ROW, binlog_row_image=FULL, each named
 *   with its value when wrong.
 * - snapshot(): a consistent read of the captured tables and the binlog position it stands at:
 *   MariaDB's START TRANSACTION WITH CONSISTENT SNAPSHOT and binlog_snapshot_file/position (no
 *   global lock), MySQL's FLUSH TABLES WITH READ LOCK around the same and SHOW MASTER STATUS. The
 *   rows are held until the task has read them.
 * - streaming: from the position the task asks for (the snapshot's, or a stored offset), events
 *   become the transactions the embedded source's change log holds: BEGIN … XID with row images,
 *   a DDL statement alone, with the table's definition after it (CREATE TABLE parsed, others read
 *   back with SHOW CREATE TABLE when the statement arrives).
 *
 * Known limits: table definitions at a restart are the server's current ones (Debezium keeps a
 * schema history topic); a table altered between a stored offset and the restart is read with its
 * new columns. Row values are as the binlog client decodes them (DECIMALs through a double).
 */
import mysql from 'mysql2/promise';
import { applyDdl, comparePositions, copyCatalog } from './catalog-history.js';
import { storeKind } from './column-values.js';
import { readHeldTable, splitQualified, unquoteIdent } from './mysql-ddl.js';
import { MySqlError } from './mysql-error.js';
import { RemoteSource, toMySqlError } from './remote-source.js';
import type { BinlogPosition, BinlogTransaction, CaptureSource, Catalog, ColumnDef, Row, RowChange, SourceInfo, StatementResult, TableDef } from './types.js';

import { ZongJi as ZongJiClass } from '@powersync/mysql-zongji';

export interface BinlogCaptureOptions {
  host: string;
  port: number;
  user: string;
  password: string;
  /** database.server.id: this reader's replica id, unique among the server's replicas. */
  serverId: number;
  /** Whether a table's rows are captured (the connector's include/exclude lists). */
  captured(database: string, table: string): boolean;
  /** Whether a database is captured at all (its tables are listed and read). */
  databaseCaptured(database: string): boolean;
  log?: { info(msg: string, f?: Record<string, unknown>): void; warn(msg: string, f?: Record<string, unknown>): void };
}

/** Thrown for a server that cannot be captured as it is set up; the message says which setting. */
export class BinlogSetupError extends Error {}

interface ZongJiEvent {
  getEventName(): string;
  nextPosition: number;
  size: number;
  timestamp: number;
  query?: string;
  schema?: string;
  slaveProxyId?: number;
  binlogName?: string;
  position?: number;
  tableId?: number;
  tableMap?: Record<number, { parentSchema: string; tableName: string }>;
  rows?: (Record<string, unknown> | { before: Record<string, unknown>; after: Record<string, unknown> })[];
}

interface ZongJi {
  on(event: 'binlog', f: (e: ZongJiEvent) => void): void;
  on(event: 'error', f: (e: Error) => void): void;
  on(event: 'ready' | 'stopped', f: () => void): void;
  start(opts: Record<string, unknown>): void;
  stop(): void;
}
// the package's typings cover what PowerSync uses; the events read here are declared above
const ZongJiCtor = ZongJiClass as unknown as new (opts: Record<string, unknown>) => ZongJi;

const BUILT_IN = new Set(['mysql', 'information_schema', 'performance_schema', 'sys']);

export class BinlogCaptureSource implements CaptureSource {
  readonly kind = 'remote' as const;
  private readonly query: RemoteSource;
  private serverInfo!: SourceInfo;
  private files: string[] = [];
  private catalog: Catalog = new Map();
  private snapshotAt: BinlogPosition | null = null;
  private snapshotRows = new Map<string, Row[]>();
  private stream: ZongJi | null = null;
  private streamFrom: BinlogPosition | null = null;
  /** Transactions received and not yet read past, in binlog order. */
  private buffer: BinlogTransaction[] = [];
  private seq = 0;
  private failure: Error | null = null;
  private waiters = new Set<() => void>();
  private listeners = new Set<(tx: BinlogTransaction) => void>();
  /** Event handling in binlog order (a DDL statement awaits its table's definition). */
  private handling: Promise<void> = Promise.resolve();
  private file = '';
  private nextStart = 0;
  private open: { tx: BinlogTransaction; database: string } | null = null;

  private constructor(private readonly opts: BinlogCaptureOptions) {
    this.query = new RemoteSource({ host: opts.host, port: opts.port, user: opts.user, password: opts.password, connectTimeoutMs: 10_000 });
  }

  private get where(): string {
    return `${this.opts.host}:${this.opts.port}`;
  }

  /** Logs in and checks the server's binlog settings; throws MySqlError (login) or BinlogSetupError (settings). */
  static async open(opts: BinlogCaptureOptions): Promise<BinlogCaptureSource> {
    const s = new BinlogCaptureSource(opts);
    await s.withConnection(async (c) => {
      const vars = await variables(c, ['log_bin', 'binlog_format', 'binlog_row_image', 'server_id', 'version']);
      // MySqlConnectorTask.validateBinlogConfiguration's checks, each naming the setting and its value
      if ((vars.log_bin ?? '').toUpperCase() !== 'ON') throw new BinlogSetupError(`The MySQL server at ${s.where} is not configured to use a row-level binlog (log_bin=${vars.log_bin ?? 'OFF'}), which is required for this connector to work properly. Start the server with log-bin, binlog_format=ROW and a server id, and restart the connector.`);
      if ((vars.binlog_format ?? '').toUpperCase() !== 'ROW') throw new BinlogSetupError(`The MySQL server is not configured to use a ROW binlog_format (binlog_format=${vars.binlog_format}), which is required for this connector to work properly. Change the MySQL configuration to use a binlog_format=ROW and restart the connector.`);
      if (vars.binlog_row_image !== undefined && vars.binlog_row_image.toUpperCase() !== 'FULL') throw new BinlogSetupError(`The MySQL server is not configured to use a FULL binlog_row_image (binlog_row_image=${vars.binlog_row_image}), which is required for this connector to work properly. Change the MySQL configuration to use a binlog_row_image=FULL and restart the connector.`);
      // No server UUID: the task builds GTID sets from it, and this reader follows file and
      // position, not the server's GTIDs (a set made up from its own count would not be the server's)
      s.serverInfo = { serverId: Number(vars.server_id ?? 0), serverUuid: '', version: vars.version ?? '' };
      s.files = await binaryLogs(c);
      s.catalog = await readCatalog(c, opts.databaseCaptured);
    });
    return s;
  }

  private async withConnection<T>(f: (c: mysql.Connection) => Promise<T>): Promise<T> {
    let c: mysql.Connection;
    try {
      c = await mysql.createConnection({ host: this.opts.host, port: this.opts.port, user: this.opts.user, password: this.opts.password, connectTimeout: 10_000, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true, decimalNumbers: false });
    } catch (err) {
      throw toMySqlError(err, this.where, 'connect');
    }
    c.on('error', () => {});
    try {
      return await f(c);
    } catch (err) {
      if (err instanceof BinlogSetupError || err instanceof MySqlError) throw err;
      throw toMySqlError(err, this.where);
    } finally {
      await c.end().catch(() => c.destroy());
    }
  }

  /**
   * The captured tables' rows under one consistent read, and the binlog position it stands at,
   * which position() answers until streaming begins.
   */
  async snapshot(): Promise<BinlogPosition> {
    const mariadb = /mariadb/i.test(this.serverInfo.version);
    await this.withConnection(async (c) => {
      await c.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      let at: BinlogPosition;
      if (mariadb) {
        // MariaDB: the snapshot and the binlog position it matches, without a global read lock
        await c.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
        const [rows] = (await c.query("SHOW STATUS LIKE 'binlog_snapshot_%'")) as unknown as [{ Variable_name: string; Value: string }[]];
        const v = Object.fromEntries(rows.map((r) => [r.Variable_name.toLowerCase(), r.Value]));
        at = { file: v.binlog_snapshot_file ?? '', pos: Number(v.binlog_snapshot_position ?? 0) };
      } else {
        // MySQL: Debezium's global read lock while the snapshot starts and the position is read
        await c.query('FLUSH TABLES WITH READ LOCK');
        try {
          await c.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
          at = await masterStatus(c);
        } finally {
          await c.query('UNLOCK TABLES');
        }
      }
      this.catalog = await readCatalog(c, this.opts.databaseCaptured);
      this.snapshotRows.clear();
      for (const [db, tables] of this.catalog) {
        for (const [name, def] of tables) {
          if (!this.opts.captured(db, name)) continue;
          const [rows] = (await c.query(`SELECT * FROM ${quote(db)}.${quote(name)}`)) as unknown as [Record<string, unknown>[]];
          this.snapshotRows.set(`${db}.${name}`, rows.map((r) => rowOf(def, r)));
        }
      }
      await c.query('COMMIT');
      this.snapshotAt = at;
    });
    return this.snapshotAt!;
  }

  /** The snapshot's rows are as they were at its position: the task reads them as they are. */
  readonly consistentSnapshot = true;

  // ------------------------------------------------------------------ CaptureSource

  info(): SourceInfo {
    return this.serverInfo;
  }

  tableDef(database: string, table: string): TableDef | undefined {
    return this.catalog.get(database)?.get(table);
  }

  tableDefsAt(_at: BinlogPosition): Catalog {
    return copyCatalog(this.catalog);
  }

  scan(database: string, table: string, afterRowid: number, limit: number): { rowid: number; row: Row }[] {
    const rows = this.snapshotRows.get(`${database}.${table}`) ?? [];
    return rows.slice(afterRowid, afterRowid + limit).map((row, i) => ({ rowid: afterRowid + i + 1, row }));
  }

  position(): BinlogPosition & { gtidSet: string; seq: number } {
    const at = this.snapshotAt ?? { file: this.file || (this.files.at(-1) ?? ''), pos: this.nextStart };
    return { ...at, gtidSet: '', seq: this.seq };
  }

  binlogFiles(): string[] {
    return [...this.files];
  }

  readTransactions(from: BinlogPosition, maxTransactions: number): BinlogTransaction[] {
    this.follow(from);
    if (this.failure) throw this.failure;
    // what lies before `from` has been read: it is not needed again
    while (this.buffer.length && comparePositions({ file: this.buffer[0]!.file, pos: this.buffer[0]!.pos }, from) < 0) this.buffer.shift();
    return this.buffer.slice(0, maxTransactions);
  }

  waitForCommit(from: BinlogPosition, timeoutMs: number): Promise<boolean> {
    this.follow(from);
    if (this.failure || this.buffer.some((tx) => comparePositions({ file: tx.file, pos: tx.pos }, from) >= 0)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (v: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(v);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(wake);
    });
  }

  onCommit(listener: (tx: BinlogTransaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ------------------------------------------------------------------ QuerySource

  execute(database: string | null, sql: string): Promise<StatementResult[]> {
    return this.query.execute(database, sql);
  }
  listDatabases(): Promise<string[]> {
    return this.query.listDatabases();
  }
  listTables(database: string): Promise<string[]> {
    return this.query.listTables(database);
  }
  describeTable(database: string, table: string): Promise<ColumnDef[]> {
    return this.query.describeTable(database, table);
  }

  async close(): Promise<void> {
    const z = this.stream;
    this.stream = null;
    if (z) await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 2000);
      z.on('stopped', () => {
        clearTimeout(t);
        resolve();
      });
      z.stop();
    });
    for (const w of [...this.waiters]) w();
    await this.handling.catch(() => {});
  }

  // ------------------------------------------------------------------ streaming

  /** Starts the binlog client at `from` the first time a position is asked for. */
  private follow(from: BinlogPosition): void {
    if (this.stream) return;
    this.snapshotAt = null;
    const start = from.file ? from : { file: this.files[0] ?? '', pos: 4 };
    this.streamFrom = start;
    this.file = start.file;
    this.nextStart = start.pos;
    const z = new ZongJiCtor({ host: this.opts.host, port: this.opts.port, user: this.opts.user, password: this.opts.password, dateStrings: true });
    this.stream = z;
    z.on('binlog', (e) => {
      this.handling = this.handling.then(() => this.onEvent(e)).catch((err: unknown) => this.fail(err as Error));
    });
    z.on('error', (err) => this.fail(toMySqlError(err, this.where)));
    z.start({ filename: start.file, position: start.pos, serverId: this.opts.serverId, includeEvents: ['rotate', 'query', 'xid', 'tablemap', 'writerows', 'updaterows', 'deleterows'] });
    this.opts.log?.info('reading the binlog', { server: this.where, file: start.file, pos: start.pos });
  }

  private fail(err: Error): void {
    if (!this.failure) this.failure = err;
    for (const w of [...this.waiters]) w();
  }

  private async onEvent(e: ZongJiEvent): Promise<void> {
    const name = e.getEventName();
    if (name === 'rotate') {
      this.file = e.binlogName ?? this.file;
      if (e.position) this.nextStart = e.position;
      if (!this.files.includes(this.file)) this.files.push(this.file);
      return;
    }
    // the events the server makes up when a reader starts (a rotate, the format description) have no position
    if (!e.nextPosition) return;
    const start = this.nextStart;
    this.nextStart = e.nextPosition;
    switch (name) {
      case 'query': {
        const sql = (e.query ?? '').trim();
        if (sql.startsWith('#')) return; // MariaDB's stand-ins for events an older reader cannot take
        if (/^begin$/i.test(sql)) {
          this.open = { tx: this.transaction(start, e, e.schema ?? ''), database: e.schema ?? '' };
          return;
        }
        if (/^commit$/i.test(sql)) return this.commit(e.nextPosition);
        // a DDL statement is a transaction of its own in the binlog
        const tx = this.transaction(start, e, e.schema ?? '');
        tx.query = sql;
        const ddl = await this.ddlOf(sql, e.schema ?? '');
        if (!ddl) return;
        tx.database = ddl.database;
        tx.ddl = ddl.ddl;
        applyDdl(this.catalog, ddl.database, ddl.ddl);
        tx.nextPos = e.nextPosition;
        this.publish(tx);
        return;
      }
      case 'writerows':
      case 'updaterows':
      case 'deleterows': {
        const map = e.tableMap?.[e.tableId ?? -1];
        if (!map || !this.open) return;
        const def = this.catalog.get(map.parentSchema)?.get(map.tableName);
        if (!def) return;
        this.open.tx.database = map.parentSchema;
        const op = name === 'writerows' ? 'c' : name === 'updaterows' ? 'u' : 'd';
        for (const r of e.rows ?? []) {
          const change: RowChange =
            op === 'u'
              ? { table: map.tableName, op, before: rowOf(def, (r as { before: Record<string, unknown> }).before), after: rowOf(def, (r as { after: Record<string, unknown> }).after), rowid: 0 }
              : { table: map.tableName, op, before: op === 'd' ? rowOf(def, r as Record<string, unknown>) : null, after: op === 'c' ? rowOf(def, r as Record<string, unknown>) : null, rowid: 0 };
          this.open.tx.events.push(change);
        }
        return;
      }
      case 'xid':
        return this.commit(e.nextPosition);
      default:
        return;
    }
  }

  private transaction(start: number, e: ZongJiEvent, database: string): BinlogTransaction {
    // no GTID: Debezium's source.gtid is null for a server without gtid_mode (the task writes '' as null)
    return { file: this.file, pos: start, nextPos: start, seq: 0, gtid: '', ts: e.timestamp, thread: e.slaveProxyId ?? 0, database, query: '', events: [] };
  }

  private commit(nextPos: number): void {
    const open = this.open;
    this.open = null;
    if (!open || !open.tx.events.length) return;
    open.tx.nextPos = nextPos;
    this.publish(open.tx);
  }

  private publish(tx: BinlogTransaction): void {
    tx.seq = ++this.seq;
    this.buffer.push(tx);
    for (const l of this.listeners) l(tx);
    for (const w of [...this.waiters]) w();
  }

  /** A DDL statement as the change log's schema change: its kind, table and the table's definition after it. */
  private async ddlOf(sql: string, schema: string): Promise<{ database: string; ddl: NonNullable<BinlogTransaction['ddl']> } | undefined> {
    const m = /^(create|alter|drop|rename|truncate)\s+(?:(?:or\s+replace|temporary|online|ignore)\s+)*(table|database|schema|index|unique\s+index|view)?\s*(?:if\s+(?:not\s+)?exists\s+)?(`[^`]+`(?:\.`[^`]+`)?|[\w$.]+(?:\.`[^`]+`)?)?/i.exec(sql);
    if (!m) return undefined;
    const verb = m[1]!.toLowerCase();
    const what = (m[2] ?? (verb === 'truncate' ? 'table' : '')).toLowerCase();
    const named = m[3] ? splitQualified(m[3]) : { table: '' };
    if (what === 'database' || what === 'schema') {
      const database = unquoteIdent(m[3] ?? '');
      if (!this.opts.databaseCaptured(database)) return undefined;
      return { database, ddl: { mysql: sql, sqlite: [], kind: verb === 'drop' ? 'drop-database' : 'create-database' } };
    }
    if (what === 'view') return undefined;
    if (verb === 'rename') {
      // RENAME TABLE a TO b: the old name goes, the new one is read back
      const r = /^rename\s+table\s+(\S+)\s+to\s+(\S+)/i.exec(sql);
      if (!r) return undefined;
      const from = splitQualified(r[1]!);
      const to = splitQualified(r[2]!);
      const database = from.database ?? schema;
      const def = await this.showCreate(to.database ?? database, to.table);
      return { database, ddl: { mysql: sql, sqlite: [], kind: 'rename-table', table: from.table, ...(def ? { def } : {}) } };
    }
    let table = named.table;
    let database = named.database ?? schema;
    if (what.endsWith('index')) {
      const on = /\bon\s+(`[^`]+`(?:\.`[^`]+`)?|[\w$.]+)/i.exec(sql);
      if (!on) return undefined;
      const t = splitQualified(on[1]!);
      table = t.table;
      database = t.database ?? schema;
    }
    if (!database || !this.opts.databaseCaptured(database)) return undefined;
    if (verb === 'drop' && what === 'table') return { database, ddl: { mysql: sql, sqlite: [], kind: 'drop-table', table } };
    if (verb === 'truncate') return { database, ddl: { mysql: sql, sqlite: [], kind: 'truncate-table', table, ...(this.tableDef(database, table) ? { def: this.tableDef(database, table)! } : {}) } };
    let def: TableDef | undefined;
    if (verb === 'create' && what === 'table') {
      try {
        def = readHeldTable(sql).def;
      } catch {
        def = await this.showCreate(database, table);
      }
    } else def = await this.showCreate(database, table);
    if (!def) return undefined;
    const kind = verb === 'create' && what === 'table' ? 'create-table' : what.endsWith('index') ? 'index' : 'alter-table';
    return { database, ddl: { mysql: sql, sqlite: [], kind, table, def } };
  }

  private async showCreate(database: string, table: string): Promise<TableDef | undefined> {
    try {
      return await this.withConnection(async (c) => {
        const [rows] = (await c.query(`SHOW CREATE TABLE ${quote(database)}.${quote(table)}`)) as unknown as [Record<string, string>[]];
        const text = rows[0]?.['Create Table'];
        return text ? { ...readHeldTable(text).def, name: table } : undefined;
      });
    } catch (err) {
      this.opts.log?.warn('could not read a table after a schema change', { table: `${database}.${table}`, error: (err as Error).message });
      return undefined;
    }
  }
}

const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

async function variables(c: mysql.Connection, names: string[]): Promise<Record<string, string>> {
  const [rows] = (await c.query(`SHOW GLOBAL VARIABLES WHERE Variable_name IN (${names.map(() => '?').join(', ')})`, names)) as unknown as [{ Variable_name: string; Value: string }[]];
  return Object.fromEntries(rows.map((r) => [r.Variable_name.toLowerCase(), r.Value]));
}

async function binaryLogs(c: mysql.Connection): Promise<string[]> {
  const [rows] = (await c.query('SHOW BINARY LOGS')) as unknown as [{ Log_name: string }[]];
  return rows.map((r) => r.Log_name);
}

async function masterStatus(c: mysql.Connection): Promise<BinlogPosition> {
  let rows: { File: string; Position: number }[];
  try {
    [rows] = (await c.query('SHOW MASTER STATUS')) as unknown as [{ File: string; Position: number }[]];
  } catch {
    // MySQL 8.4 renamed it
    [rows] = (await c.query('SHOW BINARY LOG STATUS')) as unknown as [{ File: string; Position: number }[]];
  }
  return { file: rows[0]?.File ?? '', pos: Number(rows[0]?.Position ?? 0) };
}

/** Each captured database's tables as their SHOW CREATE TABLE parses (what Debezium's snapshot reads). */
async function readCatalog(c: mysql.Connection, databaseCaptured: (db: string) => boolean): Promise<Catalog> {
  const catalog: Catalog = new Map();
  const [dbs] = (await c.query('SHOW DATABASES')) as unknown as [{ Database: string }[]];
  for (const { Database: db } of dbs) {
    if (BUILT_IN.has(db.toLowerCase()) || !databaseCaptured(db)) continue;
    const tables = new Map<string, TableDef>();
    const [names] = (await c.query(`SHOW FULL TABLES FROM ${quote(db)} WHERE Table_type = 'BASE TABLE'`)) as unknown as [Record<string, string>[]];
    for (const row of names) {
      const table = Object.values(row)[0]!;
      const [shown] = (await c.query(`SHOW CREATE TABLE ${quote(db)}.${quote(table)}`)) as unknown as [Record<string, string>[]];
      tables.set(table, { ...readHeldTable(shown[0]!['Create Table']!).def, name: table });
    }
    catalog.set(db, tables);
  }
  return catalog;
}

/**
 * A row as the server or the binlog client gives it, in the embedded source's shape: integers as
 * numbers (a bigint beyond 2^53), DECIMALs as their text at the column's scale, dates and times
 * as MySQL's text, text as strings.
 */
function rowOf(def: TableDef, raw: Record<string, unknown>): Row {
  const row: Row = {};
  for (const c of def.columns) row[c.name] = valueOf(c, raw[c.name]);
  return row;
}

function valueOf(c: ColumnDef, v: unknown): Row[string] {
  if (v === null || v === undefined) return null;
  const k = storeKind(c);
  switch (k.kind) {
    case 'int':
    case 'year': {
      const n = typeof v === 'bigint' ? v : BigInt(String(v));
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    }
    case 'decimal':
      return typeof v === 'number' ? v.toFixed(k.scale) : String(v);
    case 'real':
      return Number(v);
    default:
      if (v instanceof Date) return v.toISOString().replace('T', ' ').replace(/Z$/, '');
      if (Buffer.isBuffer(v)) return v.toString('hex');
      return typeof v === 'number' || typeof v === 'bigint' ? v : String(v);
  }
}
