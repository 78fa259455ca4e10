/**
 * The MySQL source task over Loupe's embedded source: a snapshot of the captured tables (op "r")
 * when the snapshot mode asks for one, then the binlog (ops c/u/d, a tombstone after each delete).
 * Every record carries its source offset; the worker stores offsets atomically with the records,
 * so a restart resumes after the last record written — no loss, no duplicate.
 *
 * Offsets: `{file, pos, row, gtids, ts_sec, server_id}` while streaming, where `pos` is the start
 * of the transaction and `row` how many of its events are already emitted; during the snapshot
 * MySqlOffsetContext's `{file, pos, gtids, ts_sec, snapshot: true}` (the binlog position the
 * snapshot was taken at), without `snapshot` on its last record. A row's offset also names its
 * table and row (`snapshot_table`, `snapshot_rowid`, Loupe's own keys): an interrupted snapshot
 * goes on after the last stored row, where Debezium 1.9 takes it again from its start, because a
 * restart here must repeat nothing; only one stopped before any row was stored starts over.
 *
 * As in MySQL's consistent snapshot, the snapshot reads the tables as they were at its position
 * however long it takes (consistent-read.ts), and every row, snapshot or binlog, is shaped by its
 * table's definition at the position read (catalog-history.ts), as Debezium's schema history has it.
 */
import { ConnectException, type ConnectHeader, type ConnectorConfig, type SourceRecord, type SourceTask, type SourceTaskContext } from '../../plugin.js';
import type { BinlogPosition, BinlogTransaction, CaptureSource, Catalog, TableDef } from '../../../source/types.js';
import { applyStreamedDdl, structureAsShown } from './table-structure.js';
import { applyDdl, copyCatalog } from '../../../source/catalog-history.js';
import { ConsistentRead } from '../../../source/consistent-read.js';
import { BinlogCaptureSource } from '../../../source/binlog-capture.js';
import { MySqlError } from '../../../source/mysql-error.js';
import { EMBEDDED_SOURCE_DEFAULT_ADDRESS, isEmbeddedAddress } from '../../../source/address.js';
import { BUILT_IN_DATABASES, notAppliedKeys, parseConfig, type MySqlConnectorConfig, type SnapshotMode } from './config.js';
import { DEBEZIUM_VERSION, keyValue, rowValue, tableSchemas, type SourceInfoValue, type TableSchemas } from './envelope.js';
import { SCHEMA_CHANGE_KEY, SCHEMA_CHANGE_VALUE, tableChange } from './schema-change.js';
import { showCreateTable } from '../../../source/mysql-ddl.js';
import { Slicer } from '../../slice.js';
import { headerText } from '../../converters/header-text.js';
import { mapperFor } from './column-mappers.js';
import { HEARTBEAT_KEY_SCHEMA, HEARTBEAT_VALUE_SCHEMA, TRANSACTION_KEY_SCHEMA, TRANSACTION_VALUE_SCHEMA, transactionFromOffset, transactionOffset, type OpenTransaction } from './transaction-metadata.js';
import type { ColumnLike } from './column-types.js';

/** Most transactions parsed per read of the change log (kept until emitted). */
const READ_AHEAD_TRANSACTIONS = 16;

interface SnapshotState {
  /** Tables whose rows are read, in RelationalSnapshotChangeEventSource.sort's order. */
  tables: { db: string; table: string }[];
  tableIdx: number;
  rowid: number;
  /** source.ts_ms of the current table's rows: CURRENT_TIMESTAMP (whole seconds) when its read began. */
  tableTs: number | null;
  at: BinlogPosition;
  /** The tables' rows as they were at `at`, however long the snapshot takes. */
  read: Pick<ConsistentRead, 'scan'>;
  /** The executed GTID set at the snapshot's position (SHOW MASTER STATUS), '' when there is none. */
  gtids: string;
  /** Whether rows are read (SnapshottingTask.snapshotData); the schema is always read when snapshotting. */
  data: boolean;
  /** Schema change events of the snapshot are still to be sent. */
  schemaPending: boolean;
  /** The tables whose structure the snapshot's schema change events carry. */
  schemaTables: { db: string; table: string }[];
  /**
   * Records built but not yet handed out: at least the last one until the snapshot ends, as
   * Debezium's buffering ChangeEventQueue keeps it, so the snapshot's final record can be marked
   * "last" even when the last table is empty; after it, what exceeds max.batch.size.
   */
  pending: SourceRecord[];
  /** All records are built; `pending` is handed out, then streaming begins. */
  done: boolean;
}

interface ModeFlags {
  schema: boolean;
  data: boolean;
  stream: boolean;
  snapshotOnSchemaError: boolean;
  snapshotOnDataError: boolean;
}

/**
 * MySqlConnectorConfig.SnapshotMode at v1.9.8.Final (includeSchema, includeData, shouldStream,
 * shouldSnapshotOnSchemaError, shouldSnapshotOnDataError); no_data, recovery and always are the
 * names Debezium 2.x gave schema_only and schema_only_recovery, and its mode that snapshots at
 * every start.
 */
const MODES: Record<SnapshotMode, ModeFlags> = {
  when_needed: { schema: true, data: true, stream: true, snapshotOnSchemaError: false, snapshotOnDataError: true },
  initial: { schema: true, data: true, stream: true, snapshotOnSchemaError: false, snapshotOnDataError: false },
  schema_only: { schema: true, data: false, stream: true, snapshotOnSchemaError: false, snapshotOnDataError: false },
  no_data: { schema: true, data: false, stream: true, snapshotOnSchemaError: false, snapshotOnDataError: false },
  schema_only_recovery: { schema: true, data: false, stream: true, snapshotOnSchemaError: true, snapshotOnDataError: false },
  recovery: { schema: true, data: false, stream: true, snapshotOnSchemaError: true, snapshotOnDataError: false },
  never: { schema: false, data: false, stream: true, snapshotOnSchemaError: false, snapshotOnDataError: false },
  initial_only: { schema: true, data: true, stream: false, snapshotOnSchemaError: false, snapshotOnDataError: false },
  always: { schema: true, data: true, stream: true, snapshotOnSchemaError: false, snapshotOnDataError: false },
};

/** The server's character set variables as MySqlConnection.setStatementFor writes them (the embedded source's @@variables). */
const SNAPSHOT_SET_STATEMENT = 'SET character_set_server=utf8mb4, collation_server=utf8mb4_0900_ai_ci';
const DATABASE_LOCALES = ' CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci';

export class MySqlSourceTask implements SourceTask {
  private cfg!: MySqlConnectorConfig;
  private source!: CaptureSource;
  /** The real server captured, when the connector names one (else the embedded source is `source`). */
  private remote: BinlogCaptureSource | null = null;
  private ctx!: SourceTaskContext;
  private partition!: Record<string, unknown>;
  private snapshot: SnapshotState | null = null;
  /**
   * The table definitions where the task reads: at the snapshot's position, then kept up with the
   * DDL the binlog holds as streaming goes on (Debezium's schema history), so a row is shaped by
   * its table as it was when the row was written.
   */
  private defs: Catalog = new Map();
  /** The same tables as their DDL wrote them, to tell which columns a later statement defines. */
  private written: Catalog = new Map();
  private mode!: ModeFlags;
  /** Next transaction to read and how many of its events were already emitted. */
  private stream: { from: BinlogPosition; skip: number } | null = null;
  /** provide.transaction.metadata: the transaction whose BEGIN was sent and its event counts so far. */
  private openTx: OpenTransaction | null = null;
  private lastHeartbeat = 0;
  private stopped = false;
  private schemas = new Map<string, { def: TableDef; s: TableSchemas }>();
  /** Transactions read from the change log but not yet fully emitted, in order. */
  private ahead: BinlogTransaction[] = [];
  /** Transactions per read: as many as about two polls use, so large ones are not parsed long before they are needed. */
  private readAhead = READ_AHEAD_TRANSACTIONS;

  async start(config: ConnectorConfig, context: SourceTaskContext): Promise<void> {
    this.ctx = context;
    this.cfg = parseConfig(config);
    const source = await this.openSource(config, context);
    this.source = source;
    this.partition = { server: this.cfg.topicPrefix };
    this.mode = MODES[this.cfg.snapshotMode] ?? MODES.initial;
    const stored = await context.offset(this.partition);
    if (stored && typeof stored.file !== 'string') throw new ConnectException("Source offset 'file' parameter is missing");
    let offset = stored;
    const mode = this.mode;
    const running = !!offset && (offset.snapshot === true || offset.snapshot === 'true');
    // MySqlConnectorTask.validateAndLoadDatabaseHistory. The schema history is the embedded
    // source's own catalogue, which always exists, so only the first check has a case here.
    if (!offset && mode.snapshotOnSchemaError) throw new ConnectException('Could not find existing binlog information while attempting schema only recovery snapshot');
    // MySqlConnectorTask.validateSnapshotFeasibility
    if (offset && running) {
      if (!mode.schema && !mode.data) {
        throw new ConnectException('The connector previously stopped while taking a snapshot, but now the connector is configured to never allow snapshots. Reconfigure the connector to use snapshots initially or when needed.');
      }
    } else if (offset && !this.binlogAvailable(offset)) {
      const at = `file=${String(offset.file)}, pos=${String(offset.pos)}${typeof offset.gtids === 'string' ? `, gtids=${offset.gtids}` : ''}`;
      if (!mode.snapshotOnDataError) throw new ConnectException(`The connector is trying to read binlog starting at ${at}, but this is no longer available on the server. Reconfigure the connector to use a snapshot when needed.`);
      context.services.log.warn(`The connector is trying to read binlog starting at '${at}', but this is no longer available on the server. Forcing the snapshot execution as it is allowed by the configuration.`);
      offset = null;
    }
    // MySqlSnapshotChangeEventSource.getSnapshottingTask: after a completed snapshot neither schema
    // nor data again (always, of Debezium 2.x, snapshots at every start).
    const again = !offset || running || this.cfg.snapshotMode === 'always';
    if (again && (mode.schema || mode.data)) {
      // a real server's snapshot is one consistent read taken now: an interrupted one starts over
      if (this.remote) await this.remote.snapshot();
      const resuming = running && !this.remote;
      // determineSnapshotOffset: an interrupted snapshot is taken again at the position it had
      const now = source.position();
      const at = offset && resuming ? { file: String(offset.file), pos: Number(offset.pos) } : { file: now.file, pos: now.pos };
      const gtids = offset && resuming ? (typeof offset.gtids === 'string' ? offset.gtids : '') : now.gtidSet;
      if (running) context.services.log.info('Previous snapshot was cancelled before completion; it goes on after the last row it stored, or starts over if it stored none.');
      this.written = source.tableDefsAt(at);
      this.defs = structureAsShown(this.written);
      // a real server's rows were read under its consistent snapshot; the embedded source's are
      // read as they stood at the position, whatever is committed meanwhile
      const read = this.remote ?? new ConsistentRead(source, at, this.defs, (db, table) => this.captured(db, table));
      const schemaTables = mode.schema ? await this.schemaTables() : [];
      const tables = mode.data ? await this.snapshotTables() : [];
      this.snapshot = { tables, tableIdx: 0, rowid: 0, tableTs: null, at, read, gtids, data: mode.data, schemaPending: mode.schema, schemaTables, pending: [], done: false };
      // An interrupted snapshot that had stored a row goes on after it (see the header comment).
      const resumeTable = resuming && typeof offset!.snapshot_table === 'string' ? tables.findIndex((t) => `${t.db}.${t.table}` === offset!.snapshot_table) : -1;
      if (resumeTable >= 0) Object.assign(this.snapshot, { tableIdx: resumeTable, rowid: Number(offset!.snapshot_rowid ?? 0), schemaPending: false });
    } else if (mode.stream) {
      // MySqlOffsetContext.initial: without an offset, from the beginning of the binlog
      this.stream = offset ? { from: { file: String(offset.file), pos: Number(offset.pos) }, skip: Number(offset.row ?? 0) } : { from: { file: '', pos: 0 }, skip: 0 };
      this.written = source.tableDefsAt(this.stream.from);
      this.defs = copyCatalog(this.written);
      // An offset inside a DDL statement's transaction (its schema change event's, row 1) says the
      // statement was read: the schema history already holds it (Debezium records the DDL with its
      // position and recovers it on restart), so the tables are taken after it, not before, or
      // the rows written after it (those a CREATE TABLE … SELECT copied) would find no table.
      if (this.stream.skip > 0) {
        const tx = this.nextTransaction(this.stream.from);
        if (tx?.ddl && tx.file === this.stream.from.file && tx.pos === this.stream.from.pos) this.applySchemaChange(tx);
      }
      if (offset) this.openTx = transactionFromOffset(offset);
    }
    this.lastHeartbeat = context.services.now();
    for (const { key, does } of notAppliedKeys(config)) context.services.log.warn(`'${key}' is accepted but not applied by Loupe's embedded MySQL connector (Debezium: ${does})`);
    context.services.log.info('MySQL source task started', { phase: this.snapshot ? 'snapshot' : this.stream ? 'streaming' : 'idle', mode: this.cfg.snapshotMode });
  }

  async poll(): Promise<SourceRecord[]> {
    if (this.stopped) return [];
    if (this.snapshot) return this.pollSnapshot();
    if (!this.stream) {
      await sleep(Math.min(this.cfg.pollIntervalMs, 1000));
      return [];
    }
    return this.pollStream();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.remote?.close();
  }

  /**
   * The embedded source when database.hostname and database.port are its own address (127.0.0.1,
   * localhost or ::1 and its port), else the MySQL or MariaDB server they name, read through its
   * binlog with the connector's user and password. Nothing else is taken for the embedded source.
   */
  private async openSource(config: ConnectorConfig, context: SourceTaskContext): Promise<CaptureSource> {
    const address = context.services.resource<{ host: string; port: number }>('embeddedSourceAddress') ?? EMBEDDED_SOURCE_DEFAULT_ADDRESS;
    if (isEmbeddedAddress(this.cfg.hostname, this.cfg.port, address)) {
      const source = context.services.resource<CaptureSource>('embeddedSource');
      if (!source) throw new ConnectException('The embedded source is not running in this worker');
      return source;
    }
    try {
      this.remote = await BinlogCaptureSource.open({
        host: this.cfg.hostname,
        port: this.cfg.port,
        user: config['database.user'] ?? '',
        password: config['database.password'] ?? '',
        serverId: this.cfg.serverId || 184054,
        captured: (db, table) => this.captured(db, table),
        databaseCaptured: (db) => this.databaseIncluded(db),
        log: context.services.log,
      });
    } catch (err) {
      // MySQL's own error for a login or connection that fails, as Debezium reports it
      if (err instanceof MySqlError) throw new ConnectException(`Error reading MySQL variables: ${err.message} (ERROR ${err.errno} (${err.sqlState}); database.hostname=${this.cfg.hostname}, database.port=${this.cfg.port}, database.user=${config['database.user'] ?? ''})`);
      throw new ConnectException((err as Error).message);
    }
    return this.remote;
  }

  // ------------------------------------------------------------------------------ snapshot

  private pollSnapshot(): SourceRecord[] {
    const snap = this.snapshot!;
    const max = this.cfg.maxBatchSize;
    if (snap.done) {
      const out = snap.pending.splice(0, max);
      if (snap.pending.length === 0) this.snapshot = null;
      return out;
    }
    const out = snap.pending;
    snap.pending = [];
    if (snap.schemaPending) {
      snap.schemaPending = false;
      if (this.cfg.includeSchemaChanges) out.push(...this.snapshotSchemaEvents());
    }
    const fetch = this.cfg.snapshotFetchSize > 0 ? this.cfg.snapshotFetchSize : max;
    // one more than a batch, so one is kept back
    while (snap.data && out.length <= max && snap.tableIdx < snap.tables.length) {
      const { db, table } = snap.tables[snap.tableIdx]!;
      const s = this.schemasFor(db, table);
      // RelationalSnapshotChangeEventSource.getSnapshotSourceTimestamp: SELECT CURRENT_TIMESTAMP before each table's read
      snap.tableTs ??= Math.floor(this.ctx.services.now() / 1000) * 1000;
      const rows = s ? snap.read.scan(db, table, snap.rowid, Math.min(fetch, max + 1 - out.length)) : [];
      if (rows.length === 0) {
        snap.tableIdx++;
        snap.rowid = 0;
        snap.tableTs = null;
        continue;
      }
      const offset = this.snapshotOffset(snap.tableTs / 1000);
      const source = this.snapshotSource(db, table, snap.tableTs);
      const snapshotTable = `${db}.${table}`;
      for (const { rowid, row } of rows) {
        snap.rowid = rowid;
        out.push(this.record(s!, 'r', null, row, { ...offset, snapshot_table: snapshotTable, snapshot_rowid: rowid }, source));
      }
    }
    if (!snap.data || snap.tableIdx >= snap.tables.length) {
      // MySqlSnapshotChangeEventSource.postSnapshot: the last record, whatever it is, says "last"
      // and its offset no longer has `snapshot`, so a restart after it streams.
      const last = out[out.length - 1];
      if (last) {
        (last.value as { source: SourceInfoValue }).source = { ...(last.value as { source: SourceInfoValue }).source, snapshot: 'last' };
        const { snapshot: _running, snapshot_table: _table, snapshot_rowid: _row, ...completed } = last.sourceOffset;
        last.sourceOffset = completed;
      }
      // RelationalSnapshotChangeEventSource.doExecute: dispatcher.alwaysDispatchHeartbeatEvent
      if (this.cfg.heartbeatIntervalMs > 0) {
        const { snapshot: _running, ...completed } = this.snapshotOffset(Math.floor(this.ctx.services.now() / 1000));
        this.lastHeartbeat = this.ctx.services.now();
        out.push(this.heartbeatRecord(completed));
      }
      this.stream = this.mode.stream ? { from: snap.at, skip: 0 } : null;
      this.ctx.services.log.info('snapshot completed', { records: out.length });
      snap.pending = out.splice(max);
      snap.done = true;
      if (snap.pending.length === 0) this.snapshot = null;
      return out;
    }
    snap.pending = out.splice(max);
    return out;
  }

  /** MySqlOffsetContext.getOffset during a snapshot: no server_id (it is 0 until the binlog is read) and no row. */
  private snapshotOffset(tsSec: number): Record<string, unknown> {
    const snap = this.snapshot!;
    const o: Record<string, unknown> = { file: snap.at.file, pos: snap.at.pos };
    if (snap.gtids.trim() !== '') o.gtids = snap.gtids;
    o.ts_sec = tsSec;
    o.snapshot = true;
    return o;
  }

  private snapshotSource(db: string, table: string | null, tsMs: number): SourceInfoValue {
    const snap = this.snapshot!;
    return { version: DEBEZIUM_VERSION, connector: 'mysql', name: this.cfg.topicPrefix, ts_ms: tsMs, snapshot: 'true', db, sequence: null, table, server_id: 0, gtid: null, file: snap.at.file, pos: snap.at.pos, row: 0, thread: null, query: null };
  }

  /**
   * MySqlConnectorTask.isBinlogAvailable. The embedded source never purges its change log; the
   * equivalent of a purged binlog is a source whose data directory was replaced since the offset
   * was stored: another server UUID, fewer transactions than the offset's GTID set names, or
   * change log files of other names.
   */
  private binlogAvailable(offset: Record<string, unknown>): boolean {
    if (typeof offset.gtids === 'string') {
      if (offset.gtids.trim() === '') return true;
      const uuid = this.source.info().serverUuid;
      const executed = this.source.position().seq;
      for (const part of offset.gtids.split(',')) {
        const [id, ...intervals] = part.trim().split(':');
        if (id?.toLowerCase() !== uuid.toLowerCase()) return false;
        for (const iv of intervals) if (Number(iv.split('-').at(-1)) > executed) return false;
      }
      return true;
    }
    const file = offset.file;
    if (file === undefined || file === null || file === '') return true;
    return this.source.binlogFiles().includes(String(file));
  }

  // ----------------------------------------------------------------------------- streaming

  // ----------------------------------------------------------------------------- streaming

  /**
   * Up to max.batch.size records, as Debezium's change event queue hands them out: a large
   * transaction is split over several polls (the offset's `row` says how far it got), and many
   * small ones fill one poll. Transactions are read from the change log a few at a time and kept
   * parsed until used, so a backlog is read once, not once per poll.
   */
  private async pollStream(): Promise<SourceRecord[]> {
    const st = this.stream!;
    const max = this.cfg.maxBatchSize;
    const out: SourceRecord[] = [];
    const serverId = this.source.info().serverId;
    const uuid = this.source.info().serverUuid;
    // Building a full batch takes milliseconds of the event loop the sinks' I/O waits on.
    const slicer = new Slicer();
    let built = 0;
    while (out.length < max) {
      const tx = this.nextTransaction(st.from);
      if (!tx) break;
      const skip = tx.pos === st.from.pos && tx.file === st.from.file ? st.skip : 0;
      if (tx.ddl && skip === 0) {
        // A DDL statement is applied to the task's tables as it is read; its event carries the
        // table as the task then holds it (as it was, for a DROP).
        const db = tx.database;
        const held = tx.ddl.table ? this.defs.get(db)?.get(tx.ddl.table) : undefined;
        this.applySchemaChange(tx);
        const now = tx.ddl.def ? this.defs.get(db)?.get(tx.ddl.def.name) : undefined;
        const ev = this.cfg.includeSchemaChanges ? this.streamingSchemaEvent(tx, serverId, tx.ddl.kind === 'drop-table' ? held : now) : null;
        if (ev) out.push(ev);
      }
      // a server without GTIDs (the real one read without gtid_mode) has none in its offsets
      const gtids = uuid ? `${uuid}:1-${tx.seq}` : undefined;
      const tsSec = Math.floor(tx.ts / 1000);
      // A DDL statement is not a transaction in the binlog (no BEGIN … XID around it).
      let open: OpenTransaction | null = null;
      if (this.cfg.provideTransactionMetadata && !tx.ddl) {
        open = this.openTx && this.openTx.file === tx.file && this.openTx.pos === tx.pos ? this.openTx : null;
        if (!open) {
          open = this.openTx = { file: tx.file, pos: tx.pos, id: tx.gtid || `file=${tx.file},pos=${tx.pos}`, total: 0, perTable: new Map() };
          out.push(this.transactionRecord('BEGIN', open, { file: tx.file, pos: tx.pos, row: skip, ...(gtids ? { gtids } : {}), ts_sec: tsSec, server_id: serverId, event: 1, ...transactionOffset(open) }));
        }
      }
      let i = skip;
      // A transaction's events mostly touch one table: its filter and schemas are looked up once per run of it.
      let runTable: string | undefined;
      let runSchemas: TableSchemas | undefined;
      for (; i < tx.events.length && out.length < max; i++) {
        if (slicer.due(built++)) {
          await slicer.turn();
          if (this.stopped) return out;
        }
        const ev = tx.events[i]!;
        if (ev.table !== runTable) {
          runTable = ev.table;
          runSchemas = this.captured(tx.database, ev.table) ? this.schemasFor(tx.database, ev.table) : undefined;
        }
        const s = runSchemas;
        if (!s || this.cfg.skippedOperations.has(ev.op)) continue;
        const offset: Record<string, unknown> = { file: tx.file, pos: tx.pos, row: i + 1, ...(gtids ? { gtids } : {}), ts_sec: tsSec, server_id: serverId, event: 1 };
        const info: SourceInfoValue = {
          version: DEBEZIUM_VERSION,
          connector: 'mysql',
          name: this.cfg.topicPrefix,
          // MySQL binlog event timestamps have second precision.
          ts_ms: tsSec * 1000,
          snapshot: 'false',
          db: tx.database,
          sequence: null,
          table: ev.table,
          server_id: serverId,
          gtid: tx.gtid || null,
          file: tx.file,
          pos: tx.pos,
          row: i,
          thread: tx.thread,
          query: this.cfg.includeQuery ? tx.query : null,
        };
        if (ev.op === 'u' && ev.before && ev.after && s.keyColumns.some(({ col }) => ev.before![col.name] !== ev.after![col.name])) {
          // A primary key change, as Debezium sends it: a delete of the old key (its tombstone
          // too) and a create of the new one, each naming the other key in a header.
          const oldKey = keyValue(s, ev.before)!;
          const newKey = keyValue(s, ev.after)!;
          const d = this.record(s, 'd', ev.before, null, offset, info, [{ key: '__debezium.newkey', value: headerText(newKey) }]);
          if (open) this.countEvent(open, tx.database, ev.table, d);
          out.push(d);
          // the tombstone carries the delete's headers (EventDispatcher copies record.headers())
          if (this.cfg.tombstonesOnDelete) out.push({ ...d, valueSchema: null, value: null });
          const c = this.record(s, 'c', null, ev.after, offset, info, [{ key: '__debezium.oldkey', value: headerText(oldKey) }]);
          if (open) this.countEvent(open, tx.database, ev.table, c);
          out.push(c);
          continue;
        }
        const rec = this.record(s, ev.op, ev.before, ev.after, offset, info);
        if (open) this.countEvent(open, tx.database, ev.table, rec);
        out.push(rec);
        if (ev.op === 'd' && this.cfg.tombstonesOnDelete) {
          const d = out[out.length - 1]!;
          out.push({ ...d, valueSchema: null, value: null });
        }
      }
      if (i < tx.events.length) {
        // the batch is full inside this transaction: the next poll continues after event i
        st.from = { file: tx.file, pos: tx.pos };
        st.skip = i;
        break;
      }
      st.from = { file: tx.file, pos: tx.nextPos };
      st.skip = 0;
      this.ahead.shift();
      if (open) {
        // The commit (XID) event: END, whose offset is already past the transaction.
        out.push(this.transactionRecord('END', open, { file: tx.file, pos: tx.nextPos, row: 0, ...(gtids ? { gtids } : {}), ts_sec: tsSec, server_id: serverId, event: 1 }));
        this.openTx = null;
      }
    }
    if (out.length === 0) await this.source.waitForCommit(st.from, Math.min(Math.max(this.cfg.pollIntervalMs, 50), 1000));
    const heartbeat = this.heartbeat(serverId);
    if (heartbeat) out.push(heartbeat);
    return out;
  }

  /**
   * heartbeat.interval.ms: a record to `<heartbeat.topics.prefix>.<topic prefix>` once the interval
   * has passed, carrying where streaming stands, so an idle connector's offset keeps moving.
   */
  private heartbeat(serverId: number): SourceRecord | null {
    const every = this.cfg.heartbeatIntervalMs;
    const now = this.ctx.services.now();
    // Only between transactions: a heartbeat's offset then names no event, so the pipeline view
    // (which matches offsets to change events) never takes it for one.
    if (every <= 0 || now - this.lastHeartbeat < every || !this.stream || this.stream.skip !== 0) return null;
    this.lastHeartbeat = now;
    const st = this.stream;
    return this.heartbeatRecord({ file: st.from.file, pos: st.from.pos, row: 0, server_id: serverId, event: 1 });
  }

  private heartbeatRecord(offset: Record<string, unknown>): SourceRecord {
    const now = this.ctx.services.now();
    return {
      sourcePartition: this.partition,
      sourceOffset: offset,
      topic: this.cfg.heartbeatTopic,
      kafkaPartition: 0,
      keySchema: HEARTBEAT_KEY_SCHEMA,
      key: { serverName: this.cfg.topicPrefix },
      valueSchema: HEARTBEAT_VALUE_SCHEMA,
      value: { ts_ms: now },
      timestamp: now,
    };
  }

  /** TransactionMonitor.transactionEvent: the event's place in its transaction, in its value and its offset. */
  private countEvent(open: OpenTransaction, db: string, table: string, rec: SourceRecord): void {
    const collection = `${db}.${table}`;
    const n = (open.perTable.get(collection) ?? 0) + 1;
    open.perTable.set(collection, n);
    open.total++;
    (rec.value as { transaction: unknown }).transaction = { id: open.id, total_order: open.total, data_collection_order: n };
    rec.sourceOffset = { ...rec.sourceOffset, ...transactionOffset(open) };
  }

  private transactionRecord(status: 'BEGIN' | 'END', open: OpenTransaction, offset: Record<string, unknown>): SourceRecord {
    const end = status === 'END';
    return {
      sourcePartition: this.partition,
      sourceOffset: offset,
      topic: this.cfg.transactionTopic,
      keySchema: TRANSACTION_KEY_SCHEMA,
      key: { id: open.id },
      valueSchema: TRANSACTION_VALUE_SCHEMA,
      value: { status, id: open.id, event_count: end ? open.total : null, data_collections: end ? [...open.perTable].map(([data_collection, event_count]) => ({ data_collection, event_count })) : null },
      timestamp: this.ctx.services.now(),
    };
  }

  /** The transaction at `from` (from the read-ahead when it has it), or undefined when none is committed yet. */
  private nextTransaction(from: BinlogPosition): BinlogTransaction | undefined {
    const head = this.ahead[0];
    if (head && head.file === from.file && head.pos === from.pos) return head;
    this.ahead = this.source.readTransactions(from, this.readAhead);
    // Parsing is one synchronous stretch of the event loop, which the sinks' I/O waits behind:
    // sixteen transactions of 5,000 changes would hold it for about 80 ms.
    const events = this.ahead.reduce((n, tx) => n + tx.events.length, 0);
    if (this.ahead.length) this.readAhead = Math.max(1, Math.min(READ_AHEAD_TRANSACTIONS, Math.ceil((2 * this.cfg.maxBatchSize * this.ahead.length) / Math.max(1, events))));
    return this.ahead[0];
  }

  // ------------------------------------------------------------------------- schema changes

  /** The task's tables after a DDL statement read from the binlog (MySqlDatabaseSchema.parseStreamingDdl). */
  private applySchemaChange(tx: BinlogTransaction): void {
    const ddl = tx.ddl!;
    const before = ddl.table ? this.written.get(tx.database)?.get(ddl.table) : undefined;
    applyStreamedDdl(this.defs, tx.database, ddl, before);
    applyDdl(this.written, tx.database, ddl);
  }

  private schemaRecord(db: string, ddl: string, changes: Record<string, unknown>[], source: SourceInfoValue, offset: Record<string, unknown>): SourceRecord {
    return {
      sourcePartition: this.partition,
      sourceOffset: offset,
      topic: this.cfg.topicPrefix,
      keySchema: SCHEMA_CHANGE_KEY,
      key: { databaseName: db },
      valueSchema: SCHEMA_CHANGE_VALUE,
      value: { source, databaseName: db, schemaName: null, ddl, tableChanges: changes },
      timestamp: this.ctx.services.now(),
    };
  }

  /**
   * MySqlSnapshotChangeEventSource.readTableStructure: the server's character set, a DROP TABLE IF
   * EXISTS per table, then per database DROP DATABASE IF EXISTS, CREATE DATABASE, USE and each
   * table as SHOW CREATE TABLE prints it — of every table of the included databases, captured or
   * not, unless store.only.captured.tables.ddl (skipSchemaChangeEvent drops the other databases).
   */
  private snapshotSchemaEvents(): SourceRecord[] {
    const snap = this.snapshot!;
    // parseSnapshotDdl gets clock.currentTimeAsInstant() as the events' source time
    const now = this.ctx.services.now();
    const offset = this.snapshotOffset(Math.floor(now / 1000));
    const out: SourceRecord[] = [];
    const add = (db: string, table: string | null, ddl: string, changes: Record<string, unknown>[] = []) => out.push(this.schemaRecord(db, ddl, changes, this.snapshotSource(db, table, now), offset));
    const tables = snap.schemaTables.filter((t) => this.databaseIncluded(t.db));
    add('', null, SNAPSHOT_SET_STATEMENT);
    for (const { db, table } of tables) add(db, table, `DROP TABLE IF EXISTS \`${db}\`.\`${table}\``);
    for (const db of new Set(tables.map((t) => t.db))) {
      add(db, null, `DROP DATABASE IF EXISTS \`${db}\``);
      add(db, null, `CREATE DATABASE \`${db}\`${DATABASE_LOCALES}`);
      add(db, null, `USE \`${db}\``);
      for (const { table } of tables.filter((t) => t.db === db)) {
        const def = this.defs.get(db)?.get(table);
        if (def) add(db, table, showCreateTable(def), [tableChange(db, def, 'CREATE')]);
      }
    }
    return out;
  }

  private streamingSchemaEvent(tx: BinlogTransaction, serverId: number, table: TableDef | undefined): SourceRecord | null {
    const ddl = tx.ddl!;
    const db = tx.database;
    // MySqlDatabaseSchema.skipSchemaChangeEvent; DDL of tables the filters leave out is sent
    // unless only captured tables' DDL is stored (parseDdl, EventDispatcher.dispatchSchemaChangeEvent)
    if (!this.databaseIncluded(db)) return null;
    if (ddl.table && this.cfg.storeOnlyCapturedTablesDdl && !this.captured(db, ddl.table)) return null;
    // Debezium 1.9 (MySqlDatabaseSchema) records TRUNCATE as a database-level change: no table change
    const changes =
      ddl.kind === 'truncate-table'
        ? []
        : ddl.table && (table ?? ddl.def)
          ? [tableChange(db, (table ?? ddl.def)!, ddl.kind === 'create-table' ? 'CREATE' : ddl.kind === 'drop-table' ? 'DROP' : 'ALTER')]
          : ddl.table && ddl.kind === 'drop-table'
            ? // a drop logged without the table's definition (by an earlier version)
              [{ type: 'DROP', id: `"${db}"."${ddl.table}"`, table: { defaultCharsetName: null, primaryKeyColumnNames: [], columns: [], comment: null } }]
            : [];
    // parseStreamingDdl is given clock.currentTimeAsInstant() as the event's source time, not the binlog's
    const source: SourceInfoValue = { version: DEBEZIUM_VERSION, connector: 'mysql', name: this.cfg.topicPrefix, ts_ms: this.ctx.services.now(), snapshot: 'false', db, sequence: null, table: ddl.table ?? null, server_id: serverId, gtid: tx.gtid || null, file: tx.file, pos: tx.pos, row: 0, thread: tx.thread, query: null };
    const offset = { file: tx.file, pos: tx.pos, row: 1, ...(this.source.info().serverUuid ? { gtids: `${this.source.info().serverUuid}:1-${tx.seq}` } : {}), ts_sec: Math.floor(tx.ts / 1000), server_id: serverId, event: 1 };
    return this.schemaRecord(db, ddl.mysql, changes, source, offset);
  }

  // ------------------------------------------------------------------------------- helpers

  private record(s: TableSchemas, op: 'c' | 'u' | 'd' | 'r', before: Record<string, unknown> | null, after: Record<string, unknown> | null, offset: Record<string, unknown>, source: SourceInfoValue, headers?: ConnectHeader[]): SourceRecord {
    const now = this.ctx.services.now();
    const r: SourceRecord = {
      sourcePartition: this.partition,
      sourceOffset: offset,
      topic: s.topic,
      keySchema: s.keySchema,
      key: keyValue(s, after ?? before),
      valueSchema: s.envelopeSchema,
      value: { before: rowValue(s, before, op !== 'r'), after: rowValue(s, after, op !== 'r'), source, op, ts_ms: now, transaction: null },
      timestamp: now,
    };
    if (headers) r.headers = headers;
    return r;
  }

  private schemasFor(db: string, table: string): TableSchemas | undefined {
    const def = this.defs.get(db)?.get(table);
    if (!def) return undefined;
    const key = `${db}.${table}`;
    const cached = this.schemas.get(key);
    if (cached && cached.def === def) return cached.s;
    const { columnInclude, columnExclude, messageKeyColumns, columnMappers } = this.cfg;
    const fq = (col: string) => `${db}.${table}.${col}`;
    const s = tableSchemas(this.cfg.topicPrefix, db, table, def.columns, def.primaryKey, this.cfg.typeModes, {
      ...(columnInclude ? { includeColumn: (c: string) => columnInclude.some((r) => r.test(fq(c))) } : columnExclude ? { includeColumn: (c: string) => !columnExclude.some((r) => r.test(fq(c))) } : {}),
      ...(messageKeyColumns ? { keyColumns: def.columns.map((c) => c.name).filter((c) => messageKeyColumns.some((r) => r.test(fq(c)))) } : {}),
      ...(columnMappers.length ? { mapper: (c: ColumnLike) => mapperFor(columnMappers, db, table, c) } : {}),
    });
    this.schemas.set(key, { def, s });
    return s;
  }

  private captured(db: string, table: string): boolean {
    const c = this.cfg;
    if (!this.databaseIncluded(db)) return false;
    if (c.ignoreBuiltin && BUILT_IN_DATABASES.has(db.toLowerCase())) return false;
    const full = `${db}.${table}`;
    if (c.tableInclude && !c.tableInclude.some((r) => r.test(full))) return false;
    if (c.tableExclude && c.tableExclude.some((r) => r.test(full))) return false;
    return true;
  }

  private databaseIncluded(db: string): boolean {
    const c = this.cfg;
    if (c.databaseInclude && !c.databaseInclude.some((r) => r.test(db))) return false;
    if (c.databaseExclude && c.databaseExclude.some((r) => r.test(db))) return false;
    return true;
  }

  private async allTables(): Promise<{ db: string; table: string }[]> {
    const out: { db: string; table: string }[] = [];
    for (const [db, tables] of this.defs) for (const table of tables.keys()) out.push({ db, table });
    // TableId order: by `<db>.<table>`
    return out.sort((a, b) => compare(`${a.db}.${a.table}`, `${b.db}.${b.table}`));
  }

  /**
   * RelationalSnapshotChangeEventSource.determineCapturedTables and sort: the captured tables, in
   * the order of the table.include.list entries that first match them (each entry's tables
   * sorted), or sorted when there is no such list.
   */
  private async snapshotTables(all?: { db: string; table: string }[]): Promise<{ db: string; table: string }[]> {
    const captured = (all ?? (await this.allTables())).filter((t) => this.captured(t.db, t.table));
    const order = this.cfg.tableIncludeOrder;
    if (!order) return captured;
    const seen = new Set<string>();
    const out: { db: string; table: string }[] = [];
    for (const re of order) {
      for (const t of captured) {
        const id = `${t.db}.${t.table}`;
        if (!seen.has(id) && re.test(id)) {
          seen.add(id);
          out.push(t);
        }
      }
    }
    return out;
  }

  /** RelationalTableFilters.eligibleForSchemaDataCollectionFilter, in the order readTableStructure reads them. */
  private async schemaTables(): Promise<{ db: string; table: string }[]> {
    const all = await this.allTables();
    if (this.cfg.storeOnlyCapturedTablesDdl) return this.snapshotTables(all);
    return all.filter((t) => !this.cfg.ignoreBuiltin || !BUILT_IN_DATABASES.has(t.db.toLowerCase()));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
