/**
 * The MySQL source task over Loupe's embedded source: a snapshot of the captured tables (op "r")
 * when the snapshot mode asks for one, then the binlog (ops c/u/d, a tombstone after each delete).
 * Every record carries its source offset; the worker stores offsets atomically with the records,
 * so a restart resumes after the last record written — no loss, no duplicate.
 *
 * Offsets: `{file, pos, row, gtids, ts_sec, server_id}` while streaming, where `pos` is the start
 * of the transaction and `row` how many of its events are already emitted; during the snapshot
 * `{snapshot: true, snapshot_table, snapshot_rowid, file, pos}` (the binlog position the snapshot
 * was taken at, where streaming begins afterwards).
 */
import { ConnectException, type ConnectHeader, type ConnectorConfig, type Schema, type SourceRecord, type SourceTask, type SourceTaskContext } from '../../plugin.js';
import type { BinlogPosition, BinlogTransaction, CaptureSource, TableDef } from '../../../source/types.js';
import { notAppliedKeys, parseConfig, type MySqlConnectorConfig } from './config.js';
import { DEBEZIUM_VERSION, keyValue, rowValue, tableSchemas, type SourceInfoValue, type TableSchemas } from './envelope.js';
import { SCHEMA_CHANGE_KEY, SCHEMA_CHANGE_VALUE, tableChange } from './schema-change.js';
import { showCreateTable } from '../../../source/mysql-ddl.js';
import { Slicer } from '../../slice.js';
import { headerText } from '../../converters/header-text.js';
import { mapperFor } from './column-mappers.js';
import type { ColumnLike } from './column-types.js';

/** Most transactions parsed per read of the change log (kept until emitted). */
const READ_AHEAD_TRANSACTIONS = 16;

interface SnapshotState {
  tables: { db: string; table: string }[];
  tableIdx: number;
  rowid: number;
  at: BinlogPosition;
  startedMs: number;
  /** Schema change events of the snapshot were written. */
  schemaDone: boolean;
}

export class MySqlSourceTask implements SourceTask {
  private cfg!: MySqlConnectorConfig;
  private source!: CaptureSource;
  private ctx!: SourceTaskContext;
  private partition!: Record<string, unknown>;
  private snapshot: SnapshotState | null = null;
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
    const source = context.services.resource<CaptureSource>('embeddedSource');
    if (!source) throw new ConnectException('The embedded source is not running in this worker');
    this.source = source;
    this.partition = { server: this.cfg.topicPrefix };
    const offset = await context.offset(this.partition);
    const mode = this.cfg.snapshotMode;
    const wantsSnapshot = ['initial', 'initial_only', 'when_needed', 'always'].includes(mode);
    if (offset && offset.snapshot === true && wantsSnapshot) {
      // The snapshot was interrupted: continue it where the last stored record left off.
      this.snapshot = {
        tables: await this.capturedTables(),
        tableIdx: Number(offset.snapshot_table ?? 0),
        rowid: Number(offset.snapshot_rowid ?? 0),
        at: { file: String(offset.file), pos: Number(offset.pos) },
        startedMs: Number(offset.snapshot_started ?? context.services.now()),
        schemaDone: offset.schema_done === true,
      };
    } else if (offset && mode !== 'always') {
      this.stream = { from: { file: String(offset.file), pos: Number(offset.pos) }, skip: Number(offset.row ?? 0) };
      this.openTx = transactionFromOffset(offset);
    } else if (wantsSnapshot) {
      const at = source.position();
      this.snapshot = { tables: await this.capturedTables(), tableIdx: 0, rowid: 0, at: { file: at.file, pos: at.pos }, startedMs: context.services.now(), schemaDone: false };
    } else if (mode === 'never') {
      this.stream = { from: { file: '', pos: 0 }, skip: 0 };
    } else {
      const at = source.position();
      this.stream = { from: { file: at.file, pos: at.pos }, skip: 0 };
    }
    this.lastHeartbeat = context.services.now();
    for (const { key, does } of notAppliedKeys(config)) context.services.log.warn(`'${key}' is accepted but not applied by Loupe's embedded MySQL connector (Debezium: ${does})`);
    context.services.log.info('MySQL source task started', { phase: this.snapshot ? 'snapshot' : 'streaming', mode });
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
  }

  // ------------------------------------------------------------------------------ snapshot

  private pollSnapshot(): SourceRecord[] {
    const snap = this.snapshot!;
    const out: SourceRecord[] = [];
    const max = this.cfg.maxBatchSize;
    if (!snap.schemaDone) {
      snap.schemaDone = true;
      if (this.cfg.includeSchemaChanges) out.push(...this.snapshotSchemaEvents());
    }
    let taken = 0;
    while (taken < max && snap.tableIdx < snap.tables.length) {
      const { db, table } = snap.tables[snap.tableIdx]!;
      const s = this.schemasFor(db, table);
      const rows = s ? this.source.scan(db, table, snap.rowid, max - taken) : [];
      taken += rows.length;
      if (rows.length === 0) {
        snap.tableIdx++;
        snap.rowid = 0;
        continue;
      }
      for (const { rowid, row } of rows) {
        snap.rowid = rowid;
        const offset = { file: snap.at.file, pos: snap.at.pos, snapshot: true, snapshot_table: snap.tableIdx, snapshot_rowid: rowid, snapshot_started: snap.startedMs, schema_done: true };
        out.push(this.record(db, table, s!, 'r', null, row, offset, this.snapshotSource(db, table, 'true')));
      }
    }
    if (!this.moreSnapshotRows()) {
      // This batch ends the snapshot: its last record is marked "last" and its offset is the
      // streaming start, so a restart after it never snapshots again.
      const last = out[out.length - 1];
      const streamOffset = { file: snap.at.file, pos: snap.at.pos, row: 0, ts_sec: Math.floor(snap.startedMs / 1000) };
      if (last) {
        (last.value as { source: SourceInfoValue }).source.snapshot = 'last';
        last.sourceOffset = streamOffset;
      }
      this.snapshot = null;
      this.stream = this.cfg.snapshotMode === 'initial_only' ? null : { from: snap.at, skip: 0 };
      this.ctx.services.log.info('snapshot completed', { records: out.length });
    }
    return out;
  }

  private moreSnapshotRows(): boolean {
    const snap = this.snapshot!;
    for (let i = snap.tableIdx; i < snap.tables.length; i++) {
      const { db, table } = snap.tables[i]!;
      if (!this.source.tableDef(db, table)) continue;
      if (this.source.scan(db, table, i === snap.tableIdx ? snap.rowid : 0, 1).length) return true;
    }
    return false;
  }

  private snapshotSource(db: string, table: string, snapshot: SourceInfoValue['snapshot']): SourceInfoValue {
    const snap = this.snapshot!;
    return { version: DEBEZIUM_VERSION, connector: 'mysql', name: this.cfg.topicPrefix, ts_ms: snap.startedMs, snapshot, db, sequence: null, table, server_id: 0, gtid: null, file: snap.at.file, pos: snap.at.pos, row: 0, thread: null, query: null };
  }

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
      if (tx.ddl && skip === 0 && this.cfg.includeSchemaChanges) {
        const ev = this.streamingSchemaEvent(tx, serverId);
        if (ev) out.push(ev);
      }
      const gtids = `${uuid}:1-${tx.seq}`;
      const tsSec = Math.floor(tx.ts / 1000);
      // A DDL statement is not a transaction in the binlog (no BEGIN … XID around it).
      let open: OpenTransaction | null = null;
      if (this.cfg.provideTransactionMetadata && !tx.ddl) {
        open = this.openTx && this.openTx.file === tx.file && this.openTx.pos === tx.pos ? this.openTx : null;
        if (!open) {
          open = this.openTx = { file: tx.file, pos: tx.pos, id: tx.gtid ?? `file=${tx.file},pos=${tx.pos}`, total: 0, perTable: new Map() };
          out.push(this.transactionRecord('BEGIN', open, { file: tx.file, pos: tx.pos, row: skip, gtids, ts_sec: tsSec, server_id: serverId, event: 1, ...transactionOffset(open) }));
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
        const offset: Record<string, unknown> = { file: tx.file, pos: tx.pos, row: i + 1, gtids, ts_sec: tsSec, server_id: serverId, event: 1 };
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
          gtid: tx.gtid,
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
          const d = this.record(tx.database, ev.table, s, 'd', ev.before, null, offset, info, [{ key: '__debezium.newkey', value: headerText(newKey) }]);
          if (open) this.countEvent(open, tx.database, ev.table, d);
          out.push(d);
          // the tombstone carries the delete's headers (EventDispatcher copies record.headers())
          if (this.cfg.tombstonesOnDelete) out.push({ ...d, valueSchema: null, value: null });
          const c = this.record(tx.database, ev.table, s, 'c', null, ev.after, offset, info, [{ key: '__debezium.oldkey', value: headerText(oldKey) }]);
          if (open) this.countEvent(open, tx.database, ev.table, c);
          out.push(c);
          continue;
        }
        const rec = this.record(tx.database, ev.table, s, ev.op, ev.before, ev.after, offset, info);
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
        out.push(this.transactionRecord('END', open, { file: tx.file, pos: tx.nextPos, row: 0, gtids, ts_sec: tsSec, server_id: serverId, event: 1 }));
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
    return {
      sourcePartition: this.partition,
      sourceOffset: { file: st.from.file, pos: st.from.pos, row: 0, server_id: serverId, event: 1 },
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

  /** The snapshot's DDL: each captured database, then each captured table as SHOW CREATE TABLE prints it. */
  private snapshotSchemaEvents(): SourceRecord[] {
    const snap = this.snapshot!;
    const offset = { file: snap.at.file, pos: snap.at.pos, snapshot: true, snapshot_table: 0, snapshot_rowid: 0, snapshot_started: snap.startedMs, schema_done: true };
    const out: SourceRecord[] = [];
    for (const db of [...new Set(snap.tables.map((t) => t.db))]) {
      out.push(this.schemaRecord(db, `CREATE DATABASE \`${db}\` CHARSET utf8mb4 COLLATE utf8mb4_0900_ai_ci`, [], { ...this.snapshotSource(db, '', 'true'), table: null }, offset));
      for (const { table } of snap.tables.filter((t) => t.db === db)) {
        const def = this.source.tableDef(db, table);
        if (def) out.push(this.schemaRecord(db, showCreateTable(def), [tableChange(db, def, 'CREATE')], this.snapshotSource(db, table, 'true'), offset));
      }
    }
    return out;
  }

  private streamingSchemaEvent(tx: BinlogTransaction, serverId: number): SourceRecord | null {
    const ddl = tx.ddl!;
    const db = tx.database;
    if (this.cfg.databaseInclude && !this.cfg.databaseInclude.some((r) => r.test(db))) return null;
    if (this.cfg.databaseExclude && this.cfg.databaseExclude.some((r) => r.test(db))) return null;
    if (ddl.table && !this.captured(db, ddl.table)) return null;
    // Debezium 1.9 (MySqlDatabaseSchema) records TRUNCATE as a database-level change: no table change
    const changes =
      ddl.kind === 'truncate-table'
        ? []
        : ddl.table && ddl.def
          ? [tableChange(db, ddl.def, ddl.kind === 'create-table' ? 'CREATE' : ddl.kind === 'drop-table' ? 'DROP' : 'ALTER')]
          : ddl.table && ddl.kind === 'drop-table'
            ? // a drop logged without the table's definition (by an earlier version)
              [{ type: 'DROP', id: `"${db}"."${ddl.table}"`, table: { defaultCharsetName: null, primaryKeyColumnNames: [], columns: [], comment: null } }]
            : [];
    const source: SourceInfoValue = { version: DEBEZIUM_VERSION, connector: 'mysql', name: this.cfg.topicPrefix, ts_ms: Math.floor(tx.ts / 1000) * 1000, snapshot: 'false', db, sequence: null, table: ddl.table ?? null, server_id: serverId, gtid: tx.gtid, file: tx.file, pos: tx.pos, row: 0, thread: tx.thread, query: null };
    const offset = { file: tx.file, pos: tx.pos, row: 1, gtids: `${this.source.info().serverUuid}:1-${tx.seq}`, ts_sec: Math.floor(tx.ts / 1000), server_id: serverId, event: 1 };
    return this.schemaRecord(db, ddl.mysql, changes, source, offset);
  }

  // ------------------------------------------------------------------------------- helpers

  private record(db: string, table: string, s: TableSchemas, op: 'c' | 'u' | 'd' | 'r', before: Record<string, unknown> | null, after: Record<string, unknown> | null, offset: Record<string, unknown>, source: SourceInfoValue, headers?: ConnectHeader[]): SourceRecord {
    const now = this.ctx.services.now();
    const r: SourceRecord = {
      sourcePartition: this.partition,
      sourceOffset: offset,
      topic: `${this.cfg.topicPrefix}.${db}.${table}`,
      keySchema: s.keySchema,
      key: keyValue(s, after ?? before),
      valueSchema: s.envelopeSchema,
      value: { before: rowValue(s, before), after: rowValue(s, after), source, op, ts_ms: now, transaction: null },
      timestamp: now,
    };
    if (headers) r.headers = headers;
    return r;
  }

  private schemasFor(db: string, table: string): TableSchemas | undefined {
    const def = this.source.tableDef(db, table);
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
    if (c.databaseInclude && !c.databaseInclude.some((r) => r.test(db))) return false;
    if (c.databaseExclude && c.databaseExclude.some((r) => r.test(db))) return false;
    const full = `${db}.${table}`;
    if (c.tableInclude && !c.tableInclude.some((r) => r.test(full))) return false;
    if (c.tableExclude && c.tableExclude.some((r) => r.test(full))) return false;
    return true;
  }

  private async capturedTables(): Promise<{ db: string; table: string }[]> {
    const out: { db: string; table: string }[] = [];
    for (const db of await this.source.listDatabases()) {
      for (const table of await this.source.listTables(db)) if (this.captured(db, table)) out.push({ db, table });
    }
    return out;
  }
}

/** A transaction whose BEGIN was sent: its id (the GTID, or `file=…,pos=…`) and events so far, per table. */
interface OpenTransaction {
  file: string;
  pos: number;
  id: string;
  total: number;
  perTable: Map<string, number>;
}

/** TransactionContext's offset keys, so a restart inside a transaction goes on counting. */
const TX_ID = 'transaction_id';
const TX_TABLE_COUNT = 'transaction_data_collection_order_';

function transactionOffset(open: OpenTransaction): Record<string, unknown> {
  const o: Record<string, unknown> = { [TX_ID]: open.id };
  for (const [t, n] of open.perTable) o[TX_TABLE_COUNT + t] = n;
  return o;
}

function transactionFromOffset(offset: Record<string, unknown>): OpenTransaction | null {
  if (typeof offset[TX_ID] !== 'string') return null;
  const perTable = new Map<string, number>();
  for (const [k, v] of Object.entries(offset)) if (k.startsWith(TX_TABLE_COUNT)) perTable.set(k.slice(TX_TABLE_COUNT.length), Number(v));
  let total = 0;
  for (const n of perTable.values()) total += n;
  return { file: String(offset.file), pos: Number(offset.pos), id: offset[TX_ID], total, perTable };
}

// TransactionMonitor and HeartbeatImpl at tag v1.9.8.Final
const TRANSACTION_KEY_SCHEMA: Schema = { type: 'struct', optional: false, name: 'io.debezium.connector.common.TransactionMetadataKey', fields: [{ type: 'string', optional: false, field: 'id' }] };
const TRANSACTION_VALUE_SCHEMA: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.common.TransactionMetadataValue',
  fields: [
    { type: 'string', optional: false, field: 'status' },
    { type: 'string', optional: false, field: 'id' },
    { type: 'int64', optional: true, field: 'event_count' },
    {
      type: 'array',
      optional: true,
      field: 'data_collections',
      items: {
        type: 'struct',
        optional: false,
        fields: [
          { type: 'string', optional: false, field: 'data_collection' },
          { type: 'int64', optional: false, field: 'event_count' },
        ],
      },
    },
  ],
};
const HEARTBEAT_KEY_SCHEMA: Schema = { type: 'struct', optional: false, name: 'io.debezium.connector.common.ServerNameKey', fields: [{ type: 'string', optional: false, field: 'serverName' }] };
const HEARTBEAT_VALUE_SCHEMA: Schema = { type: 'struct', optional: false, name: 'io.debezium.connector.common.Heartbeat', fields: [{ type: 'int64', optional: false, field: 'ts_ms' }] };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
