/**
 * Variant 2 embedded: what ClickHouse's Kafka table engine does, done by Loupe. A queue table
 * (a Kafka engine table translated to `Null` by embedded ClickHouse) is fed from the topic log:
 * the feeder consumes the table's topics in its consumer group, turns each block of messages
 * into rows as the engine does (StorageKafka / KafkaSource), inserts them into the queue table
 * with the engine's virtual columns, and commits the group's offsets after the insert -
 * at-least-once, as the Kafka engine. The materialized views attached to the queue table run
 * unchanged on every insert.
 *
 * What KafkaSource does and this copies:
 * - nothing is consumed while no materialized view is attached (StorageKafka::checkDependencies),
 *   so messages produced before the view is created still reach it;
 * - every message is parsed on its own in kafka_format (the format is reset per message), and
 *   each of its rows gets the message's `_topic`, `_key`, `_offset`, `_partition`, `_timestamp`,
 *   `_timestamp_ms` and `_headers.*`; empty messages and tombstones give no rows;
 * - a message that does not parse fails the block (kafka_handle_error_mode = 'default'; nothing is
 *   committed and the block is read again), unless kafka_skip_broken_messages allows it - N broken
 *   messages per block, as documented; with 'stream' it becomes one row of default values with
 *   `_raw_message` and `_error`; with 'dead_letter_queue' it is skipped with a warning, as the
 *   engine does when system.dead_letter_queue is not configured;
 * - the format settings of the table's SETTINGS apply, input_format_skip_unknown_fields is on
 *   unless set, and CSV/TSV header detection is off (StorageKafkaUtils::createSettingsAdjustments).
 */
import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import type { Logger } from '../../common/log.js';
import { KAFKA_VIRTUAL_COLUMNS, type KafkaQueueSpec } from '../clickhouse/translate.js';
import type { LogRecord, TopicLog, TopicPartitionOffset } from '../log/types.js';

export interface FeederOptions {
  log: TopicLog;
  /** Base URL of the ClickHouse HTTP interface that holds the queue table. */
  clickhouseUrl: string;
  spec: KafkaQueueSpec;
  logger: Logger;
  /** Messages per block when the table does not set kafka_max_block_size. */
  maxBlockSize?: number;
}

export interface FeederStatus {
  table: string;
  group: string;
  positions: TopicPartitionOffset[];
  insertedMessages: number;
  /** Broken messages skipped (kafka_skip_broken_messages, dead_letter_queue). */
  skippedMessages: number;
  lastError?: string;
}

/**
 * Formats whose rows never span lines and where a non-blank line gives at least one row or an
 * error: a block of one-line messages can be parsed in one go, and when it gives as many rows as
 * messages, row i is message i - what parsing each message alone would give.
 */
const LINE_FORMATS = new Set(
  ['JSONEachRow', 'JSONLines', 'NDJSON', 'JSONAsString', 'JSONAsObject', 'JSONStringsEachRow', 'JSONCompactEachRow', 'JSONCompactStringsEachRow', 'LineAsString', 'TSV', 'TabSeparated', 'TSVRaw', 'TabSeparatedRaw', 'TSKV', 'CSV'].map((f) => f.toLowerCase()),
);

/** Errors that are about the table or the settings, not about a message: they fail the block in every mode. */
const NOT_A_MESSAGE_ERROR = new Set(['UNKNOWN_FORMAT', 'UNKNOWN_SETTING', 'UNKNOWN_TABLE', 'UNKNOWN_DATABASE', 'FORMAT_SCHEMA_NOT_FOUND', 'NETWORK_ERROR', 'MEMORY_LIMIT_EXCEEDED', 'TIMEOUT_EXCEEDED']);

interface QueueColumns {
  /** Ordinary columns, what kafka_format fills, as `name type` pairs. */
  data: { name: string; type: string }[];
  /** The virtual columns the table has (older translations have none). */
  virtuals: Set<string>;
}

type Parsed = { rows: string[] } | { error: string };

export class QueueFeeder {
  private readonly client: ClickHouseClient;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private unsubscribe?: () => void;
  private inserted = 0;
  private skipped = 0;
  private lastError?: string;
  private readonly positions = new Map<string, TopicPartitionOffset>();
  private readonly mode: string;
  private readonly skipBroken: number;
  private readonly blockSize: number;
  private readonly format: string;

  constructor(private readonly opts: FeederOptions) {
    this.client = createClient({ url: opts.clickhouseUrl, ...(opts.spec.database ? { database: opts.spec.database } : {}), log: { level: ClickHouseLogLevel.OFF } });
    const s = opts.spec.settings;
    this.mode = (s.kafka_handle_error_mode ?? 'default').toLowerCase();
    this.skipBroken = Number(s.kafka_skip_broken_messages ?? 0) || 0;
    this.blockSize = Number(s.kafka_max_block_size) || opts.maxBlockSize || 65536;
    this.format = opts.spec.format || 'JSONAsString';
  }

  get table(): string {
    return `${this.opts.spec.database ?? 'default'}.${this.opts.spec.table}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.opts.log.onAppend((topic) => {
      if (this.opts.spec.topics.includes(topic)) this.wake?.();
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    await this.client.close();
  }

  status(): FeederStatus {
    return {
      table: this.table,
      group: this.opts.spec.group,
      positions: [...this.positions.values()],
      insertedMessages: this.inserted,
      skippedMessages: this.skipped,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** One pass over every partition; true when something was consumed. */
  async pollOnce(): Promise<boolean> {
    const { spec, log } = this.opts;
    // StorageKafka streams only to attached views; reading without one would commit messages
    // that no view ever sees.
    if (!(await this.hasViews())) return false;
    const committed = await log.committedOffsets(spec.group);
    let columns: QueueColumns | undefined;
    let any = false;
    for (const topic of spec.topics) {
      const desc = await log.describeTopic(topic);
      if (!desc) continue;
      for (const p of desc.partitions) {
        // No committed offset: start from the earliest, as ClickHouse's Kafka engine does.
        const from = committed.find((c) => c.topic === topic && c.partition === p.partition)?.offset ?? p.beginOffset;
        const recs = await log.fetch(topic, p.partition, from, { maxRecords: this.blockSize, maxBytes: 64 * 1024 * 1024 });
        if (!recs.length) {
          this.positions.set(`${topic}/${p.partition}`, { topic, partition: p.partition, offset: from });
          continue;
        }
        columns ??= await this.columns();
        const messages = recs.filter((r) => r.value !== null && r.value !== '');
        const rows = messages.length ? await this.rows(messages, columns) : [];
        if (rows.length) {
          const first = recs[0]!.offset;
          const last = recs[recs.length - 1]!.offset;
          const names = [...columns.data.map((c) => c.name), ...KAFKA_VIRTUAL_COLUMNS.map((v) => v.name).filter((n) => columns!.virtuals.has(n))];
          const ex = await this.client.exec({
            query: `INSERT INTO ${quoteIdent(spec.table)} (${names.map(quoteIdent).join(', ')}) FORMAT JSONEachRow`,
            values: Readable.from([rows.join('\n') + '\n']),
            clickhouse_settings: {
              insert_allow_materialized_columns: 1,
              insert_deduplication_token: `${topic}-${p.partition}-${first}-${last}`,
              deduplicate_blocks_in_dependent_materialized_views: 1,
            },
          });
          ex.stream.resume();
          this.inserted += messages.length;
        }
        const next = recs[recs.length - 1]!.offset + 1;
        await log.commitOffsets(spec.group, [{ topic, partition: p.partition, offset: next }]);
        this.positions.set(`${topic}/${p.partition}`, { topic, partition: p.partition, offset: next });
        any = true;
      }
    }
    return any;
  }

  /** The block's rows, JSONEachRow lines with the virtual columns; throws when the block fails. */
  private async rows(messages: LogRecord[], columns: QueueColumns): Promise<string[]> {
    const parsed = await this.parse(messages.map((m) => m.value!), columns);
    const out: string[] = [];
    let broken = 0;
    messages.forEach((m, i) => {
      const p = parsed[i]!;
      const virtual = virtualFields(m, columns.virtuals);
      if ('rows' in p) {
        for (const row of p.rows) out.push(virtual ? `${row.slice(0, -1)}${row.length > 2 ? ',' : ''}${virtual}}` : row);
        return;
      }
      const where = `while parsing Kafka message (topic: ${m.topic}, partition: ${m.partition}, offset: ${m.offset})`;
      if (this.mode === 'stream') {
        const extra = [columns.virtuals.has('_raw_message') ? `"_raw_message":${JSON.stringify(m.value)}` : '', columns.virtuals.has('_error') ? `"_error":${JSON.stringify(p.error)}` : ''].filter(Boolean).join(',');
        out.push(`{${[virtual, extra].filter(Boolean).join(',')}}`);
        return;
      }
      if (this.mode === 'dead_letter_queue') {
        this.skipped++;
        this.opts.logger.warn(`queue table ${this.table}: skipped a message that does not parse as ${this.format} (${where}): ${p.error}`);
        return;
      }
      if (++broken > this.skipBroken) {
        throw new Error(`${p.error}: ${where}${this.skipBroken ? ` (more than kafka_skip_broken_messages = ${this.skipBroken} broken messages in the block)` : ''}`);
      }
      this.skipped++;
    });
    return out;
  }

  /** Each message parsed on its own in kafka_format: its rows as JSONEachRow lines, or why it does not parse. */
  private async parse(values: string[], columns: QueueColumns): Promise<Parsed[]> {
    if (this.format.toLowerCase() === 'rawblob' && columns.data.length === 1) {
      // RawBLOB reads the whole message into the one column, and cannot fail on it.
      return values.map((v) => ({ rows: [`{${JSON.stringify(columns.data[0]!.name)}:${JSON.stringify(v)}}`] }));
    }
    const lines = values.map((v) => v.replace(/\r?\n$/, ''));
    if (LINE_FORMATS.has(this.format.toLowerCase()) && lines.every((l) => !/[\r\n]/.test(l) && l.trim() !== '')) {
      try {
        const rows = await this.select(lines.join('\n') + '\n', columns);
        if (rows.length === values.length) return rows.map((r) => ({ rows: [r] }));
      } catch (err) {
        if (!isMessageError(err)) throw err;
      }
    }
    const out: Parsed[] = [];
    for (const v of values) {
      try {
        out.push({ rows: await this.select(v, columns) });
      } catch (err) {
        if (!isMessageError(err)) throw err;
        out.push({ error: exceptionMessage(err as Error) });
      }
    }
    return out;
  }

  /** Rows of `data` read in kafka_format with the table's columns, as JSONEachRow lines. */
  private async select(data: string, columns: QueueColumns): Promise<string[]> {
    const structure = columns.data.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
    const rs = await this.client.query({
      query: `SELECT * FROM format(${quoteIdent(this.format)}, ${quoteString(structure)}, ${quoteString(data)})`,
      format: 'JSONEachRow',
      clickhouse_settings: this.formatSettings(data.length),
    });
    return (await rs.text()).split('\n').filter((l) => l !== '');
  }

  private formatSettings(bytes: number): ClickHouseSettings {
    const table: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.opts.spec.settings)) if (!k.startsWith('kafka_')) table[k] = v;
    return {
      input_format_skip_unknown_fields: 1,
      input_format_csv_detect_header: 0,
      input_format_tsv_detect_header: 0,
      input_format_custom_detect_header: 0,
      ...(this.opts.spec.settings.kafka_schema ? { format_schema: this.opts.spec.settings.kafka_schema } : {}),
      ...(table as ClickHouseSettings),
      // Broken messages are counted per message here, so the format itself must not skip rows.
      input_format_allow_errors_num: '0',
      input_format_allow_errors_ratio: 0,
      // One thread and no parallel parsing keep the rows in message order.
      input_format_parallel_parsing: 0,
      max_threads: 1,
      max_query_size: String(bytes * 2 + 65536),
    };
  }

  private async hasViews(): Promise<boolean> {
    const { spec } = this.opts;
    const rs = await this.client.query({
      query: 'SELECT length(dependencies_table) AS n FROM system.tables WHERE database = {db:String} AND name = {t:String}',
      query_params: { db: spec.database ?? 'default', t: spec.table },
      format: 'JSONEachRow',
    });
    const rows = await rs.json<{ n: number | string }>();
    return rows.length > 0 && Number(rows[0]!.n) > 0;
  }

  private async columns(): Promise<QueueColumns> {
    const { spec } = this.opts;
    const rs = await this.client.query({
      query: 'SELECT name, type, default_kind FROM system.columns WHERE database = {db:String} AND table = {t:String} ORDER BY position',
      query_params: { db: spec.database ?? 'default', t: spec.table },
      format: 'JSONEachRow',
    });
    const rows = await rs.json<{ name: string; type: string; default_kind: string }>();
    const virtualNames = new Set(KAFKA_VIRTUAL_COLUMNS.map((v) => v.name));
    return {
      data: rows.filter((r) => r.default_kind === '').map(({ name, type }) => ({ name, type })),
      virtuals: new Set(rows.filter((r) => r.default_kind === 'MATERIALIZED' && virtualNames.has(r.name)).map((r) => r.name)),
    };
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.running) {
      try {
        const any = await this.pollOnce();
        this.lastError = undefined;
        backoff = 100;
        if (!any) await this.idle(1000);
      } catch (err) {
        this.lastError = (err as Error).message;
        this.opts.logger.warn(`queue table ${this.table}: ${this.lastError}; retrying in ${backoff} ms`);
        await this.idle(backoff);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** The message's virtual columns as JSON object members (no braces), those the table has. */
function virtualFields(m: LogRecord, has: Set<string>): string {
  const f: Record<string, unknown> = {
    _topic: m.topic,
    _key: m.key ?? '',
    _offset: m.offset,
    _partition: m.partition,
    _timestamp: Math.floor(m.timestamp / 1000),
    _timestamp_ms: (m.timestamp / 1000).toFixed(3),
    '_headers.name': m.headers.map((h) => h.key),
    '_headers.value': m.headers.map((h) => h.value ?? ''),
  };
  return Object.entries(f)
    .filter(([k]) => has.has(k))
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
    .join(',');
}

function isMessageError(err: unknown): boolean {
  const type = (err as { type?: string }).type;
  return typeof type === 'string' && !NOT_A_MESSAGE_ERROR.has(type);
}

/** ClickHouse's Exception::message(): the text without `Code: N. DB::Exception:` and the trailing names. */
function exceptionMessage(err: Error): string {
  return err.message
    .replace(/^Code: \d+\. DB::Exception: /, '')
    .replace(/\s*\(version [^)]*\)\s*$/, '')
    .replace(/\.?\s*\([A-Z0-9_]+\)\s*$/, '')
    .trim();
}

function quoteString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Where the queue tables come from: the embedded ClickHouse service's api. */
export interface QueueTableSource {
  queueTables(): KafkaQueueSpec[];
  onQueueTable(cb: (spec: KafkaQueueSpec) => void): () => void;
}

/**
 * Runs one feeder per queue table the embedded ClickHouse knows (those created before and
 * those created from now on). The host calls this once the topic log and ClickHouse are up.
 */
export function startQueueFeeders(opts: { log: TopicLog; clickhouseUrl: string; tables: QueueTableSource; logger: Logger }): { feeders(): FeederStatus[]; close(): Promise<void> } {
  const feeders = new Map<string, QueueFeeder>();
  const add = (spec: KafkaQueueSpec) => {
    const key = `${spec.database ?? 'default'}.${spec.table}`;
    const old = feeders.get(key);
    if (old) void old.stop();
    const f = new QueueFeeder({ log: opts.log, clickhouseUrl: opts.clickhouseUrl, spec, logger: opts.logger });
    feeders.set(key, f);
    f.start();
    opts.logger.info(`feeding queue table ${key} from topic ${spec.topics.join(',')} (group ${spec.group})`);
  };
  opts.tables.queueTables().forEach(add);
  const off = opts.tables.onQueueTable(add);
  return {
    feeders: () => [...feeders.values()].map((f) => f.status()),
    async close() {
      off();
      await Promise.all([...feeders.values()].map((f) => f.stop()));
      feeders.clear();
    },
  };
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}
