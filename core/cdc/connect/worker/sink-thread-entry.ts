/**
 * The sink task's thread (see sink-thread.ts): the same SinkRunner as an inline sink task, with
 * the topic log, the logger and the runner's hooks carried by messages to the thread that owns
 * them. A fetch comes back as the stored lines of the embedded log, parsed here.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { Logger } from '../../../common/log.js';
import { parseExactJson, stringifyExactJson } from '../../../common/exact-json.js';
import { parseStoredLine } from '../../log/embedded-log.js';
import { LogError, type AppendListener, type LogRecord, type TopicLog } from '../../log/types.js';
import type { SinkConnectorPlugin, WorkerServices } from '../plugin.js';
import { CONNECTOR_PLUGINS } from '../plugins/index.js';
import type { FromThread, LogCall, SinkThreadInput, ToThread } from './sink-thread.js';
import { Slicer } from '../slice.js';
import { SinkRunner } from './task-runner.js';

const input = workerData as SinkThreadInput;
const port = parentPort!;
const send = (m: FromThread) => port.postMessage(m);

let nextId = 1;
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
function call<T>(method: LogCall, ...args: unknown[]): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
    send({ kind: 'call', id, method, args });
  });
}

function remoteError(e: { name: string; message: string; code?: string; stack?: string }): Error {
  const err = e.name === 'LogError' && e.code ? new LogError(e.message, e.code as LogError['code']) : Object.assign(new Error(e.message), { name: e.name, ...(e.code ? { code: e.code } : {}) });
  if (e.stack) err.stack = e.stack;
  return err;
}

const appendListeners = new Set<AppendListener>();

/** The owner's topic log, call by call. */
const topicLog: TopicLog = {
  kind: 'embedded',
  createTopic: (name, config) => call('createTopic', name, config),
  listTopics: (opts) => call('listTopics', opts),
  describeTopic: (name) => call('describeTopic', name),
  deleteTopic: () => Promise.reject(new Error('a sink task may not delete topics')),
  produce: (topic, records) => call('produce', topic, records),
  produceAtomic: () => Promise.reject(new Error('a sink task does not write transactions')),
  async fetch(topic, partition, offset, opts) {
    const got = await call<{ stored?: Uint8Array[]; records?: LogRecord[] }>('fetchStored', topic, partition, offset, opts);
    if (got.records) return got.records;
    const out: LogRecord[] = [];
    // Parsed a slice at a time, as the runner converts: a fetch runs while the previous put
    // waits on ClickHouse, and the put's next request must not wait until thousands of lines are parsed.
    const slicer = new Slicer();
    for (const b of got.stored ?? []) {
      const lines = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (slicer.due(i)) await slicer.turn();
        if (lines[i]) out.push(parseStoredLine(topic, partition, lines[i]!));
      }
    }
    return out;
  },
  offsets: (topic, partition) => call('offsets', topic, partition),
  waitForData: (topic, partition, offset, timeoutMs) => call('waitForData', topic, partition, offset, timeoutMs),
  onAppend(listener) {
    appendListeners.add(listener);
    return () => appendListeners.delete(listener);
  },
  commitOffsets: (group, offsets) => call('commitOffsets', group, offsets),
  committedOffsets: (group) => call('committedOffsets', group),
  listGroups: () => call('listGroups'),
  deleteGroup: () => Promise.reject(new Error('a sink task may not delete consumer groups')),
  enforceRetention: async () => {},
  close: async () => {},
};

function logger(scope: string[]): Logger {
  const line = (level: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    try {
      send({ kind: 'log', scope, level, msg, ...(fields ? { fields } : {}) });
    } catch {
      // fields that cannot cross threads (a function, say) go as JSON
      send({ kind: 'log', scope, level, msg, fields: parseExactJson(stringifyExactJson(fields)) as Record<string, unknown> });
    }
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: (s) => logger([...scope, s]) };
}

const plugin = CONNECTOR_PLUGINS.find((p) => p.class === input.pluginClass && p.type === 'sink') as SinkConnectorPlugin | undefined;
if (!plugin) throw new Error(`no sink plugin ${input.pluginClass} in the task thread`);

const services: WorkerServices = {
  log: logger([]),
  get dataDir() {
    fs.mkdirSync(input.dataDir, { recursive: true });
    return input.dataDir;
  },
  peers: input.peers,
  now: () => Date.now(),
  resource: <T>(n: string) => (n === 'topicLog' ? (topicLog as T) : undefined),
};

const runner = new SinkRunner(
  input.connector,
  input.taskId,
  input.config,
  topicLog,
  services,
  {
    onState: (state, trace) => send({ kind: 'state', state, ...(trace ? { trace } : {}) }),
    onProgress: (progress) => send({ kind: 'progress', progress }),
    onTopic: (topic) => send({ kind: 'topic', topic }),
    onDeliver: (traces) => send({ kind: 'deliver', traces }),
  },
  plugin,
  input.connectorConfig,
  input.taskCount,
);

port.on('message', (m: ToThread) => {
  switch (m.kind) {
    case 'result':
    case 'error': {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.kind === 'result') w?.resolve(m.value);
      else w?.reject(remoteError(m.error));
      return;
    }
    case 'append':
      for (const l of appendListeners) l(m.topic, m.partition, m.end);
      return;
    case 'pause':
      runner.pause();
      return;
    case 'resume':
      runner.resume();
      return;
    case 'stop':
      void runner.stop().then(() => {
        send({ kind: 'stopped' });
        port.close();
        // a client socket or timer the task left behind does not keep the thread
        setTimeout(() => process.exit(0), 1000).unref();
      });
      return;
  }
});

runner.start(input.paused);
