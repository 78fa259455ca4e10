/**
 * A sink task in its own thread, as Kafka Connect runs every task on a thread of its own: the
 * task's fetch, conversion, transforms and put() (for the ClickHouse sink: JSON parsing and
 * building each insert body) run on a worker thread, so the source task and the sink task use
 * two cores instead of sharing one event loop.
 *
 * The thread runs the same SinkRunner as an inline sink (sink-thread-entry.ts). What it needs of
 * this side it asks for by message: the topic log's calls (a fetch comes back as the stored
 * lines, which the thread parses itself), and append notices; it reports task state, progress,
 * lineage and log lines back. The thread is started per task and ends when the task stops.
 */
import { Worker as Thread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../../common/log.js';
import { EmbeddedLog } from '../../log/embedded-log.js';
import type { TopicLog } from '../../log/types.js';
import type { ConnectorConfig, ConnectorPlugin, WorkerServices } from '../plugin.js';
import { CONNECTOR_PLUGINS } from '../plugins/index.js';
import { traceOf, type RunnerHooks, type TaskState } from './task-runner.js';

/** What the thread is started with. */
export interface SinkThreadInput {
  entry: string;
  connector: string;
  taskId: number;
  pluginClass: string;
  config: ConnectorConfig;
  connectorConfig: ConnectorConfig;
  taskCount: number;
  paused: boolean;
  dataDir: string;
  peers: Record<string, string | undefined>;
}

/** Topic log calls the thread may make. */
export const LOG_CALLS = ['fetch', 'fetchStored', 'offsets', 'listTopics', 'describeTopic', 'createTopic', 'produce', 'commitOffsets', 'committedOffsets', 'listGroups', 'waitForData'] as const;
export type LogCall = (typeof LOG_CALLS)[number];

export type ToThread =
  | { kind: 'result'; id: number; value: unknown }
  | { kind: 'error'; id: number; error: { name: string; message: string; code?: string; stack?: string } }
  | { kind: 'append'; topic: string; partition: number; end: number }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'stop' };

export type FromThread =
  | { kind: 'call'; id: number; method: LogCall; args: unknown[] }
  | { kind: 'state'; state: TaskState; trace?: string }
  | { kind: 'progress'; progress: Parameters<RunnerHooks['onProgress']>[0] }
  | { kind: 'topic'; topic: string }
  | { kind: 'deliver'; traces: Parameters<NonNullable<RunnerHooks['onDeliver']>>[0] }
  | { kind: 'log'; scope: string[]; level: 'debug' | 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> }
  | { kind: 'stopped' };

/**
 * A young generation large enough that a batch's parsing garbage dies young: three 64 MB
 * semi-spaces' worth, as the main thread gets from --max-semi-space-size=64 (bin/loupe.mjs).
 */
const YOUNG_GENERATION_MB = 192;
/** Kafka Connect's task.shutdown.graceful.timeout.ms, plus a margin for the thread to end. */
const STOP_TIMEOUT_MS = 6000;

/** Whether a plugin's tasks can run on a thread: the thread finds the same plugin by class. */
export function runsInThread(plugin: ConnectorPlugin): boolean {
  return plugin.type === 'sink' && CONNECTOR_PLUGINS.includes(plugin);
}

/** The thread's entry module: the TypeScript source when running from source, the built .js otherwise. */
function entryUrl(): string {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './sink-thread-entry.ts' : './sink-thread-entry.js', here).href;
}

/** The same surface as SinkRunner (start, pause, resume, stop, state, trace), with the task on a thread. */
export class ThreadSinkRunner {
  state: TaskState = 'UNASSIGNED';
  trace: string | undefined;
  private thread: Thread | undefined;
  private paused = false;
  private stopping = false;
  private ended: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;
  private readonly loggers = new Map<string, Logger>();

  constructor(
    readonly connector: string,
    readonly taskId: number,
    private readonly config: ConnectorConfig,
    private readonly log: TopicLog,
    private readonly services: WorkerServices,
    private readonly hooks: RunnerHooks,
    private readonly plugin: ConnectorPlugin,
    private readonly connectorConfig: ConnectorConfig,
    private readonly taskCount: number,
  ) {}

  start(paused: boolean): void {
    this.paused = paused;
    const input: SinkThreadInput = {
      entry: entryUrl(),
      connector: this.connector,
      taskId: this.taskId,
      pluginClass: this.plugin.class,
      config: this.config,
      connectorConfig: this.connectorConfig,
      taskCount: this.taskCount,
      paused,
      dataDir: this.services.dataDir,
      peers: { ...this.services.peers },
    };
    let thread: Thread;
    try {
      thread = new Thread(fileURLToPath(new URL('./sink-thread-boot.mjs', import.meta.url)), { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    } catch (err) {
      this.setState('FAILED', traceOf(err, 'Failed to start the sink task'));
      return;
    }
    this.thread = thread;
    this.unsubscribe = this.log.onAppend((topic, partition, end) => this.send({ kind: 'append', topic, partition, end }));
    this.ended = new Promise<void>((resolve) => {
      thread.on('message', (m: FromThread) => this.onMessage(m));
      thread.on('error', (err) => {
        if (!this.stopping) this.setState('FAILED', traceOf(err, 'Exiting WorkerSinkTask due to unrecoverable exception.'));
      });
      thread.on('exit', (code) => {
        this.unsubscribe?.();
        this.thread = undefined;
        if (!this.stopping && this.state !== 'FAILED') this.setState('FAILED', traceOf(new Error(`The sink task's thread ended unexpectedly (exit code ${code})`), 'Exiting WorkerSinkTask due to unrecoverable exception.'));
        resolve();
      });
    });
  }

  pause(): void {
    this.paused = true;
    if (this.state === 'RUNNING') this.setState('PAUSED');
    this.send({ kind: 'pause' });
  }

  resume(): void {
    this.paused = false;
    if (this.state === 'PAUSED') this.setState('RUNNING');
    this.send({ kind: 'resume' });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const thread = this.thread;
    if (!thread) return;
    this.send({ kind: 'stop' });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([this.ended.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), STOP_TIMEOUT_MS)))]);
    clearTimeout(timer);
    if (timedOut) await thread.terminate();
    await this.ended;
  }

  private send(m: ToThread): void {
    this.thread?.postMessage(m);
  }

  private setState(s: TaskState, trace?: string): void {
    this.state = s;
    this.trace = trace;
    this.hooks.onState(s, trace);
  }

  private onMessage(m: FromThread): void {
    switch (m.kind) {
      case 'call':
        void this.call(m.id, m.method, m.args);
        return;
      case 'state':
      {
        // A pause or resume sent meanwhile is what the thread will report next.
        const s = m.state === 'RUNNING' && this.paused ? 'PAUSED' : m.state === 'PAUSED' && !this.paused ? 'RUNNING' : m.state;
        if (s !== this.state || m.trace !== this.trace) this.setState(s, m.trace);
        return;
      }
      case 'progress':
        this.hooks.onProgress(m.progress);
        return;
      case 'topic':
        this.hooks.onTopic(m.topic);
        return;
      case 'deliver':
        this.hooks.onDeliver?.(m.traces);
        return;
      case 'log':
        this.loggerFor(m.scope)[m.level](m.msg, m.fields);
        return;
      case 'stopped':
        return;
    }
  }

  private loggerFor(scope: string[]): Logger {
    const key = scope.join('\u0000');
    let l = this.loggers.get(key);
    if (!l) {
      l = scope.reduce((acc, s) => acc.child(s), this.services.log);
      this.loggers.set(key, l);
    }
    return l;
  }

  /** Runs a topic log call for the thread and answers it. */
  private async call(id: number, method: LogCall, args: unknown[]): Promise<void> {
    try {
      if (!LOG_CALLS.includes(method)) throw new Error(`unknown topic log call ${method}`);
      let value: unknown;
      if (method === 'fetchStored') {
        // Only the embedded log keeps stored lines; another log answers with records.
        const [topic, partition, offset, opts] = args as Parameters<TopicLog['fetch']>;
        value = this.log instanceof EmbeddedLog ? { stored: await this.log.fetchStored(topic, partition, offset, opts) } : { records: await this.log.fetch(topic, partition, offset, opts) };
      } else {
        value = await (this.log[method] as (...a: unknown[]) => Promise<unknown>).apply(this.log, args);
      }
      this.send({ kind: 'result', id, value });
    } catch (err) {
      const e = err as Error & { code?: string };
      this.send({ kind: 'error', id, error: { name: e?.name ?? 'Error', message: e?.message ?? String(err), ...(typeof e?.code === 'string' ? { code: e.code } : {}), ...(e?.stack ? { stack: e.stack } : {}) } });
    }
  }
}
