/**
 * The ClickHouse sink task: records → JSONEachRow blocks inserted through @clickhouse/client,
 * one block per put and topic-partition, each with insert_deduplication_token
 * `<topic>-<partition>-<first offset>-<last offset>`.
 *
 * Every block goes through the state machine of the real connector (Processing.doLogic, tag
 * v1.3.4): the last range and state of a topic-partition (BEFORE_PROCESSING / AFTER_PROCESSING)
 * decide what to do with a batch - see `rangeState`. With exactlyOnce the state lives in the
 * KeeperMap table and survives a crash between any two steps; without it, in memory (the
 * connector's InMemoryState). Unlike the connector, the task also seeks its partitions to where
 * the stored state needs the records again (the start of an unfinished range, or after a finished
 * one), so batches delivered after a restart line up with the stored range.
 */
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import dns from 'node:dns/promises';
import type { Logger } from '../../../../common/log.js';
import { parseExactJson } from '../../../../common/exact-json.js';
import { ConnectException, DataException, type ConnectorConfig, type SinkRecord, type SinkTask, type SinkTaskContext, type TopicPartition, type TopicPartitionOffset } from '../../plugin.js';
import { javaSplit, parseSinkConfig, type SinkConfig } from './config.js';
import { convertRow, isVerbatimRow, parseColumnType, rowJson, type ColumnType, type RowOptions } from './convert.js';
import { LeanHttp } from './lean-http.js';
import { StateStore, type ProcessingState, type StateRecord } from './state.js';

/** Where a test can stop the task dead, between the steps of the exactly-once state machine. */
export type SinkStep = 'after-before-state' | 'after-insert' | 'after-after-state';
export interface SinkTaskHooks {
  step?(step: SinkStep, block: { topic: string; partition: number; min: number; max: number }): void | Promise<void>;
}

/**
 * Settings of every insert besides clickhouseSettings (which carries the connector's own four:
 * input_format_skip_unknown_fields, wait_end_of_query, async_insert, send_progress_in_http_headers):
 * the seed's constants.
 */
export const INSERT_SETTINGS = {
  receive_timeout: 1_000_000,
  send_timeout: 1_000_000,
  http_send_timeout: 1000,
  http_receive_timeout: 1000,
  allow_nondeterministic_mutations: 1,
} as const;

/** ClickHouse error codes the real connector treats as retriable (Utils.handleException). */
const RETRIABLE_CODES = new Set([3, 107, 159, 164, 202, 203, 209, 210, 241, 242, 252, 285, 319, 425, 999]);

/** RangeContainer.getOverLappingState's answers. */
export type RangeState = 'ZERO' | 'SAME' | 'CONTAINS' | 'OVER_LAPPING' | 'NEW' | 'ERROR' | 'PREVIOUS';

/** RangeContainer.getOverLappingState: the stored range [min, max] against a batch's [actualMin, actualMax], in the connector's order of tests. */
export function rangeState(stored: { minOffset: number; maxOffset: number }, actualMin: number, actualMax: number, state: ProcessingState): RangeState {
  const { minOffset: min, maxOffset: max } = stored;
  if (actualMax === max && actualMin <= min) return 'SAME';
  if (actualMin > max) return 'NEW';
  if (actualMax <= max && actualMin >= min) return 'CONTAINS';
  if (actualMax > max) return 'OVER_LAPPING';
  if (actualMin === 0) return 'ZERO';
  if (state === 'AFTER_PROCESSING') return 'PREVIOUS';
  return 'ERROR';
}

/** A batch of one topic-partition (or one topic, with ignorePartitionsWhenBatching) as Record.convert names it. */
interface Batch {
  topic: string;
  partition: number;
  records: SinkRecord[];
  /** Record.getDatabase: the database part of the topic with enableDbTopicSplit, else `database`. */
  database: string;
  /** Record.getTopic: the topic without its database part; names the table and the deduplication token. */
  table: string;
  /** Processing.doLogic's topic: `<database><dbTopicSplitChar><topic>` with enableDbTopicSplit; keys the state. */
  stateTopic: string;
}

const tpKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/** The last record of each run of one topic-partition (markDone keeps the highest offset per partition). */
function lastPerPartition(list: SinkRecord[]): SinkRecord[] {
  const out: SinkRecord[] = [];
  for (let i = 0; i < list.length; i++) {
    const r = list[i]!;
    const n = list[i + 1];
    if (!n || n.topic !== r.topic || n.kafkaPartition !== r.kafkaPartition) out.push(r);
  }
  return out;
}

export class ClickHouseSinkTask implements SinkTask {
  private cfg!: SinkConfig;
  private ctx!: SinkTaskContext;
  private log!: Logger;
  private client!: ClickHouseClient;
  private stateStore?: StateStore;
  /** The inserts' and state writes' request path (lean-http.ts). */
  private lean?: LeanHttp;
  /** Last state per state key (`<topic>-<partition>`); the only store without exactlyOnce. */
  private readonly states = new Map<string, StateRecord | null>();
  /** Next offset per partition whose records the sink has dealt with. */
  private readonly done = new Map<string, TopicPartitionOffset>();
  private readonly columns = new Map<string, Map<string, ColumnType> | null>();
  /** Bodies built ahead (prepare), by the first record of their block. */
  private readonly prepared = new WeakMap<SinkRecord, { bytes: Buffer; n: number; last: SinkRecord; count: number; cols: Map<string, ColumnType> }>();
  private rowOptions!: RowOptions;
  private stopped = false;

  constructor(private readonly hooks: SinkTaskHooks = {}) {}

  async start(config: ConnectorConfig, context: SinkTaskContext): Promise<void> {
    this.cfg = parseSinkConfig(config);
    this.ctx = context;
    this.log = context.services.log.child(`clickhouse-sink-${context.taskId}`);
    const skipUnknown = this.cfg.clickhouseSettings.input_format_skip_unknown_fields;
    // cleanupExtraFields drops fields the table lacks; ClickHouse does the same while it skips unknown fields.
    this.rowOptions = { onlyTableColumns: !this.cfg.bypassFieldCleanup && skipUnknown !== '1' && skipUnknown?.toLowerCase() !== 'true' };
    const url = `${this.cfg.ssl ? 'https' : 'http'}://${this.cfg.hostname}:${this.cfg.port}`;
    // ClickHouseSinkTask.start pings the server first and fails the task when it cannot; a name
    // that does not resolve is said as the setting to change, not as getaddrinfo's ENOTFOUND
    await checkResolves(this.cfg.hostname, this.cfg.port);
    this.client = createClient({
      url,
      username: this.cfg.username,
      password: this.cfg.password,
      database: this.cfg.database,
      request_timeout: Math.max(30_000, this.cfg.retryTimeoutSec * 1000),
      max_open_connections: 4,
      // Failures reach the task's own log (with the retry they lead to), not the console.
      log: { level: ClickHouseLogLevel.OFF },
      // answers (DESCRIBE, the state row) with an Int64 beyond 2^53 read exactly; the task writes
      // the rows itself (rowJson), the client never stringifies them
      json: { parse: parseExactJson as <T>(text: string) => T },
    });
    this.lean = new LeanHttp({ url, username: this.cfg.username, password: this.cfg.password, database: this.cfg.database, requestTimeoutMs: Math.max(30_000, this.cfg.retryTimeoutSec * 1000), maxOpenConnections: 4 });
    if (this.cfg.exactlyOnce) {
      this.stateStore = new StateStore(this.client, { onCluster: this.cfg.keeperOnCluster, zkPath: this.cfg.zkPath, zkDatabase: this.cfg.zkDatabase }, this.lean);
      await this.withRetry('create state table', () => this.stateStore!.ensureTable());
    }
    this.log.info(`ClickHouse sink started for ${url} database ${this.cfg.database}${this.cfg.exactlyOnce ? ' (exactlyOnce)' : ''}`);
    await this.open(context.assignment());
  }

  async open(partitions: TopicPartition[]): Promise<void> {
    if (!this.stateStore) return;
    const seek: TopicPartitionOffset[] = [];
    for (const tp of partitions) {
      const key = this.stateKey(this.split(tp.topic).stateTopic, tp.partition);
      if (this.states.has(key)) continue;
      const st = await this.readState(key);
      if (!st) continue;
      seek.push({ ...tp, offset: st.state === 'AFTER_PROCESSING' ? st.maxOffset + 1 : st.minOffset });
    }
    if (seek.length) this.ctx.offset(seek);
  }

  async put(records: SinkRecord[]): Promise<void> {
    if (this.stopped || records.length === 0) return;
    const byTopic = this.batchesByTopic();
    for (const list of this.groupsOf(records).values()) {
      if (this.stopped) return;
      const first = list[0]!;
      const batch: Batch = { ...this.split(first.topic), topic: first.topic, partition: first.kafkaPartition, records: list };
      try {
        if (byTopic) await this.insertBatch(batch, list, undefined);
        else await this.doLogic(batch);
      } catch (err) {
        // Utils.handleException: what is not retried fails the task, unless errors.tolerance=all.
        if (this.cfg.errorsTolerance !== 'all') throw err;
        this.log.warn(`Errors tolerance is enabled, ignoring exception: ${(err as Error).message}`);
      }
      for (const r of lastPerPartition(list)) this.markDone(r.topic, r.kafkaPartition, r.kafkaOffset);
    }
  }

  /**
   * Builds the insert bodies of a batch the runner will put next, while the put before it waits on
   * ClickHouse: the block's conversion then no longer sits between its BEFORE_PROCESSING state
   * write and its insert. Only blocks of whole groups whose table's columns are known are built;
   * put() uses a body only for the very block it was built for and builds any other itself.
   */
  prepare(records: SinkRecord[]): void {
    if (this.stopped || !records.length) return;
    for (const list of this.groupsOf(records).values()) {
      const first = firstValue(list);
      if (first === undefined || typeof first === 'string') continue;
      const { database, table } = this.tableFor(this.split(list[0]!.topic));
      const cols = this.columns.get(qualifiedName(database, table));
      if (!cols) continue;
      const built = this.buildBody(list[0]!.topic, list, cols, true);
      if (built) this.prepared.set(list[0]!, { ...built, last: list[list.length - 1]!, count: list.length, cols });
    }
  }

  /** Never commits past what put has dealt with. */
  async preCommit(current: TopicPartitionOffset[]): Promise<TopicPartitionOffset[]> {
    return current.map((c) => {
      const d = this.done.get(tpKey(c.topic, c.partition));
      return d && d.offset < c.offset ? { ...c, offset: d.offset } : c;
    });
  }

  /** Per partition, the next offset whose records are all in ClickHouse (for the pipeline view). */
  progress(): TopicPartitionOffset[] {
    return [...this.done.values()];
  }

  async close(partitions: TopicPartition[]): Promise<void> {
    for (const tp of partitions) this.states.delete(this.stateKey(this.split(tp.topic).stateTopic, tp.partition));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.close();
    this.lean?.close();
  }

  /** ignorePartitionsWhenBatching, which exactlyOnce overrides. */
  private batchesByTopic(): boolean {
    return !this.cfg.exactlyOnce && this.cfg.ignorePartitionsWhenBatching;
  }

  /** ProxySinkTask's batches: by topic and partition, or by topic alone with ignorePartitionsWhenBatching (not with exactlyOnce). */
  private groupsOf(records: SinkRecord[]): Map<string, SinkRecord[]> {
    const byTopic = this.batchesByTopic();
    const groups = new Map<string, SinkRecord[]>();
    // by runs of one topic-partition (a batch is mostly one long run), not a key per record
    for (let first = 0; first < records.length; ) {
      const { topic, kafkaPartition } = records[first]!;
      let end = first + 1;
      while (end < records.length && records[end]!.topic === topic && (byTopic || records[end]!.kafkaPartition === kafkaPartition)) end++;
      const key = byTopic ? topic : tpKey(topic, kafkaPartition);
      const list = groups.get(key);
      if (!list) groups.set(key, first === 0 && end === records.length ? records : records.slice(first, end));
      else for (let i = first; i < end; i++) list.push(records[i]!);
      first = end;
    }
    return groups;
  }

  /** RecordConvertor.convert and Processing.doLogic's naming of a topic. */
  private split(topic: string): Pick<Batch, 'database' | 'table' | 'stateTopic'> {
    if (!this.cfg.enableDbTopicSplit) return { database: this.cfg.database, table: topic, stateTopic: topic };
    const parts = javaSplit(topic, this.cfg.dbTopicSplitChar);
    const [database, table] = parts.length === 2 ? [parts[0]!, parts[1]!] : [this.cfg.database, topic];
    return { database, table, stateTopic: `${database}${this.cfg.dbTopicSplitChar}${table}` };
  }

  private stateKey(topic: string, partition: number): string {
    return `${topic}-${partition}`;
  }

  private markDone(topic: string, partition: number, offset: number): void {
    const key = tpKey(topic, partition);
    const cur = this.done.get(key);
    if (!cur || cur.offset <= offset) this.done.set(key, { topic, partition, offset: offset + 1 });
  }

  private async readState(key: string): Promise<StateRecord | null> {
    if (!this.states.has(key) && this.stateStore) this.states.set(key, (await this.withRetry('read state', () => this.stateStore!.get(key))) ?? null);
    return this.states.get(key) ?? null;
  }

  private async writeState(b: Batch, min: number, max: number, state: ProcessingState): Promise<void> {
    const key = this.stateKey(b.stateTopic, b.partition);
    if (this.stateStore) await this.withRetry('write state', () => this.stateStore!.set(key, min, max, state));
    this.states.set(key, { key, minOffset: min, maxOffset: max, state });
  }

  /** BEFORE_PROCESSING(range) → insert → AFTER_PROCESSING(range). */
  private async process(b: Batch, records: SinkRecord[], min: number, max: number): Promise<void> {
    const at = { topic: b.topic, partition: b.partition, min, max };
    await this.writeState(b, min, max, 'BEFORE_PROCESSING');
    await this.hooks.step?.('after-before-state', at);
    await this.insertBatch(b, records, [min, max]);
    await this.hooks.step?.('after-insert', at);
    await this.writeState(b, min, max, 'AFTER_PROCESSING');
    await this.hooks.step?.('after-after-state', at);
  }

  /** Re-inserts a range left in BEFORE_PROCESSING and records it AFTER_PROCESSING (no new BEFORE). */
  private async finish(b: Batch, records: SinkRecord[], min: number, max: number): Promise<void> {
    const at = { topic: b.topic, partition: b.partition, min, max };
    await this.insertBatch(b, records, [min, max]);
    await this.hooks.step?.('after-insert', at);
    await this.writeState(b, min, max, 'AFTER_PROCESSING');
    await this.hooks.step?.('after-after-state', at);
  }

  /** Processing.doLogic for one topic-partition batch. */
  private async doLogic(b: Batch): Promise<void> {
    const { records, stateTopic: topic, partition } = b;
    let min = Number.MAX_SAFE_INTEGER;
    let max = -1;
    for (const r of records) {
      if (r.kafkaOffset < min) min = r.kafkaOffset;
      if (r.kafkaOffset > max) max = r.kafkaOffset;
    }
    const st = await this.readState(this.stateKey(topic, partition));
    if (!st) {
      await this.process(b, records, min, max);
      return;
    }
    const trimmed = records.filter((r) => r.kafkaOffset >= st.minOffset);
    const rs = rangeState(st, min, max, st.state);
    const given = `[${records.length}] records for topic: [${topic}], partition: [${partition}], minOffset: [${min}], maxOffset: [${max}]`;
    if (st.state === 'BEFORE_PROCESSING') {
      switch (rs) {
        case 'ZERO':
          this.log.warn(`The topic seems to be deleted. Resetting state for topic [${topic}] partition [${partition}].`);
          await this.process(b, records, min, max);
          return;
        case 'SAME':
        case 'NEW':
          // The same range again: ClickHouse drops the block if the first insert had landed.
          await this.finish(b, trimmed, min, max);
          return;
        case 'CONTAINS':
          throw new ConnectException(`BEFORE_PROCESSING: State CONTAINS given ${given}`);
        case 'OVER_LAPPING': {
          const left = trimmed.filter((r) => r.kafkaOffset <= st.maxOffset);
          const right = trimmed.filter((r) => r.kafkaOffset > st.maxOffset);
          const lMin = left.length ? left[0]!.kafkaOffset : Number.MAX_SAFE_INTEGER;
          const lMax = left.length ? left[left.length - 1]!.kafkaOffset : -1;
          // Re-insert the first chunk only if its bounds are the stored ones; otherwise it cannot be deduplicated.
          if (rangeState(st, lMin, lMax, 'BEFORE_PROCESSING') === 'SAME') await this.finish(b, left, lMin, lMax);
          else this.log.warn(`Records seemingly missing compared to prior batch for topic [${topic}] partition [${partition}].`);
          await this.process(b, right, right[0]!.kafkaOffset, right[right.length - 1]!.kafkaOffset);
          return;
        }
        default:
          throw new ConnectException(`BEFORE_PROCESSING: ERROR State given ${given}, expectedMinOffset: [${st.minOffset}], expectedMaxOffset: [${st.maxOffset}]`);
      }
    }
    switch (rs) {
      case 'SAME':
      case 'CONTAINS':
        this.log.debug(`skipping ${records.length} records of ${topic}-${partition} already in ClickHouse (AFTER_PROCESSING ${st.minOffset}-${st.maxOffset})`);
        return;
      case 'ZERO':
        this.log.warn(`It seems you deleted the topic - resetting state for topic [${topic}] partition [${partition}].`);
        await this.process(b, records, min, max);
        return;
      case 'NEW':
        await this.process(b, trimmed, min, max);
        return;
      case 'OVER_LAPPING': {
        const right = trimmed.filter((r) => r.kafkaOffset > st.maxOffset);
        await this.process(b, right, right[0]!.kafkaOffset, right[right.length - 1]!.kafkaOffset);
        return;
      }
      case 'PREVIOUS': {
        const msg = `AFTER_PROCESSING: State MISMATCH as batch already processed - skipping ${given}, storedMinOffset: [${st.minOffset}], storedMaxOffset: [${st.maxOffset}]`;
        if (!this.cfg.tolerateStateMismatch) throw new ConnectException(msg);
        this.log.warn(msg);
        return;
      }
      default:
        throw new ConnectException(`AFTER_PROCESSING: ERROR State given ${given}, expectedMinOffset: [${st.minOffset}], expectedMaxOffset: [${st.maxOffset}]`);
    }
  }

  /** Utils.getTableName: topic2TableMap or the topic, in the record's database. */
  private tableFor(b: Pick<Batch, 'database' | 'table'>): { database: string; table: string } {
    return { database: b.database, table: this.cfg.topic2Table[b.table] ?? b.table };
  }

  /** The table's columns; null for a missing table when suppressTableExistenceException is set. */
  private async columnsOf(database: string, table: string): Promise<Map<string, ColumnType> | null> {
    const name = qualifiedName(database, table);
    const cached = this.columns.get(name);
    if (cached !== undefined) return cached;
    let rows: { name: string; type: string }[];
    try {
      rows = await this.withRetry('describe table', async () => (await this.client.query({ query: `DESCRIBE TABLE ${name}`, format: 'JSONEachRow' })).json<{ name: string; type: string }>());
    } catch (err) {
      if (!/UNKNOWN_TABLE|UNKNOWN_DATABASE|\b60\b|\b81\b|does not exist/.test((err as Error).message)) throw err;
      // ClickHouseWriter.getTable's texts; a suppressed miss is not cached, so a table created later is found.
      if (this.cfg.suppressTableExistenceException) {
        this.log.warn(`Table [${name}] does not exist, but error was suppressed.`);
        return null;
      }
      this.log.error(`Table [${name}] does not exist - see docs for more details about table names and topic names.`);
      throw new ConnectException(`Table ${name} does not exist`);
    }
    const map = new Map(rows.map((r) => [r.name, parseColumnType(r.type)]));
    this.columns.set(name, map);
    return map;
  }

  /** ClickHouseWriter.doInsert: one insert of the batch's rows, with the token of `range` when given. */
  private async insertBatch(b: Batch, block: SinkRecord[], range: [number, number] | undefined): Promise<void> {
    if (!block.length) return;
    const { database, table } = this.tableFor(b);
    const cols = await this.columnsOf(database, table);
    if (!cols) return;
    const token = range ? `${b.table}-${b.partition}-${range[0]}-${range[1]}` : undefined;
    const what = `${qualifiedName(database, table)} (${token ?? `topic ${b.topic}`})`;
    if (typeof firstValue(block) === 'string') {
      await this.insertStrings(database, table, block, token, what);
      return;
    }
    const pre = this.prepared.get(block[0]!);
    this.prepared.delete(block[0]!);
    const { bytes, n } = pre && pre.last === block[block.length - 1] && pre.count === block.length && pre.cols === cols ? pre : this.buildBody(b.topic, block, cols, false)!;
    if (!n) return;
    await this.send(database, table, what, n, token, (settings) => this.execInsert(database, table, 'JSONEachRow', bytes, settings));
  }

  /**
   * The JSONEachRow body of a block, written as UTF-8, one row after another: the client's insert()
   * would push every row through its encoder stream (0.8 µs a row on bench:cdc), and one string
   * concatenated row by row is flattened, measured and encoded again when sent (1 ms a block).
   * A row that is still the JSON its record was read as goes as that text (isVerbatimRow).
   * `quiet` (a body built ahead, see prepare): undefined at the first record that fails, which
   * the put then meets (and reports or skips) in its turn.
   */
  private buildBody(topic: string, block: SinkRecord[], cols: Map<string, ColumnType>, quiet: boolean): { bytes: Buffer; n: number } | undefined {
    const body = new BodyWriter();
    let n = 0;
    for (const r of block) {
      if (r.value === null || r.value === undefined) continue; // tombstones carry no row
      let row: Record<string, unknown>;
      try {
        row = convertRow(r.value, cols, r.valueSchema, this.rowOptions);
      } catch (err) {
        if (quiet) return undefined;
        if (this.cfg.errorsTolerance === 'all') {
          this.log.warn(`skipping record ${topic}-${r.kafkaPartition}@${r.kafkaOffset}: ${(err as Error).message} (errors.tolerance=all)`);
          continue;
        }
        throw err instanceof DataException ? err : new DataException((err as Error).message);
      }
      const json = r.valueJson;
      body.line(json && json.value === row && isVerbatimRow(row, json.text) ? json.text : rowJson(row));
      n++;
    }
    return { bytes: body.bytes(), n };
  }

  /** ClickHouseWriter.doInsertString: string values (StringConverter) sent as they are, in insertFormat. */
  private async insertStrings(database: string, table: string, block: SinkRecord[], token: string | undefined, what: string): Promise<void> {
    const format = this.cfg.insertFormat;
    if (format === 'NONE') throw new ConnectException('using org.apache.kafka.connect.storage.StringConverter, but did not enable.');
    const parts: string[] = [];
    for (const r of block) {
      if (r.value === null || r.value === undefined) continue;
      if (typeof r.value !== 'string') {
        const msg = `Expected a string value in a batch of string records, got ${Array.isArray(r.value) ? 'an array' : typeof r.value}`;
        if (this.cfg.errorsTolerance !== 'all') throw new DataException(msg);
        this.log.warn(`skipping record ${r.topic}-${r.kafkaPartition}@${r.kafkaOffset}: ${msg} (errors.tolerance=all)`);
        continue;
      }
      const s = r.value;
      parts.push(s);
      // CSV and TSV rows get the line end they lack; JSON objects are sent back to back, as the connector writes them.
      if (format !== 'JSON' && !s.endsWith('\n')) parts.push('\n');
    }
    if (!parts.length) return;
    const body = parts.join('');
    const chFormat = format === 'JSON' ? 'JSONEachRow' : format === 'CSV' ? 'CSV' : 'TabSeparated';
    await this.send(database, table, what, block.length, token, (settings) => this.execInsert(database, table, chFormat, body, settings));
  }

  /**
   * `INSERT INTO … FORMAT <format>` with the body as it is: exec, not insert, which would encode each
   * row (or chunk) again. Done when the response has ended, as insert() is: with
   * send_progress_in_http_headers the response starts while the insert still runs.
   */
  private async execInsert(database: string, table: string, format: string, body: string | Buffer, settings: Record<string, string | number>): Promise<void> {
    await this.lean!.exec(`INSERT INTO ${qualifiedName(database, table)} FORMAT ${format}`, body, settings);
  }

  private async send(database: string, table: string, what: string, n: number, token: string | undefined, insert: (settings: Record<string, string | number>) => Promise<unknown>): Promise<void> {
    const settings: Record<string, string | number> = { ...INSERT_SETTINGS, ...(token ? { insert_deduplication_token: token } : {}), ...this.cfg.clickhouseSettings };
    try {
      await this.withRetry(`insert ${what}`, () => insert(settings));
    } catch (err) {
      throw err instanceof ConnectException ? err : new ConnectException(`Insert of ${n} records into ${what} failed: ${(err as Error).message}`);
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

/** Lines of text written as UTF-8 into one growing buffer. */
class BodyWriter {
  private buf = Buffer.allocUnsafe(256 * 1024);
  private size = 0;

  line(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    const need = this.size + text.length * 3 + 1;
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(grown, 0, 0, this.size);
      this.buf = grown;
    }
    this.size += this.buf.write(text, this.size);
    this.buf[this.size++] = 10;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.size);
  }
}

/** Fails with the setting to change when `hostname` is no name the resolver knows (ENOTFOUND). */
async function checkResolves(hostname: string, port: number): Promise<void> {
  try {
    await dns.lookup(hostname);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTFOUND') return; // EAI_AGAIN and the like may pass: the requests retry them
    throw new ConnectException(
      `Could not reach ClickHouse: the host name '${hostname}' does not resolve (getaddrinfo ENOTFOUND ${hostname}). Change the sink's 'hostname' setting to the ClickHouse server's name or address ` +
        `(embedded ClickHouse listens on 127.0.0.1; 'port' is ${port}).`,
    );
  }
}

function isRetriable(err: unknown): boolean {
  const e = err as { code?: string | number; message?: string };
  if (typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|UND_ERR_SOCKET)$/.test(e.code)) return true;
  if (typeof e.code === 'string' && /^\d+$/.test(e.code)) return RETRIABLE_CODES.has(Number(e.code));
  return /socket hang up|Timeout error|ECONNREFUSED|ECONNRESET/i.test(e.message ?? '');
}

/** Utils.escapeName: backticks are dropped, not escaped. */
function escapeName(name: string): string {
  return `\`${name.replace(/`/g, '')}\``;
}

/** `db`.`table` as the connector writes it; also the key of the task's column cache. */
function qualifiedName(database: string, table: string): string {
  return `${escapeName(database)}.${escapeName(table)}`;
}

/** The first value that is not a tombstone: it decides how a batch is written, as Record.convert's SchemaType does. */
function firstValue(block: SinkRecord[]): unknown {
  return block.find((r) => r.value !== null && r.value !== undefined)?.value;
}
