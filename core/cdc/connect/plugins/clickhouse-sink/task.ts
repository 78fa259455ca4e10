/**
 * The ClickHouse sink task: records → JSONEachRow blocks inserted through @clickhouse/client,
 * one block per topic-partition and batch, each with insert_deduplication_token
 * `<topic>-<partition>-<first offset>-<last offset>`.
 *
 * With exactlyOnce, every block goes through the state machine of the real connector:
 * write BEFORE_PROCESSING(range) → insert(range) → write AFTER_PROCESSING(range). After a
 * crash between any two steps the state says what to do with records delivered again:
 * - below a BEFORE range, or inside/below an AFTER range: already in the table → skipped;
 * - the BEFORE range itself: inserted again as exactly that block with the same token, so
 *   ClickHouse drops it if the first insert had landed (deduplication) and keeps it if not;
 * - a batch that overlaps or contains the stored range is split at its bounds.
 * Offsets are only committed up to the last block whose AFTER state is written.
 */
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Logger } from '../../../../common/log.js';
import { ConnectException, DataException, type ConnectorConfig, type SinkRecord, type SinkTask, type SinkTaskContext, type TopicPartition, type TopicPartitionOffset } from '../../plugin.js';
import { parseSinkConfig, type SinkConfig } from './config.js';
import { convertRow, parseColumnType, type ColumnType } from './convert.js';
import { StateStore, type StateRecord } from './state.js';

/** Where a test can stop the task dead, between the steps of the exactly-once state machine. */
export type SinkStep = 'after-before-state' | 'after-insert' | 'after-after-state';
export interface SinkTaskHooks {
  step?(step: SinkStep, block: { topic: string; partition: number; min: number; max: number }): void | Promise<void>;
}

/** Settings of every insert: the connector's own, then the seed's constants. */
export const INSERT_SETTINGS = {
  input_format_skip_unknown_fields: 1,
  wait_end_of_query: 1,
  async_insert: 0,
  send_progress_in_http_headers: 1,
  receive_timeout: 1_000_000,
  send_timeout: 1_000_000,
  http_send_timeout: 1000,
  http_receive_timeout: 1000,
  allow_nondeterministic_mutations: 1,
} as const;

/** ClickHouse error codes the real connector treats as retriable (Utils.java). */
const RETRIABLE_CODES = new Set([3, 107, 159, 164, 202, 203, 209, 210, 241, 242, 252, 285, 319, 425, 999]);

const tpKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export class ClickHouseSinkTask implements SinkTask {
  private cfg!: SinkConfig;
  private ctx!: SinkTaskContext;
  private log!: Logger;
  private client!: ClickHouseClient;
  private stateStore?: StateStore;
  private readonly states = new Map<string, StateRecord | null>();
  private readonly pending = new Map<string, SinkRecord[]>();
  /** Next offset per partition whose records are all safely in ClickHouse. */
  private readonly done = new Map<string, TopicPartitionOffset>();
  private readonly columns = new Map<string, Map<string, ColumnType>>();
  private stopped = false;

  constructor(private readonly hooks: SinkTaskHooks = {}) {}

  async start(config: ConnectorConfig, context: SinkTaskContext): Promise<void> {
    this.cfg = parseSinkConfig(config);
    this.ctx = context;
    this.log = context.services.log.child(`clickhouse-sink-${context.taskId}`);
    const url = `${this.cfg.ssl ? 'https' : 'http'}://${this.cfg.hostname}:${this.cfg.port}`;
    this.client = createClient({
      url,
      username: this.cfg.username,
      password: this.cfg.password,
      database: this.cfg.database,
      request_timeout: Math.max(30_000, this.cfg.retryTimeoutSec * 1000),
      max_open_connections: 4,
      // Failures reach the task's own log (with the retry they lead to), not the console.
      log: { level: ClickHouseLogLevel.OFF },
    });
    if (this.cfg.exactlyOnce) {
      this.stateStore = new StateStore(this.client, this.cfg.keeperOnCluster);
      await this.withRetry('create state table', () => this.stateStore!.ensureTable());
    }
    this.log.info(`ClickHouse sink started for ${url} database ${this.cfg.database}${this.cfg.exactlyOnce ? ' (exactlyOnce)' : ''}`);
    await this.open(context.assignment());
  }

  async open(partitions: TopicPartition[]): Promise<void> {
    if (!this.stateStore) return;
    const seek: TopicPartitionOffset[] = [];
    for (const tp of partitions) {
      const key = tpKey(tp.topic, tp.partition);
      if (this.states.has(key)) continue;
      const st = (await this.withRetry('read state', () => this.stateStore!.get(tp.topic, tp.partition))) ?? null;
      this.states.set(key, st);
      if (!st) continue;
      // Resume where the state machine needs the records: the start of an unfinished block, or after a finished one.
      seek.push({ ...tp, offset: st.state === 'AFTER_PROCESSING' ? st.maxOffset + 1 : st.minOffset });
    }
    if (seek.length) this.ctx.offset(seek);
  }

  async put(records: SinkRecord[]): Promise<void> {
    if (this.stopped || records.length === 0) return;
    const touched = new Set<string>();
    for (const r of records) {
      const key = tpKey(r.topic, r.kafkaPartition);
      let list = this.pending.get(key);
      if (!list) this.pending.set(key, (list = []));
      list.push(r);
      touched.add(key);
    }
    for (const key of touched) {
      const list = this.pending.get(key)!;
      list.sort((a, b) => a.kafkaOffset - b.kafkaOffset);
      await this.drain(list[0]!.topic, list[0]!.kafkaPartition, list);
    }
  }

  /** Commits only up to the first record not yet safely in ClickHouse. */
  async preCommit(current: TopicPartitionOffset[]): Promise<TopicPartitionOffset[]> {
    return current.map((c) => {
      const first = this.pending.get(tpKey(c.topic, c.partition))?.[0];
      return first ? { ...c, offset: Math.min(c.offset, first.kafkaOffset) } : c;
    });
  }

  /** Per partition, the next offset whose records are all in ClickHouse (for the pipeline view). */
  progress(): TopicPartitionOffset[] {
    return [...this.done.values()];
  }

  async close(partitions: TopicPartition[]): Promise<void> {
    for (const tp of partitions) {
      const key = tpKey(tp.topic, tp.partition);
      this.pending.delete(key);
      this.states.delete(key);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.close();
  }

  private markDone(topic: string, partition: number, lastOffset: number): void {
    this.done.set(tpKey(topic, partition), { topic, partition, offset: lastOffset + 1 });
  }

  /** Inserts what is pending for one topic-partition, block by block. */
  private async drain(topic: string, partition: number, list: SinkRecord[]): Promise<void> {
    const key = tpKey(topic, partition);
    const maxBlock = Math.max(1, this.cfg.maxPollRecords);
    while (list.length && !this.stopped) {
      if (this.stateStore) {
        if (!this.states.has(key)) await this.open([{ topic, partition }]);
        const st = this.states.get(key) ?? null;
        if (st) {
          // Everything below a BEFORE range, and everything up to an AFTER range's end, is already in the table.
          const doneBelow = st.state === 'AFTER_PROCESSING' ? st.maxOffset + 1 : st.minOffset;
          let skip = 0;
          while (skip < list.length && list[skip]!.kafkaOffset < doneBelow) skip++;
          if (skip) {
            this.log.debug(`skipping ${skip} records of ${topic}-${partition} already in ClickHouse (state ${st.state} ${st.minOffset}-${st.maxOffset})`);
            list.splice(0, skip);
            this.markDone(topic, partition, doneBelow - 1);
            if (!list.length) return;
          }
          if (st.state === 'BEFORE_PROCESSING') {
            // Redo exactly the unfinished block; wait until all of it has been delivered again.
            if (list[list.length - 1]!.kafkaOffset < st.maxOffset) return;
            let n = 0;
            while (n < list.length && list[n]!.kafkaOffset <= st.maxOffset) n++;
            const block = list.slice(0, n);
            this.log.info(`redoing block ${topic}-${partition} ${st.minOffset}-${st.maxOffset} left in BEFORE_PROCESSING; ClickHouse drops it if it had landed`);
            await this.insertBlock(topic, partition, block, st.minOffset, st.maxOffset);
            await this.hooks.step?.('after-insert', { topic, partition, min: st.minOffset, max: st.maxOffset });
            await this.writeState(topic, partition, st.minOffset, st.maxOffset, 'AFTER_PROCESSING');
            await this.hooks.step?.('after-after-state', { topic, partition, min: st.minOffset, max: st.maxOffset });
            list.splice(0, n);
            this.markDone(topic, partition, st.maxOffset);
            continue;
          }
        }
        const block = list.slice(0, maxBlock);
        const min = block[0]!.kafkaOffset;
        const max = block[block.length - 1]!.kafkaOffset;
        await this.writeState(topic, partition, min, max, 'BEFORE_PROCESSING');
        await this.hooks.step?.('after-before-state', { topic, partition, min, max });
        await this.insertBlock(topic, partition, block, min, max);
        await this.hooks.step?.('after-insert', { topic, partition, min, max });
        await this.writeState(topic, partition, min, max, 'AFTER_PROCESSING');
        await this.hooks.step?.('after-after-state', { topic, partition, min, max });
        list.splice(0, block.length);
        this.markDone(topic, partition, max);
      } else {
        const block = list.slice(0, maxBlock);
        const min = block[0]!.kafkaOffset;
        const max = block[block.length - 1]!.kafkaOffset;
        await this.insertBlock(topic, partition, block, min, max);
        list.splice(0, block.length);
        this.markDone(topic, partition, max);
      }
    }
  }

  private async writeState(topic: string, partition: number, min: number, max: number, state: StateRecord['state']): Promise<void> {
    await this.withRetry('write state', () => this.stateStore!.set(topic, partition, min, max, state));
    this.states.set(tpKey(topic, partition), { key: `${topic}-${partition}`, minOffset: min, maxOffset: max, state });
  }

  private tableFor(topic: string): string {
    return this.cfg.topic2Table[topic] ?? topic;
  }

  private async columnsOf(table: string): Promise<Map<string, ColumnType>> {
    const cached = this.columns.get(table);
    if (cached) return cached;
    let rows: { name: string; type: string }[];
    try {
      rows = await this.withRetry('describe table', async () =>
        (await this.client.query({ query: `DESCRIBE TABLE ${quoteIdent(this.cfg.database)}.${quoteIdent(table)}`, format: 'JSONEachRow' })).json<{ name: string; type: string }>(),
      );
    } catch (err) {
      if (/UNKNOWN_TABLE|\b60\b|does not exist/.test((err as Error).message)) {
        throw new ConnectException(`Table [${table}] does not exist in database [${this.cfg.database}] - see the docs for topic and table naming, or set topic2TableMap (ClickHouse said: ${(err as Error).message})`);
      }
      throw err;
    }
    const map = new Map(rows.map((r) => [r.name, parseColumnType(r.type)]));
    this.columns.set(table, map);
    return map;
  }

  private async insertBlock(topic: string, partition: number, block: SinkRecord[], min: number, max: number): Promise<void> {
    const table = this.tableFor(topic);
    const cols = await this.columnsOf(table);
    const rows: Record<string, unknown>[] = [];
    for (const r of block) {
      if (r.value === null || r.value === undefined) continue; // tombstones carry no row
      try {
        rows.push(convertRow(r.value, cols, r.valueSchema));
      } catch (err) {
        if (this.cfg.errorsTolerance === 'all') {
          this.log.warn(`skipping record ${topic}-${partition}@${r.kafkaOffset}: ${(err as Error).message} (errors.tolerance=all)`);
          continue;
        }
        throw err instanceof DataException ? err : new DataException((err as Error).message);
      }
    }
    if (!rows.length) return;
    const token = `${topic}-${partition}-${min}-${max}`;
    try {
      await this.withRetry(`insert ${token}`, () =>
        this.client.insert({
          table: `${quoteIdent(this.cfg.database)}.${quoteIdent(table)}`,
          values: rows,
          format: 'JSONEachRow',
          clickhouse_settings: { ...INSERT_SETTINGS, ...this.cfg.clickhouseSettings, insert_deduplication_token: token } as Record<string, string | number>,
        }),
      );
    } catch (err) {
      if (this.cfg.errorsTolerance === 'all') {
        this.log.error(`dropping block ${token} after errors (errors.tolerance=all): ${(err as Error).message}`);
        return;
      }
      throw err instanceof ConnectException ? err : new ConnectException(`Insert of ${rows.length} rows into ${this.cfg.database}.${table} (${token}) failed: ${(err as Error).message}`);
    }
  }

  /** Retries retriable failures (network, the connector's retriable ClickHouse codes) for errors.retry.timeout seconds. */
  private async withRetry<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.cfg.retryTimeoutSec * 1000;
    let attempt = 0;
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (this.stopped || !isRetriable(err) || Date.now() >= deadline) throw err;
        const wait = Math.min(100 * 2 ** attempt++, 5000, Math.max(0, deadline - Date.now()));
        this.log.warn(`${what} failed, retrying in ${wait} ms (errors.retry.timeout ${this.cfg.retryTimeoutSec}s): ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

function isRetriable(err: unknown): boolean {
  const e = err as { code?: string | number; message?: string };
  if (typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|UND_ERR_SOCKET)$/.test(e.code)) return true;
  if (typeof e.code === 'string' && /^\d+$/.test(e.code)) return RETRIABLE_CODES.has(Number(e.code));
  return /socket hang up|Timeout error|ECONNREFUSED|ECONNRESET/i.test(e.message ?? '');
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}
