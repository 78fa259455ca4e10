/**
 * Runs one connector task the way Kafka Connect's WorkerSourceTask / WorkerSinkTask do: a loop
 * that polls (source) or fetches and delivers (sink), honours pause, records a Java-like trace
 * when it fails, and stops cleanly.
 */
import { groupFor, topicConfigOf, topicCreationGroups, type TopicCreationGroup } from './topic-creation.js';
import type { TopicLog, TopicPartition, TopicPartitionOffset, LogRecord, ProduceRecord } from '../../log/types.js';
import { converterFor, type Converter } from '../converters/index.js';
import {
  ConnectException,
  RetriableException,
  type ConnectorConfig,
  type SinkConnectorPlugin,
  type SinkRecord,
  type SinkTask,
  type SinkTaskContext,
  type SourceConnectorPlugin,
  type SourceRecord,
  type SourceTask,
  type WorkerServices,
} from '../plugin.js';
import { Slicer, turn } from '../slice.js';
import { transformChain } from '../transforms/index.js';
import { OFFSETS_TOPIC, type OffsetStore } from './offset-store.js';
import { LINEAGE_KEEP } from './recent.js';

/** How often a sink task asks the log which partitions of its topics exist, besides when an unassigned one gets records. */
const ASSIGNMENT_REFRESH_MS = 1000;

export type TaskState = 'UNASSIGNED' | 'RUNNING' | 'PAUSED' | 'FAILED' | 'RESTARTING';

export interface TaskProgress {
  connector: string;
  task: number;
  kind: 'source' | 'sink';
  /** Records written (source) or delivered (sink) in this step. */
  records: number;
  topics: string[];
  /** Sink: offsets committed; source: log positions written. */
  positions: TopicPartitionOffset[];
}

/** Where a source record went (for the pipeline view). */
export interface WriteTrace {
  connector: string;
  at: number;
  sourcePartition: Record<string, unknown>;
  sourceOffset: Record<string, unknown>;
  topic: string;
  partition: number;
  offset: number;
}

/** One put() of a sink task: the offset range per topic-partition (an insert block for the ClickHouse sink). */
export interface DeliveryTrace {
  connector: string;
  at: number;
  topic: string;
  partition: number;
  firstOffset: number;
  lastOffset: number;
  records: number;
}

export interface RunnerHooks {
  onState(state: TaskState, trace?: string): void;
  onProgress(p: TaskProgress): void;
  onTopic(topic: string): void;
  onWrite?(traces: WriteTrace[]): void;
  onDeliver?(traces: DeliveryTrace[]): void;
}

/** Java-style trace text: `<class>: <message>\n\tat …` with `Caused by:` for the cause. */
export function traceOf(err: unknown, wrapper?: string): string {
  const e = err as Error & { javaClass?: string };
  const cls = e?.javaClass ?? (e instanceof Error ? 'org.apache.kafka.connect.errors.ConnectException' : 'java.lang.RuntimeException');
  const frames = (e?.stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => '\t' + l.trim())
    .join('\n');
  const inner = `${cls}: ${e?.message ?? String(err)}${frames ? '\n' + frames : ''}`;
  return wrapper ? `org.apache.kafka.connect.errors.ConnectException: ${wrapper}\n\tat org.apache.kafka.connect.runtime.WorkerTask.doRun(WorkerTask.java)\nCaused by: ${inner}` : inner;
}

const sleep = (ms: number, signal: { stopped: boolean; wake?: () => void }) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.wake = undefined;
      resolve();
    }
    signal.wake = done;
  });

abstract class Runner {
  protected stopped = false;
  protected paused = false;
  protected signal: { stopped: boolean; wake?: () => void } = { stopped: false };
  private loop: Promise<void> | undefined;
  state: TaskState = 'UNASSIGNED';
  trace: string | undefined;
  /** The connector's key.converter, value.converter and transforms, as Kafka Connect's WorkerTask builds them. */
  protected readonly keyConverter: Converter;
  protected readonly valueConverter: Converter;
  protected readonly transform: ReturnType<typeof transformChain>['apply'];
  /** Why the transform chain cannot be built, or null. */
  private readonly chainError: string | null;

  constructor(
    readonly connector: string,
    readonly taskId: number,
    protected readonly config: ConnectorConfig,
    protected readonly log: TopicLog,
    protected readonly services: WorkerServices,
    protected readonly hooks: RunnerHooks,
    protected readonly connectorConfig: ConnectorConfig,
  ) {
    this.keyConverter = converterFor(connectorConfig, true);
    this.valueConverter = converterFor(connectorConfig, false);
    ({ apply: this.transform, error: this.chainError } = transformChain(connectorConfig));
  }

  start(paused: boolean): void {
    this.paused = paused;
    // Worker.buildWorkerTask configures the transforms before the task exists: a chain that
    // cannot be built fails the task at start, wrapped in a ConnectException as transformationStages does.
    if (this.chainError !== null) {
      this.fail(new ConnectException(this.chainError));
      return;
    }
    this.loop = this.run();
  }

  pause(): void {
    this.paused = true;
    if (this.state === 'RUNNING') this.setState('PAUSED');
  }

  resume(): void {
    this.paused = false;
    if (this.state === 'PAUSED') this.setState('RUNNING');
    this.signal.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.signal.stopped = true;
    this.signal.wake?.();
    await this.interrupt();
    // Kafka Connect waits task.shutdown.graceful.timeout.ms (5 s) for a task to finish.
    await Promise.race([this.loop, new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  protected setState(s: TaskState, trace?: string): void {
    this.state = s;
    this.trace = trace;
    this.hooks.onState(s, trace);
  }

  protected fail(err: unknown, wrapper?: string): void {
    this.services.log.error('task failed', { connector: this.connector, task: this.taskId, error: (err as Error)?.message ?? String(err) });
    this.setState('FAILED', traceOf(err, wrapper));
  }

  protected abstract run(): Promise<void>;
  protected abstract interrupt(): Promise<void>;
}

// ------------------------------------------------------------------------------------ source

export class SourceRunner extends Runner {
  private task: SourceTask | undefined;
  private knownTopics = new Set<string>();
  /** topic.creation groups, worked out at the first new topic; null when the connector creates none. */
  private topicGroups: TopicCreationGroup[] | null | undefined;

  constructor(
    connector: string,
    taskId: number,
    config: ConnectorConfig,
    log: TopicLog,
    services: WorkerServices,
    hooks: RunnerHooks,
    private readonly plugin: SourceConnectorPlugin,
    private readonly offsets: OffsetStore,
    connectorConfig: ConnectorConfig,
  ) {
    super(connector, taskId, config, log, services, hooks, connectorConfig);
  }

  protected async interrupt(): Promise<void> {
    await this.task?.stop().catch(() => {});
  }

  protected async run(): Promise<void> {
    try {
      this.task = this.plugin.createTask();
      await this.task.start(this.config, {
        services: this.services,
        connector: this.connector,
        taskId: this.taskId,
        offset: async (p) => this.offsets.get(this.connector, p),
      });
    } catch (err) {
      this.fail(err, 'Failed to start the source task');
      return;
    }
    if (this.stopped) return;
    this.setState(this.paused ? 'PAUSED' : 'RUNNING');
    while (!this.stopped) {
      if (this.paused) {
        await sleep(1000, this.signal);
        continue;
      }
      try {
        const records = await this.task.poll();
        if (this.stopped) break; // a stopped task's last poll is not written (Kafka drops it too)
        if (records.length) {
          await this.write(records);
          // A task with a backlog answers every poll at once: without a turn of the event loop
          // here, sinks, REST requests and timers would wait until the whole backlog is written.
          await turn();
        }
        await this.task.commit?.();
      } catch (err) {
        this.fail(err, 'Unrecoverable exception from the source task');
        await this.task.stop().catch(() => {});
        return;
      }
    }
    await this.task.stop().catch(() => {});
  }

  /** Transforms, converts and writes a poll's records together with their offsets, atomically. */
  private async write(records: SourceRecord[]): Promise<void> {
    const byTopic = new Map<string, ProduceRecord[]>();
    const origins = new Map<string, SourceRecord[]>();
    const lastOf = new Map<string, SourceRecord>();
    // Tasks reuse one partition object, so its JSON key is computed once per object, not per record.
    const keys = new Map<Record<string, unknown>, string>();
    const slicer = new Slicer();
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      if (slicer.due(i)) {
        await slicer.turn();
        if (this.stopped) return; // like a stopped task's last poll: not written
      }
      let pk = keys.get(r.sourcePartition);
      if (pk === undefined) keys.set(r.sourcePartition, (pk = JSON.stringify(r.sourcePartition)));
      lastOf.set(pk, r);
      const t = this.transform(r) as SourceRecord | null;
      if (!t) continue;
      let list = byTopic.get(t.topic);
      if (!list) {
        byTopic.set(t.topic, (list = []));
        origins.set(t.topic, []);
      }
      origins.get(t.topic)!.push(r);
      const out: ProduceRecord = {
        key: this.keyConverter.fromConnectData(t.topic, t.keySchema, t.key),
        value: this.valueConverter.fromConnectData(t.topic, t.valueSchema, t.value),
        timestamp: t.timestamp,
      };
      if (t.headers?.length) out.headers = t.headers;
      if (t.kafkaPartition !== undefined) out.partition = t.kafkaPartition;
      list.push(out);
    }
    for (const topic of byTopic.keys()) await this.ensureTopic(topic);
    const offsets = [...lastOf.values()].map((r) => ({ partition: r.sourcePartition, offset: r.sourceOffset }));
    const batches = [...byTopic.entries()].map(([topic, recs]) => ({ topic, records: recs }));
    const results = await this.log.produceAtomic([...batches, { topic: OFFSETS_TOPIC, records: this.offsets.records(this.connector, offsets) }]);
    this.offsets.applied(this.connector, offsets);
    const positions: TopicPartitionOffset[] = [];
    const traces: WriteTrace[] = [];
    const at = this.services.now();
    const written = batches.reduce((n, b) => n + b.records.length, 0);
    // traces only of the records the lineage keeps: a backlog's poll writes thousands
    let skip = Math.max(0, written - LINEAGE_KEEP);
    batches.forEach((b, i) => {
      const res = results[i]!;
      if (res.length) positions.push(res[res.length - 1]!);
      if (!this.hooks.onWrite) return;
      const src = origins.get(b.topic)!;
      const from = Math.min(skip, res.length);
      skip -= from;
      for (let j = from; j < res.length; j++) {
        const p = res[j]!;
        traces.push({ connector: this.connector, at, sourcePartition: src[j]!.sourcePartition, sourceOffset: src[j]!.sourceOffset, topic: p.topic, partition: p.partition, offset: p.offset });
      }
    });
    this.hooks.onWrite?.(traces);
    this.hooks.onProgress({ connector: this.connector, task: this.taskId, kind: 'source', records: written, topics: [...byTopic.keys()], positions });
  }

  /** topic.creation.*: a topic the connector writes to first is created with its group's settings. */
  private async ensureTopic(topic: string): Promise<void> {
    if (this.knownTopics.has(topic)) return;
    this.topicGroups ??= topicCreationGroups(this.connectorConfig);
    if (this.topicGroups) await this.log.createTopic(topic, topicConfigOf(groupFor(this.topicGroups, topic)));
    this.knownTopics.add(topic);
    this.hooks.onTopic(topic);
  }
}

// -------------------------------------------------------------------------------------- sink

/**
 * Calls `fn(first, end)` for each run of consecutive records of one topic-partition: a fetch holds
 * long runs, and per-record keys (a string built and hashed for each of 5,000 records, three times
 * a batch) cost the sink a few milliseconds between its requests.
 */
export function forEachRun(records: readonly { topic: string; partition: number }[], fn: (first: number, end: number) => void): void {
  for (let first = 0; first < records.length; ) {
    const { topic, partition } = records[first]!;
    let end = first + 1;
    while (end < records.length && records[end]!.partition === partition && records[end]!.topic === topic) end++;
    fn(first, end);
    first = end;
  }
}

/** The next offset to fetch per `topic:partition` after `fetched` (each partition's records are in order). */
function nextOffsets(fetched: readonly LogRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  forEachRun(fetched, (_, end) => {
    const r = fetched[end - 1]!;
    out.set(`${r.topic}:${r.partition}`, r.offset + 1);
  });
  return out;
}

/** A fetched batch, converted and transformed, and the positions it was fetched from. */
interface PreparedBatch {
  from: Map<string, number>;
  fetched: LogRecord[];
  records: SinkRecord[];
  /** Dead letters of records that failed conversion (errors.tolerance=all). */
  dlq: ProduceRecord[];
  /** Positions retention moved (the log start was past them). */
  moved: [string, number][];
  /** Appends seen when the fetch began. */
  appends: number;
  error?: unknown;
}

export class SinkRunner extends Runner {
  private task: SinkTask | undefined;
  private assignment: TopicPartition[] = [];
  private positions = new Map<string, number>();
  private rewinds: TopicPartitionOffset[] = [];
  private commitRequested = false;
  private readonly group: string;
  private readonly maxPollRecords: number;
  private readonly maxPartitionFetchBytes: number;
  private readonly resetToLatest: boolean;
  private readonly tolerateAll: boolean;
  private readonly dlqTopic: string;
  private readonly dlqHeaders: boolean;
  private unsubscribe: (() => void) | undefined;
  /** Appends to assigned topics so far. */
  private appends = 0;
  /**
   * The assignment is worked out again every ASSIGNMENT_REFRESH_MS, or before the next batch when
   * a partition of a subscribed topic it lacks gets records (a topic or partition created since):
   * asking the log for every subscribed topic before every batch cost the sink a round trip to
   * the log's thread per block.
   */
  private assignmentAt = -Infinity;
  private assignmentStale = true;
  /** `topics` or `topics.regex`, read once (a bad regex throws where it is first used, failing the task). */
  private subscription: { listed: string[]; regex: RegExp | null } | undefined;
  /** The offset commit after the latest put, which runs while the next batch is put; its failure fails the task at the next batch. */
  private committing: Promise<void> = Promise.resolve();
  private commitQueued = false;
  private commitError: unknown;
  private readonly progressToReport: Parameters<RunnerHooks['onProgress']>[0][] = [];

  constructor(
    connector: string,
    taskId: number,
    config: ConnectorConfig,
    log: TopicLog,
    services: WorkerServices,
    hooks: RunnerHooks,
    private readonly plugin: SinkConnectorPlugin,
    connectorConfig: ConnectorConfig,
    private readonly taskCount: number,
  ) {
    super(connector, taskId, config, log, services, hooks, connectorConfig);
    this.group = connectorConfig['consumer.override.group.id'] ?? `connect-${connector}`;
    this.maxPollRecords = Number(connectorConfig['consumer.override.max.poll.records'] ?? 500);
    this.maxPartitionFetchBytes = Number(connectorConfig['consumer.override.max.partition.fetch.bytes'] ?? 1048576);
    // Kafka Connect's sink consumers default to auto.offset.reset=earliest.
    this.resetToLatest = (connectorConfig['consumer.override.auto.offset.reset'] ?? 'earliest') === 'latest';
    this.tolerateAll = (connectorConfig['errors.tolerance'] ?? 'none').toLowerCase() === 'all';
    this.dlqTopic = (connectorConfig['errors.deadletterqueue.topic.name'] ?? '').trim();
    this.dlqHeaders = (connectorConfig['errors.deadletterqueue.context.headers.enable'] ?? 'false').toLowerCase() === 'true';
  }

  protected async interrupt(): Promise<void> {
    /* the loop notices `stopped` within one wait */
  }

  protected async run(): Promise<void> {
    const context: SinkTaskContext = {
      services: this.services,
      connector: this.connector,
      taskId: this.taskId,
      assignment: () => [...this.assignment],
      offset: (offsets) => {
        this.rewinds.push(...offsets);
      },
      committedOffsets: () => this.log.committedOffsets(this.group),
      requestCommit: () => {
        this.commitRequested = true;
      },
      topicLog: this.log,
    };
    try {
      this.task = this.plugin.createTask();
      await this.task.start(this.config, context);
    } catch (err) {
      this.fail(err, 'Failed to start the sink task');
      return;
    }
    this.unsubscribe = this.log.onAppend((topic, partition) => {
      const assigned = this.assignment.some((tp) => tp.topic === topic);
      if (this.subscribes(topic) && !this.assignment.some((tp) => tp.topic === topic && tp.partition === partition)) this.assignmentStale = true;
      if (assigned || !this.assignment.length) {
        this.appends++;
        this.signal.wake?.();
      }
    });
    if (!this.stopped) this.setState(this.paused ? 'PAUSED' : 'RUNNING');
    let ahead: Promise<PreparedBatch | undefined> | undefined;
    try {
      while (!this.stopped) {
        if (this.paused) {
          ahead = undefined;
          await sleep(1000, this.signal);
          continue;
        }
        if (this.commitError !== undefined) throw this.commitError;
        if (this.assignmentStale || performance.now() - this.assignmentAt >= ASSIGNMENT_REFRESH_MS) {
          this.assignmentStale = false;
          this.assignmentAt = performance.now();
          await this.refreshAssignment();
        }
        this.applyRewinds();
        // The batch prepared while the previous put ran, if it starts where the consumer is now
        // (a rewind, a new assignment or a pause makes it stale: it is prepared again).
        let batch = ahead ? await ahead : undefined;
        ahead = undefined;
        // An empty prepared batch is fetched again: records appended since then would not wake the idle wait below.
        // So is one with room for records appended since it was fetched: they go now, not one put later.
        if (!batch || !batch.fetched.length || !this.startsHere(batch) || (batch.appends !== this.appends && batch.fetched.length < this.maxPollRecords)) batch = await this.prepare(this.positionsNow());
        for (const [k, o] of batch.moved) this.positions.set(k, o); // retention moved the log start
        if (batch.error !== undefined) throw batch.error;
        const { fetched, records } = batch;
        if (!fetched.length) {
          await this.committing;
          if (this.commitRequested) await this.commit();
          await sleep(500, this.signal);
          continue;
        }
        if (batch.dlq.length) await this.log.produce(this.dlqTopic, batch.dlq);
        const after = nextOffsets(fetched);
        const next = this.positionsNow();
        for (const [k, o] of after) next.set(k, o);
        const delivered = this.deliver(records);
        // Fetch and convert the next batch while this one is being inserted (after the put has
        // sent its first request): conversion is pure, so nothing of it shows unless it is used.
        ahead = turn().then(() => (this.stopped || this.paused ? undefined : this.prepare(next)));
        await delivered;
        for (const [k, o] of after) this.positions.set(k, o);
        this.traceDelivery(fetched);
        // Committed while the next batch is put (Kafka Connect commits asynchronously too): one
        // commit at a time, in order, each of what puts have finished (preCommit says how far).
        // Batches put while one commit runs share the next (it commits where the puts are then).
        this.progressToReport.push({ connector: this.connector, task: this.taskId, kind: 'sink', records: records.length, topics: [...new Set(fetched.map((r) => r.topic))], positions: this.currentOffsets() });
        if (!this.commitQueued) {
          this.commitQueued = true;
          this.committing = this.committing.then(async () => {
            this.commitQueued = false;
            const progress = this.progressToReport.splice(0);
            if (this.commitError !== undefined) return;
            try {
              await this.commit();
              for (const p of progress) this.hooks.onProgress(p);
            } catch (err) {
              this.commitError = err;
              this.signal.wake?.();
            }
          });
        }
      }
    } catch (err) {
      this.fail(err, 'Exiting WorkerSinkTask due to unrecoverable exception.');
    } finally {
      await ahead;
      await this.committing;
      this.unsubscribe?.();
      try {
        if (this.state !== 'FAILED') await this.commit();
        await this.task.close?.(this.assignment);
      } catch {
        /* closing after a failure */
      }
      await this.task.stop().catch(() => {});
    }
  }

  /** put() with Kafka Connect's redelivery on RetriableException. */
  private async deliver(records: SinkRecord[]): Promise<void> {
    let backoff = 250;
    for (;;) {
      try {
        await this.task!.put(records);
        return;
      } catch (err) {
        if (err instanceof RetriableException && !this.stopped) {
          this.services.log.warn('retriable failure in put; redelivering', { connector: this.connector, error: err.message });
          await sleep(backoff, this.signal);
          backoff = Math.min(backoff * 2, 10_000);
          continue;
        }
        throw err;
      }
    }
  }

  private traceDelivery(fetched: LogRecord[]): void {
    if (!this.hooks.onDeliver) return;
    const ranges = new Map<string, DeliveryTrace>();
    const at = this.services.now();
    forEachRun(fetched, (first, end) => {
      const r = fetched[first]!;
      const k = `${r.topic}:${r.partition}`;
      const cur = ranges.get(k);
      const last = fetched[end - 1]!.offset;
      if (!cur) ranges.set(k, { connector: this.connector, at, topic: r.topic, partition: r.partition, firstOffset: r.offset, lastOffset: last, records: end - first });
      else {
        cur.lastOffset = last;
        cur.records += end - first;
      }
    });
    this.hooks.onDeliver([...ranges.values()]);
  }

  private toSinkRecord(r: LogRecord, dlq: ProduceRecord[]): SinkRecord | null {
    let stage = 'KEY_CONVERTER';
    try {
      const k = this.keyConverter.toConnectData(r.topic, r.key);
      stage = 'VALUE_CONVERTER';
      const v = this.valueConverter.toConnectData(r.topic, r.value);
      stage = 'TRANSFORMATION';
      const rec: SinkRecord = {
        topic: r.topic,
        kafkaPartition: r.partition,
        kafkaOffset: r.offset,
        originalTopic: r.topic,
        keySchema: k.schema,
        key: k.value,
        valueSchema: v.schema,
        value: v.value,
        timestamp: r.timestamp,
        timestampType: 'CreateTime',
        headers: r.headers,
        valueJson: v.json === undefined ? undefined : { value: v.value, text: v.json },
      };
      return this.transform(rec) as SinkRecord | null;
    } catch (err) {
      if (this.tolerateAll) {
        if (this.dlqTopic) dlq.push(this.deadLetter(r, stage, err));
        this.services.log.warn('skipping a record that failed conversion or transformation (errors.tolerance=all)', { topic: r.topic, partition: r.partition, offset: r.offset, error: (err as Error).message });
        return null;
      }
      throw Object.assign(new ConnectException('Tolerance exceeded in error handler'), { stack: `ConnectException: Tolerance exceeded in error handler\n    at WorkerSinkTask.convertAndTransformRecord\nCaused by: ${(err as Error & { javaClass?: string }).javaClass ?? 'org.apache.kafka.connect.errors.DataException'}: ${(err as Error).message}` });
    }
  }

  /** The original record for the dead letter queue, with Kafka Connect's __connect.errors.* headers when enabled. */
  private deadLetter(r: LogRecord, stage: string, err: unknown): ProduceRecord {
    const e = err as Error & { javaClass?: string };
    const headers = [...r.headers];
    if (this.dlqHeaders) {
      const h = (key: string, value: string) => headers.push({ key: `__connect.errors.${key}`, value });
      h('topic', r.topic);
      h('partition', String(r.partition));
      h('offset', String(r.offset));
      h('connector.name', this.connector);
      h('task.id', String(this.taskId));
      h('stage', stage);
      h('class.name', stage === 'TRANSFORMATION' ? 'transformation' : (stage === 'KEY_CONVERTER' ? this.keyConverter : this.valueConverter).class);
      h('exception.class.name', e?.javaClass ?? 'org.apache.kafka.connect.errors.DataException');
      h('exception.message', e?.message ?? String(err));
      h('exception.stacktrace', traceOf(err));
    }
    return { key: r.key, value: r.value, headers, timestamp: r.timestamp };
  }

  private currentOffsets(): TopicPartitionOffset[] {
    return this.assignment.map((tp) => ({ ...tp, offset: this.positions.get(`${tp.topic}:${tp.partition}`) ?? 0 }));
  }

  private async commit(): Promise<void> {
    this.commitRequested = false;
    if (!this.task || !this.assignment.length) return;
    const current = this.currentOffsets();
    const safe = this.task.preCommit ? await this.task.preCommit(current) : current;
    if (safe.length) await this.log.commitOffsets(this.group, safe);
  }

  private applyRewinds(): void {
    for (const r of this.rewinds.splice(0)) this.positions.set(`${r.topic}:${r.partition}`, r.offset);
  }

  /** The consumer's position per assigned topic-partition. */
  private positionsNow(): Map<string, number> {
    return new Map(this.assignment.map((tp) => [`${tp.topic}:${tp.partition}`, this.positions.get(`${tp.topic}:${tp.partition}`) ?? 0]));
  }

  private startsHere(batch: PreparedBatch): boolean {
    const now = this.positionsNow();
    if (now.size !== batch.from.size) return false;
    for (const [k, o] of now) if (batch.from.get(k) !== o) return false;
    return true;
  }

  /**
   * Fetches from `from` and converts and transforms what it got (errors kept for when the batch
   * is used). Gives the event loop a turn every few milliseconds of conversion.
   */
  private async prepare(from: Map<string, number>): Promise<PreparedBatch> {
    const batch: PreparedBatch = { from, fetched: [], records: [], dlq: [], moved: [], appends: this.appends };
    try {
      batch.fetched = await this.fetchBatch(from, batch.moved);
      const slicer = new Slicer();
      for (let i = 0; i < batch.fetched.length; i++) {
        if (slicer.due(i)) await slicer.turn();
        const rec = this.toSinkRecord(batch.fetched[i]!, batch.dlq);
        if (rec) batch.records.push(rec);
      }
      try {
        this.task?.prepare?.(batch.records);
      } catch {
        /* work done ahead only: put() meets the same failure in its turn */
      }
    } catch (err) {
      batch.error = err;
    }
    return batch;
  }

  private async fetchBatch(from: Map<string, number>, moved: [string, number][]): Promise<LogRecord[]> {
    const out: LogRecord[] = [];
    for (const tp of this.assignment) {
      if (out.length >= this.maxPollRecords) break;
      const key = `${tp.topic}:${tp.partition}`;
      const pos = from.get(key) ?? 0;
      const recs = await this.log.fetch(tp.topic, tp.partition, pos, { maxRecords: this.maxPollRecords - out.length, maxBytes: this.maxPartitionFetchBytes });
      if (recs.length && recs[0]!.offset > pos) moved.push([key, recs[0]!.offset]); // retention moved the log start
      out.push(...recs);
    }
    return out;
  }

  private subscribed(): { listed: string[]; regex: RegExp | null } {
    const c = this.connectorConfig;
    return (this.subscription ??= {
      listed: (c.topics ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      regex: c['topics.regex'] ? new RegExp(`^(?:${c['topics.regex']})$`) : null,
    });
  }

  /** Whether the connector subscribes to `topic` (`topics` or `topics.regex`). */
  private subscribes(topic: string): boolean {
    const { listed, regex } = this.subscribed();
    return regex ? regex.test(topic) : listed.includes(topic);
  }

  /** Topic-partitions of `topics` / `topics.regex`, spread over the tasks round-robin. */
  private async refreshAssignment(): Promise<void> {
    const { listed, regex } = this.subscribed();
    const all = regex ? (await this.log.listTopics()).filter((t) => regex.test(t)) : listed;
    const tps: TopicPartition[] = [];
    for (const topic of [...all].sort()) {
      const d = await this.log.describeTopic(topic);
      if (!d) continue;
      for (const p of d.partitions) tps.push({ topic, partition: p.partition });
    }
    const mine = tps.filter((_, i) => i % this.taskCount === this.taskId);
    const key = (tp: TopicPartition) => `${tp.topic}:${tp.partition}`;
    const before = new Set(this.assignment.map(key));
    const added = mine.filter((tp) => !before.has(key(tp)));
    if (!added.length && mine.length === this.assignment.length) return;
    const now = new Set(mine.map(key));
    const revoked = this.assignment.filter((tp) => !now.has(key(tp)));
    if (revoked.length) await this.task!.close?.(revoked);
    this.assignment = mine;
    const committed = new Map((await this.log.committedOffsets(this.group)).map((o) => [key(o), o.offset]));
    for (const tp of added) {
      const k = key(tp);
      const c0 = committed.get(k);
      if (c0 !== undefined) this.positions.set(k, c0);
      else {
        const { begin, end } = await this.log.offsets(tp.topic, tp.partition);
        this.positions.set(k, this.resetToLatest ? end : begin);
      }
      this.hooks.onTopic(tp.topic);
    }
    if (added.length) await this.task!.open?.(added);
  }
}
