/**
 * Host implementation of the cdc workbench's contract methods (see ../contract/cdc.ts).
 * Connectors go through the Kafka Connect REST API at `rt.urlOf('connect')` (embedded worker or
 * a real Kafka Connect); the ClickHouse target through @clickhouse/client at
 * `rt.urlOf('clickhouse')`; the source, change log, topics and lineage read the embedded connect
 * service in-process (they have no wire protocol of their own).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { CdcConnectorAction, CdcConnectorStatus, CdcMessage, CdcMethods, CdcPipelineStep, CdcPipelineTemplate, CdcTargetStatement, CdcTransaction } from '../contract/cdc.js';
import type { ConnectApi } from '../../cdc/connect/service.js';
import { parseExactJson } from '../../common/exact-json.js';
import { chRows, embedded, ident, parts, qid } from './cdc-access.js';
import { cdcTargetViewArea } from './cdc-target-view.js';
import { MySqlError } from '../../cdc/source/mysql-error.js';
import { RemoteSource } from '../../cdc/source/remote-source.js';
import { ClickHouseError } from '../../cdc/clickhouse/errors.js';
import type { ClickHouseApi } from '../../cdc/clickhouse/service.js';
import type { BinlogPosition } from '../../cdc/source/types.js';

const noParams = z.object({}).strict() as unknown as z.ZodType<Record<string, never>>;
const position = z.object({ file: z.string(), pos: z.number().int().min(0) }).strict();


// ------------------------------------------------------------------------ Kafka Connect REST

async function connect<T>(rt: HostRuntime, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const base = rt.urlOf('connect').replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(base + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (err) {
    throw new HostCallError(`Kafka Connect at ${base} could not be reached: ${(err as Error).message}`, undefined, 'unavailable');
  }
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  if (!res.ok) {
    const e = parsed as { error_code?: number; message?: string } | null;
    throw new HostCallError(e?.message ?? `Kafka Connect answered HTTP ${res.status}`, { error_code: e?.error_code ?? res.status, message: e?.message ?? '' });
  }
  return { status: res.status, body: parsed as T };
}

interface RestStatus {
  name: string;
  type: string;
  connector: { state: string; worker_id: string; trace?: string };
  tasks: { id: number; state: string; worker_id: string; trace?: string }[];
}

async function connectorStatus(rt: HostRuntime, name: string): Promise<CdcConnectorStatus> {
  const enc = encodeURIComponent(name);
  const [st, cfg, topics] = await Promise.all([
    connect<RestStatus>(rt, 'GET', `/connectors/${enc}/status`),
    connect<Record<string, string>>(rt, 'GET', `/connectors/${enc}/config`),
    connect<Record<string, { topics: string[] }>>(rt, 'GET', `/connectors/${enc}/topics`).catch(() => ({ status: 200, body: {} as Record<string, { topics: string[] }> })),
  ]);
  return toStatus(st.body, cfg.body, topics.body[name]?.topics ?? []);
}

function toStatus(s: RestStatus, config: Record<string, string>, topics: string[]): CdcConnectorStatus {
  const failed = s.connector.state === 'FAILED' || s.tasks.some((t) => t.state === 'FAILED');
  return { name: s.name, type: s.type, state: s.connector.state, worker_id: s.connector.worker_id, ...(s.connector.trace ? { trace: s.connector.trace } : {}), tasks: s.tasks, config, topics, failed };
}

// ------------------------------------------------------------------------------- ClickHouse


/**
 * One statement over ClickHouse's HTTP interface (not @clickhouse/client, which hides the response
 * headers): embedded ClickHouse says in X-Loupe-Notice how it ran the specification's cluster DDL.
 */
async function chStatement(rt: HostRuntime, sql: string): Promise<CdcTargetStatement> {
  const url = new URL(rt.urlOf('clickhouse'));
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (url.username) headers.authorization = 'Basic ' + Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body: sql });
  } catch (err) {
    throw new HostCallError(`ClickHouse at ${url.origin} could not be reached: ${(err as Error).message}`, undefined, 'unavailable');
  }
  const text = await res.text();
  if (!res.ok) {
    const code = /^Code: (\d+)\./.exec(text.trim())?.[1];
    throw new HostCallError(text.trim() || `ClickHouse answered HTTP ${res.status}`, { code, status: res.status, statement: sql });
  }
  const out: CdcTargetStatement = { statement: sql };
  const notice = res.headers.get('x-loupe-notice');
  if (notice) out.notice = notice;
  const summary = res.headers.get('x-clickhouse-summary');
  if (summary) {
    try {
      out.summary = JSON.parse(summary) as Record<string, string>;
    } catch {
      /* a server's malformed summary is not worth failing the statement for */
    }
  }
  return out;
}

/** assets/cdc beside the code (checkout, packaged app) or under the working folder. */
function cdcAsset(name: string): string {
  const candidates = [new URL(`../../../assets/cdc/${name}`, import.meta.url).pathname, path.join(process.cwd(), 'assets', 'cdc', name)];
  for (const file of candidates) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      /* next candidate */
    }
  }
  throw new HostCallError(`assets/cdc/${name} was not found beside Loupe`, undefined, 'unavailable');
}

/** The seed's pipeline for a variant, with the embedded services' addresses in place of the seed's fixed ports. */
export function pipelineTemplate(rt: HostRuntime, variant: 1 | 2): CdcPipelineTemplate {
  const source = JSON.parse(cdcAsset(variant === 1 ? 'source-variant1.json' : 'source-variant2.json')) as { name: string; config: Record<string, string> };
  const own = rt.handle<ConnectApi>('connect')?.api.sourceAddress;
  if (own) source.config = { ...source.config, 'database.hostname': own.host, 'database.port': String(own.port) };
  const ch = new URL(rt.urlOf('clickhouse'));
  const statements = [{ label: 'Target table', sql: cdcAsset('target-table.sql') }];
  const template: CdcPipelineTemplate = { variant, source, statements, target: { database: 'default', table: 'customers' }, topic: variant === 1 ? 'customers' : 'demo.customers', sourceTable: { database: 'demo', table: 'customers' } };
  if (variant === 1) {
    const sink = JSON.parse(cdcAsset('sink-variant1.json')) as { name: string; config: Record<string, string> };
    sink.config = { ...sink.config, hostname: ch.hostname, port: ch.port || (ch.protocol === 'https:' ? '8443' : '8123'), ssl: String(ch.protocol === 'https:') };
    template.sink = sink;
  } else {
    statements.push({ label: 'Queue table', sql: cdcAsset('variant2-queue-table.sql') }, { label: 'Materialized view', sql: cdcAsset('variant2-materialized-view.sql') });
  }
  return template;
}



// ------------------------------------------------------------------------------------ events

const watching = new WeakMap<object, () => void>();

function ensureWatching(rt: HostRuntime): boolean {
  const handle = rt.handle<ConnectApi>('connect');
  if (!handle) return false;
  if (watching.has(handle)) return true;
  const off = handle.api.worker.onEvent((e) => {
    if (e.type === 'progress') rt.emit('cdc.progress', { connector: e.connector, task: e.task, kind: e.kind, records: e.records, topics: e.topics, positions: e.positions, at: Date.now() });
    else if (e.type === 'state') rt.emit('cdc.connectorState', { connector: e.connector, task: e.task, state: e.state, ...(e.trace ? { trace: e.trace } : {}) });
  });
  watching.set(handle, off);
  return true;
}

function toTx(t: import('../../cdc/source/types.js').BinlogTransaction): CdcTransaction {
  return {
    file: t.file,
    pos: t.pos,
    nextPos: t.nextPos,
    seq: t.seq,
    gtid: t.gtid,
    ts: t.ts,
    thread: t.thread,
    database: t.database,
    query: t.query,
    events: t.events.map((e) => ({ table: e.table, op: e.op, before: e.before, after: e.after })),
    ...(t.ddl ? { ddl: { kind: t.ddl.kind, sql: t.ddl.mysql, ...(t.ddl.table ? { table: t.ddl.table } : {}) } } : {}),
  };
}

function messageOf(r: import('../../cdc/log/types.js').LogRecord): CdcMessage {
  const m: CdcMessage = { topic: r.topic, partition: r.partition, offset: r.offset, timestamp: r.timestamp, key: r.key, headers: r.headers, value: r.value, tombstone: r.value === null };
  if (r.value !== null) {
    try {
      // a Connect INT64 beyond 2^53 (a BIGINT id) as the bigint it is, where JSON.parse would round it
      m.json = parseExactJson(r.value);
      const j = m.json as Record<string, unknown> | null;
      if (j && typeof j === 'object' && !Array.isArray(j) && 'schema' in j && 'payload' in j && Object.keys(j).length === 2) m.payload = j.payload;
    } catch {
      /* not JSON: shown as text */
    }
  }
  return m;
}

const ACTIONS = ['pause', 'resume', 'stop', 'restart', 'delete', 'restartTask', 'resetOffsets', 'resetTopics'] as const;

export const cdcArea: AreaMethods<keyof CdcMethods & string> = {
  ...cdcTargetViewArea,
  'cdc.source': {
    params: noParams,
    summary: 'the embedded source: databases, tables with columns, row counts and keys, and the change-log head',
    handler: async (_p, rt) => {
      const { source } = embedded(rt);
      const databases = [];
      for (const db of await source.listDatabases()) {
        const tables = [];
        for (const t of await source.listTables(db)) {
          const def = source.tableDef(db, t)!;
          const [desc] = source.executeSync(db, `DESCRIBE \`${t}\``);
          const [count] = source.executeSync(db, `SELECT COUNT(*) FROM \`${t}\``);
          tables.push({
            name: t,
            rows: Number(count!.rows[0]![0]),
            primaryKey: def.primaryKey,
            columns: desc!.rows.map((r) => ({ name: String(r[0]), type: String(r[1]), nullable: r[2] === 'YES', key: (r[3] as 'PRI' | 'UNI' | 'MUL' | '') ?? '', default: (r[4] as string | null) ?? null, extra: String(r[5] ?? '') })),
          });
        }
        databases.push({ name: db, tables });
      }
      const p = source.position();
      return { kind: 'embedded' as const, databases, position: { file: p.file, pos: p.pos, gtidSet: p.gtidSet, transactions: p.seq }, serverUuid: source.info().serverUuid };
    },
  },

  'cdc.sourceRows': {
    params: z.object({ database: ident, table: ident, limit: z.number().int().min(1).max(100_000).optional(), offset: z.number().int().min(0).optional() }).strict(),
    summary: 'rows of a source table (paged)',
    handler: async (p, rt) => {
      const { source } = embedded(rt);
      try {
        const [count] = source.executeSync(p.database, `SELECT COUNT(*) FROM \`${p.table}\``);
        const [rows] = source.executeSync(p.database, `SELECT * FROM \`${p.table}\` LIMIT ${p.limit ?? 100} OFFSET ${p.offset ?? 0}`);
        return { columns: rows!.columns, rows: rows!.rows, total: Number(count!.rows[0]![0]) };
      } catch (err) {
        if (err instanceof MySqlError) throw new HostCallError(err.toString(), err.toJSON());
        throw err;
      }
    },
  },

  'cdc.sql': {
    params: z.object({ database: z.string().max(64).optional(), sql: z.string().min(1).max(10_000_000) }).strict(),
    summary: 'runs MySQL-flavoured statements against the embedded source (errors in MySQL\'s shape)',
    handler: async (p, rt) => {
      const { source } = embedded(rt);
      try {
        return { results: await source.execute(p.database ?? 'demo', p.sql) };
      } catch (err) {
        if (err instanceof MySqlError) throw new HostCallError(err.toString(), err.toJSON());
        throw err;
      }
    },
  },

  'cdc.remoteSql': {
    params: z
      .object({
        connection: z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535).optional(), user: z.string().min(1), password: z.string().optional() }).strict(),
        database: z.string().max(64).optional(),
        sql: z.string().min(1).max(10_000_000),
      })
      .strict(),
    summary: 'runs statements against a real MySQL / MariaDB through mysql2 (errors keep MySQL\'s errno and text)',
    handler: async (p) => {
      const remote = new RemoteSource(p.connection);
      try {
        return { results: await remote.execute(p.database ?? null, p.sql) };
      } catch (err) {
        if (err instanceof MySqlError) throw new HostCallError(err.toString(), err.toJSON());
        throw err;
      } finally {
        await remote.close();
      }
    },
  },

  'cdc.changeLog': {
    params: z.object({ from: position.optional(), limit: z.number().int().min(1).max(5000).optional(), last: z.number().int().min(1).max(5000).optional() }).strict(),
    summary: 'committed transactions of the embedded source with binlog positions, GTIDs and before/after images',
    handler: async (p, rt) => {
      const { source } = embedded(rt);
      const head = source.position();
      let txs;
      if (p.last !== undefined) {
        // Newest N: walk forward keeping a window (the log is addressed forward, like a binlog).
        let from: BinlogPosition = { file: '', pos: 0 };
        const window: ReturnType<typeof source.readTransactions> = [];
        for (;;) {
          const batch = source.readTransactions(from, 2000);
          if (!batch.length) break;
          window.push(...batch);
          if (window.length > p.last) window.splice(0, window.length - p.last);
          from = { file: batch[batch.length - 1]!.file, pos: batch[batch.length - 1]!.nextPos };
        }
        txs = window;
      } else txs = source.readTransactions(p.from ?? { file: '', pos: 0 }, p.limit ?? 200);
      const last = txs[txs.length - 1];
      const next = last && (last.file !== head.file || last.nextPos < head.pos) ? { file: last.file, pos: last.nextPos } : null;
      return { transactions: txs.map(toTx), head: { file: head.file, pos: head.pos }, next };
    },
  },

  'cdc.topics': {
    params: z.object({ includeInternal: z.boolean().optional() }).strict(),
    summary: 'topics of the message log with partitions, offsets and config',
    handler: async (p, rt) => {
      const { topicLog } = embedded(rt);
      const topics = [];
      for (const name of await topicLog.listTopics({ includeInternal: p.includeInternal ?? false })) {
        const d = await topicLog.describeTopic(name);
        if (!d) continue;
        topics.push({ name, internal: d.internal, partitions: d.partitions, messages: d.partitions.reduce((n, x) => n + x.endOffset - x.beginOffset, 0), config: d.config });
      }
      return { topics };
    },
  },

  'cdc.messages': {
    params: z.object({ topic: z.string().min(1).max(249), partition: z.number().int().min(0).optional(), fromOffset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(5000).optional(), fromEnd: z.boolean().optional(), latestPerKey: z.boolean().optional() }).strict(),
    summary: 'messages of a topic partition (partition, offset, key, headers, value; tombstones as such; optionally the latest per key)',
    handler: async (p, rt) => {
      const { topicLog } = embedded(rt);
      const d = await topicLog.describeTopic(p.topic);
      if (!d) throw new HostCallError(`Topic ${p.topic} does not exist`);
      const partition = p.partition ?? 0;
      const info = d.partitions[partition];
      if (!info) throw new HostCallError(`Topic ${p.topic} has no partition ${partition} (it has ${d.partitions.length})`);
      const limit = p.limit ?? 100;
      if (p.latestPerKey) {
        // Compaction's view: the last record per key, tombstoned keys shown as tombstones.
        const latest = new Map<string | null, CdcMessage>();
        let at = info.beginOffset;
        while (at < info.endOffset) {
          const batch = await topicLog.fetch(p.topic, partition, at, { maxRecords: 5000, maxBytes: 32 * 1024 * 1024 });
          if (!batch.length) break;
          for (const r of batch) {
            latest.delete(r.key);
            latest.set(r.key, messageOf(r));
          }
          at = batch[batch.length - 1]!.offset + 1;
        }
        return { messages: [...latest.values()].slice(-limit), begin: info.beginOffset, end: info.endOffset };
      }
      const from = p.fromEnd ? Math.max(info.beginOffset, info.endOffset - limit) : (p.fromOffset ?? info.beginOffset);
      const recs = await topicLog.fetch(p.topic, partition, from, { maxRecords: limit, maxBytes: 32 * 1024 * 1024 });
      return { messages: recs.map(messageOf), begin: info.beginOffset, end: info.endOffset };
    },
  },

  'cdc.consumerGroups': {
    params: noParams,
    summary: 'consumer groups (sink connectors use connect-<name>) with committed offsets and lag',
    handler: async (_p, rt) => {
      const { topicLog } = embedded(rt);
      const groups = [];
      for (const group of await topicLog.listGroups()) {
        const offsets = [];
        for (const o of await topicLog.committedOffsets(group)) {
          const end = (await topicLog.describeTopic(o.topic))?.partitions[o.partition]?.endOffset ?? o.offset;
          offsets.push({ ...o, endOffset: end, lag: Math.max(0, end - o.offset) });
        }
        groups.push({ group, offsets });
      }
      return { groups };
    },
  },

  'cdc.connectors': {
    params: noParams,
    summary: 'connectors with status, task states and traces (failed first), config and active topics, via the Kafka Connect REST API',
    handler: async (_p, rt) => {
      ensureWatching(rt);
      const names = (await connect<string[]>(rt, 'GET', '/connectors')).body;
      const list = await Promise.all(names.map((n) => connectorStatus(rt, n).catch(() => null)));
      const connectors = list.filter((c): c is CdcConnectorStatus => c !== null).sort((a, b) => Number(b.failed) - Number(a.failed) || a.name.localeCompare(b.name));
      return { connectors, connectUrl: rt.urlOf('connect') };
    },
  },

  'cdc.connectorAction': {
    params: z.object({ name: z.string().min(1), action: z.enum(ACTIONS), task: z.number().int().min(0).optional(), includeTasks: z.boolean().optional(), onlyFailed: z.boolean().optional() }).strict(),
    summary: 'pause, resume, stop, restart (with includeTasks/onlyFailed), restart a task, delete, reset offsets or active topics',
    handler: async (p, rt) => {
      const enc = encodeURIComponent(p.name);
      const a: CdcConnectorAction = p.action;
      let res: { status: number; body: unknown };
      switch (a) {
        case 'pause':
        case 'resume':
        case 'stop':
          res = await connect(rt, 'PUT', `/connectors/${enc}/${a}`);
          break;
        case 'restart':
          res = await connect(rt, 'POST', `/connectors/${enc}/restart?includeTasks=${p.includeTasks ?? false}&onlyFailed=${p.onlyFailed ?? false}`);
          break;
        case 'restartTask':
          if (p.task === undefined) throw new HostCallError('restartTask needs a task id');
          res = await connect(rt, 'POST', `/connectors/${enc}/tasks/${p.task}/restart`);
          break;
        case 'delete':
          res = await connect(rt, 'DELETE', `/connectors/${enc}`);
          return { action: a, status: res.status };
        case 'resetOffsets':
          res = await connect(rt, 'DELETE', `/connectors/${enc}/offsets`);
          break;
        case 'resetTopics':
          res = await connect(rt, 'PUT', `/connectors/${enc}/topics/reset`);
          break;
      }
      const message = (res.body as { message?: string } | null)?.message;
      return { action: a, status: res.status, connector: await connectorStatus(rt, p.name), ...(message ? { message } : {}) };
    },
  },

  'cdc.createConnector': {
    params: z.object({ name: z.string().min(1), config: z.record(z.string(), z.string()) }).strict(),
    summary: 'POST /connectors (Kafka Connect error shapes in the failure detail)',
    handler: async (p, rt) => (await connect<{ name: string; config: Record<string, string>; tasks: { connector: string; task: number }[]; type: string }>(rt, 'POST', '/connectors', { name: p.name, config: p.config })).body,
  },

  'cdc.validateConnector': {
    params: z.object({ config: z.record(z.string(), z.string()) }).strict(),
    summary: 'PUT /connector-plugins/{class}/config/validate',
    handler: async (p, rt) => {
      const cls = p.config['connector.class'];
      if (!cls) throw new HostCallError('connector.class is required to validate');
      return (await connect<{ name: string; error_count: number; groups: string[]; configs: unknown[] }>(rt, 'PUT', `/connector-plugins/${encodeURIComponent(cls)}/config/validate`, p.config)).body;
    },
  },

  'cdc.connectorOffsets': {
    params: z.object({ name: z.string().min(1) }).strict(),
    summary: 'GET /connectors/{name}/offsets',
    handler: async (p, rt) => (await connect<{ offsets: { partition: Record<string, unknown>; offset: Record<string, unknown> | null }[] }>(rt, 'GET', `/connectors/${encodeURIComponent(p.name)}/offsets`)).body,
  },

  'cdc.plugins': {
    params: noParams,
    summary: 'connector, transformation and converter plugins',
    handler: async (_p, rt) => ({ plugins: (await connect<{ class: string; type: string; version?: string }[]>(rt, 'GET', '/connector-plugins?connectorsOnly=false')).body }),
  },

  'cdc.targetRows': {
    params: z.object({ table: ident, database: ident.optional(), final: z.boolean().optional(), limit: z.number().int().min(1).max(100_000).optional(), orderBy: z.string().regex(/^[A-Za-z0-9_, ]+$/).optional() }).strict(),
    summary: 'the ClickHouse target: raw rows with _part (every version, deleted rows too) or the FINAL view, and its parts',
    handler: async (p, rt) => {
      const database = p.database ?? 'default';
      const t = `${qid(database)}.${qid(p.table)}`;
      const limit = p.limit ?? 1000;
      const order = p.orderBy ? ` ORDER BY ${p.orderBy}` : '';
      const rows = p.final
        ? await chRows<Record<string, unknown>>(rt, `SELECT * FROM ${t} FINAL${order} LIMIT ${limit}`)
        : await chRows<Record<string, unknown>>(rt, `SELECT *, _part FROM ${t} ORDER BY _part${p.orderBy ? ', ' + p.orderBy : ''} LIMIT ${limit}`);
      return { database, table: p.table, final: p.final ?? false, columns: rows[0] ? Object.keys(rows[0]) : [], rows, parts: await parts(rt, database, p.table) };
    },
  },

  'cdc.pipeline': {
    params: z.object({ database: ident.optional(), table: ident.optional(), limit: z.number().int().min(1).max(1000).optional(), targetTable: ident.optional(), targetDatabase: ident.optional() }).strict(),
    summary: 'each change from its binlog position to its topic offset, the sink block that inserted it and the part holding it',
    handler: async (p, rt) => {
      const { source, worker } = embedded(rt);
      const database = p.database ?? 'demo';
      const table = p.table ?? 'customers';
      const limit = p.limit ?? 50;
      const def = source.tableDef(database, table);
      const steps: CdcPipelineStep[] = [];
      let from: BinlogPosition = { file: '', pos: 0 };
      for (;;) {
        const batch = source.readTransactions(from, 2000);
        if (!batch.length) break;
        for (const tx of batch) {
          if (tx.database !== database) continue;
          tx.events.forEach((ev, i) => {
            if (ev.table !== table) return;
            const row = ev.after ?? ev.before;
            const key = def && row ? Object.fromEntries(def.primaryKey.map((k) => [k, row[k]])) : null;
            steps.push({ source: { file: tx.file, pos: tx.pos, row: i, gtid: tx.gtid, ts: tx.ts, database, table, op: ev.op, key, image: row }, messages: [], blocks: [] });
          });
        }
        if (steps.length > limit) steps.splice(0, steps.length - limit);
        const last = batch[batch.length - 1]!;
        from = { file: last.file, pos: last.nextPos };
      }
      const { writes, deliveries } = worker.lineage();
      const byPos = new Map<string, typeof writes[number][]>();
      // a snapshot's messages carry the binlog position the snapshot read at, not each row's own event
      let snapshotAt: { file: string; pos: number } | undefined;
      for (const w of writes) {
        const o = w.sourceOffset as { file?: string; pos?: number; row?: number; snapshot?: boolean | string };
        if (o.snapshot && o.file !== undefined && o.pos !== undefined) snapshotAt = { file: o.file, pos: o.pos };
        if (o.snapshot || o.file === undefined || o.row === undefined) continue;
        const k = `${o.file}:${o.pos}:${o.row - 1}`;
        let list = byPos.get(k);
        if (!list) byPos.set(k, (list = []));
        list.push(w);
      }
      for (const s of steps) {
        for (const w of byPos.get(`${s.source.file}:${s.source.pos}:${s.source.row}`) ?? []) {
          s.messages.push({ connector: w.connector, topic: w.topic, partition: w.partition, offset: w.offset, at: w.at });
          for (const d of deliveries) {
            if (d.topic === w.topic && d.partition === w.partition && d.firstOffset <= w.offset && w.offset <= d.lastOffset) {
              s.blocks.push({ connector: d.connector, topic: d.topic, partition: d.partition, firstOffset: d.firstOffset, lastOffset: d.lastOffset, records: d.records, token: `${d.topic}-${d.partition}-${d.firstOffset}-${d.lastOffset}`, at: d.at });
            }
          }
        }
        const beforeSnapshot = snapshotAt && (s.source.file < snapshotAt.file || (s.source.file === snapshotAt.file && s.source.pos < snapshotAt.pos));
        if (!s.messages.length && beforeSnapshot) s.note = `Committed before the source connector's initial snapshot (taken at ${snapshotAt!.file}:${snapshotAt!.pos}): the snapshot read this row as it then was and wrote it with op "r" and the snapshot's position, so this event has no message of its own.`;
        else if (!s.messages.length) s.note = 'No message seen for this change since the connect service started (not captured by a running source connector, filtered, or written before a restart).';
        else if (!s.blocks.length) s.note = 'Not yet delivered by a sink connector (no sink on this topic, paused, or still in flight).';
      }
      let target: { database: string; table: string } | undefined;
      if (p.targetTable) {
        target = { database: p.targetDatabase ?? 'default', table: p.targetTable };
        const t = `${qid(target.database)}.${qid(target.table)}`;
        for (const s of steps) {
          if (!s.source.key) continue;
          const conds = Object.keys(s.source.key).map((k, i) => `toString(${qid(k)}) = {k${i}:String}`);
          const params = Object.fromEntries(Object.values(s.source.key).map((v, i) => [`k${i}`, String(v)]));
          const rows = await chRows<Record<string, unknown>>(rt, `SELECT _part, * FROM ${t} WHERE ${conds.join(' AND ')} ORDER BY _part`, params);
          s.parts = rows.map(({ _part, ...row }) => ({ part: String(_part), row }));
        }
      }
      return { steps, ...(target ? { target } : {}) };
    },
  },

  'cdc.pipelineTemplate': {
    params: z.object({ variant: z.union([z.literal(1), z.literal(2)]) }).strict(),
    summary: "the seed's pipeline (assets/cdc) for variant 1 or 2, addresses filled in",
    handler: (p, rt) => pipelineTemplate(rt, p.variant),
  },

  'cdc.targetSql': {
    params: z.object({ sql: z.string().min(1).max(1_000_000) }).strict(),
    summary: 'one ClickHouse statement against the target (ClickHouse HTTP), with the embedded translation notice',
    handler: (p, rt) => chStatement(rt, p.sql),
  },

  'cdc.merges': {
    params: z.object({ table: ident, database: ident.optional(), stopped: z.boolean() }).strict(),
    summary: 'SYSTEM STOP MERGES / SYSTEM START MERGES on the target table',
    handler: async (p, rt) => {
      const sql = `SYSTEM ${p.stopped ? 'STOP' : 'START'} MERGES ${qid(p.database ?? 'default')}.${qid(p.table)}`;
      return { ...(await chStatement(rt, sql)), stopped: p.stopped };
    },
  },

  'cdc.sinkState': {
    params: z.object({ connector: z.string().min(1) }).strict(),
    summary: "a ClickHouse sink's exactly-once state table (BEFORE/AFTER and offsets per topic-partition)",
    handler: async (p, rt) => {
      const config = (await connect<Record<string, string>>(rt, 'GET', `/connectors/${encodeURIComponent(p.connector)}/config`)).body;
      if (!/ClickHouseSinkConnector$/.test(config['connector.class'] ?? '')) throw new HostCallError(`${p.connector} is not a ClickHouse sink connector (connector.class ${config['connector.class'] ?? 'unset'})`);
      // the sink keeps its state in the table zkDatabase of its own database (the real connector's naming)
      const database = config.database || 'default';
      const table = config.zkDatabase || 'connect_state';
      const rows = await chRows<{ key: string; minOffset: string | number; maxOffset: string | number; state: string }>(rt, `SELECT key, minOffset, maxOffset, state FROM ${qid(database)}.${qid(table)} ORDER BY key`);
      return { database, table, rows: rows.map((r) => ({ key: r.key, minOffset: Number(r.minOffset), maxOffset: Number(r.maxOffset), state: r.state })) };
    },
  },

  'cdc.counters': {
    params: noParams,
    summary: "the source's committed transactions and ClickHouse's InsertedRows, for the flow view's per-second counters",
    handler: async (_p, rt) => {
      const source = rt.handle<ConnectApi>('connect')?.api.source;
      const [ev] = await chRows<{ value: string | number }>(rt, "SELECT value FROM system.events WHERE event = 'InsertedRows'");
      return { transactions: source ? source.position().seq : null, insertedRows: Number(ev?.value ?? 0) };
    },
  },

  'cdc.watch': {
    params: noParams,
    summary: 'forward cdc.progress and cdc.connectorState events from the embedded worker',
    handler: (_p, rt) => ({ watching: ensureWatching(rt) }),
  },

  'cdc.translateDdl': {
    params: z.object({ sql: z.string().min(1).max(1_000_000) }).strict(),
    summary: 'the form a cluster DDL takes on the configured ClickHouse (embedded: its single-node translation and notices), without running it',
    handler: (p, rt) => {
      // the running server's own translator, so the preview uses its deduplication window
      const api = rt.handle<ClickHouseApi>('clickhouse')?.api;
      if (!api) return { original: p.sql, sql: p.sql, notices: [], embedded: false };
      try {
        const t = api.translate(p.sql);
        return { original: t.original, sql: t.sql, notices: t.notices, embedded: true };
      } catch (err) {
        // what has no single-node equivalent is refused as the server would refuse to run it
        if (err instanceof ClickHouseError) throw new HostCallError(err.message, { code: String(err.code), type: err.name, statement: p.sql });
        throw err;
      }
    },
  },

  'cdc.putConnectorConfig': {
    params: z.object({ name: z.string().min(1), config: z.record(z.string(), z.string()) }).strict(),
    summary: "PUT /connectors/{name}/config (Kafka Connect's {error_code,message} in the failure detail)",
    handler: async (p, rt) => {
      const r = await connect<{ name: string; config: Record<string, string>; tasks: { connector: string; task: number }[]; type: string }>(rt, 'PUT', `/connectors/${encodeURIComponent(p.name)}/config`, p.config);
      return { ...r.body, created: r.status === 201 };
    },
  },
};
