/**
 * Starts the embedded ClickHouse: the chDB engine in the service's data directory behind
 * ClickHouse's HTTP interface on 127.0.0.1. The handle's api gives the host what has no wire
 * protocol of its own: the DDL translation log, translation without running, and the parts
 * and rows of a table for the pipeline view.
 */
import http from 'node:http';
import path from 'node:path';
import { parseExactJson } from '../../common/exact-json.js';
import type { ServiceContext, ServiceHandle } from '../../common/service.js';
import { closeServer, listen } from '../../common/http.js';
import { browserGuard } from '../../common/browser-guard.js';
import { readJsonOrBackup, writeJsonAtomic } from '../../common/json-store.js';
import { ChEngine, type InsertEvent, type TranslationLogEntry } from './engine.js';
import { createClickHouseHttpHandler } from './http.js';
import type { KafkaQueueSpec, Translation } from './translate.js';

export type { InsertEvent, TranslationLogEntry } from './engine.js';
export type { KafkaQueueSpec, Translation } from './translate.js';

export interface PartInfo {
  partition: string;
  name: string;
  rows: number;
  level: number;
  minBlock: number;
  maxBlock: number;
  active: boolean;
}

export interface ClickHouseApi {
  /** Runs SQL (one statement) and returns the output in `format`; throws ClickHouseError. */
  query(sql: string, format?: string, database?: string): Promise<string>;
  /** Every cluster-DDL translation so far: original, translated, notices. */
  translations(): TranslationLogEntry[];
  /** Both DDLs for a statement, without running it. */
  translate(sql: string): Translation;
  /** Active (and optionally inactive) parts of a table, for the pipeline view. */
  parts(database: string, table: string, includeInactive?: boolean): Promise<PartInfo[]>;
  /** Raw rows of a table with the `_part` each sits in (no FINAL). */
  rowsWithPart(database: string, table: string, limit?: number): Promise<Record<string, unknown>[]>;
  /** Queue tables (translated Kafka engines) that Loupe's consumer should feed. */
  queueTables(): KafkaQueueSpec[];
  /** Every finished INSERT … FORMAT (table, rows, dedup token) as it happens; returns an unsubscribe function. */
  onInsert(cb: (e: InsertEvent) => void): () => void;
  /** Subscribe to new queue tables; returns an unsubscribe function. */
  onQueueTable(cb: (spec: KafkaQueueSpec) => void): () => void;
  readonly version: string;
}

export interface ClickHouseServiceOptions {
  /** Translate cluster DDL to single-node DDL (default true; see translate.ts). */
  translateDdl?: boolean;
}

export async function startClickHouseService(ctx: ServiceContext, opts: ClickHouseServiceOptions = {}): Promise<ServiceHandle<ClickHouseApi>> {
  const log = ctx.log.child('clickhouse');
  const queuesFile = path.join(ctx.dataDir, 'queue-tables.json');
  const stored = readJsonOrBackup<KafkaQueueSpec[]>(queuesFile);
  if (stored.kind === 'corrupt') log.warn('queue table list was unreadable; kept a backup', { backup: stored.backup, error: stored.error });
  const queues: KafkaQueueSpec[] = stored.kind === 'ok' ? stored.value : [];
  const listeners = new Set<(spec: KafkaQueueSpec) => void>();
  const insertListeners = new Set<(e: InsertEvent) => void>();

  const engine = await ChEngine.open({
    dataDir: path.join(ctx.dataDir, 'chdb'),
    log,
    onInsert: (e) => {
      for (const l of insertListeners) l(e);
    },
    translateDdl: opts.translateDdl ?? process.env.LOUPE_CLICKHOUSE_TRANSLATE_DDL !== '0',
    onQueueTable: (spec) => {
      const i = queues.findIndex((q) => q.database === spec.database && q.table === spec.table);
      if (i >= 0) queues.splice(i, 1);
      queues.push(spec);
      void writeJsonAtomic(queuesFile, queues).catch((err) => log.error('could not save queue tables', { error: (err as Error).message }));
      for (const l of listeners) l(spec);
    },
  });
  const users: Record<string, string> = { default: '' };
  if (process.env.LOUPE_CLICKHOUSE_USER) users[process.env.LOUPE_CLICKHOUSE_USER] = process.env.LOUPE_CLICKHOUSE_PASSWORD ?? '';
  let port = 0;
  const server = http.createServer(createClickHouseHttpHandler({ engine, log, users, guard: browserGuard(() => port) }));
  server.keepAliveTimeout = 10_000;
  try {
    port = await listen(server, ctx.host, ctx.port, 'clickhouse', 'Set LOUPE_CLICKHOUSE_PORT to another port.');
  } catch (err) {
    await engine.close();
    throw err;
  }
  log.info(`embedded ClickHouse ${engine.version} (chDB) on http://${ctx.host}:${port}`);

  const lit = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const api: ClickHouseApi = {
    version: engine.version,
    query: (sql, format = 'JSONEachRow', database) => engine.query(sql, format, database),
    translations: () => engine.translationLog(),
    translate: (sql) => engine.translate(sql),
    async parts(database, table, includeInactive = false) {
      const text = await engine.query(
        `SELECT partition_id, name, rows, level, min_block_number, max_block_number, active FROM system.parts WHERE database = ${lit(database)} AND table = ${lit(table)}${includeInactive ? '' : ' AND active'} ORDER BY min_block_number`,
        'JSONEachRow',
      );
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const r = JSON.parse(l) as Record<string, string | number>;
          return { partition: String(r.partition_id), name: String(r.name), rows: Number(r.rows), level: Number(r.level), minBlock: Number(r.min_block_number), maxBlock: Number(r.max_block_number), active: Number(r.active) === 1 };
        });
    },
    async rowsWithPart(database, table, limit = 10_000) {
      const ident = (s: string) => `\`${s.replace(/`/g, '\\`')}\``;
      const text = await engine.query(`SELECT _part, * FROM ${ident(database)}.${ident(table)} ORDER BY _part LIMIT ${Math.max(0, Math.floor(limit))}`, 'JSONEachRow');
      // an Int64/UInt64 is a bare JSON number here (output_format_json_quote_64bit_integers is 0)
      return text.split('\n').filter(Boolean).map((l) => parseExactJson(l) as Record<string, unknown>);
    },
    queueTables: () => [...queues],
    onInsert(cb) {
      insertListeners.add(cb);
      return () => insertListeners.delete(cb);
    },
    onQueueTable(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
  };

  let closed = false;
  return {
    url: `http://${ctx.host}:${port}`,
    api,
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      insertListeners.clear();
      await closeServer(server);
      await engine.close();
    },
  };
}
