/**
 * Runs one engine's measurement in a worker thread and enforces the time limits: the build
 * must finish within buildLimitMs, no single query may take longer than queryLimitMs, and the
 * other phases get generous fixed limits. A worker past its limit is terminated and the result
 * says where it was stopped, so a pathological peer cannot hang the benchmark.
 */
import { Worker } from 'node:worker_threads';
import type { LoopResult } from '../bench-util.js';
import type { EngineName } from './engines/index.js';
import type { MemoryFigures, Phase, WorkerInput, WorkerMessage } from './protocol.js';
import type { QueryKind } from './types.js';
import { QUERY_KINDS } from './types.js';

export interface RunLimits {
  buildLimitMs: number;
  queryLimitMs: number;
  /** Worker heap limit (old generation), MB. */
  heapLimitMb: number;
}

export type KindResult =
  | { status: 'ok'; loop: LoopResult; sampleIds: string[][]; latencies: number[] }
  | { status: 'stopped'; limitMs: number; completedQueries: number }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string };

export interface EngineRun {
  engine: EngineName;
  /** ok: every phase ran; stopped: a time limit ended it; failed: an error (incl. out of memory). */
  status: 'ok' | 'stopped' | 'failed';
  reason?: string;
  docs?: number;
  generateMs?: number;
  buildMs?: number;
  /** Set when the build was stopped: how far it got. */
  buildStopped?: { limitMs: number; indexed: number };
  memory?: MemoryFigures;
  kinds: Partial<Record<QueryKind, KindResult>>;
  wallMs: number;
}

const GENERATE_LIMIT_MS = 240_000;
const YOUNG_GENERATION_MB = 192;
const MEMORY_LIMIT_MS = 180_000;

export function runEngine(
  input: WorkerInput,
  limits: RunLimits,
  onEvent: (engine: EngineName, message: WorkerMessage) => void = () => {},
): Promise<EngineRun> {
  const started = performance.now();
  const run: EngineRun = { engine: input.engine, status: 'ok', kinds: {}, wallMs: 0 };
  const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), {
    workerData: input,
    // The same for every engine: a young generation larger than V8's default (the JVM analogue
    // is sizing the heap for Lucene), so short-lived indexing garbage dies young instead of being
    // promoted and marked again by full collections; Loupe's 1M build: 11.7 s -> 10.8 s.
    resourceLimits: { maxOldGenerationSizeMb: limits.heapLimitMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    stdout: false,
    stderr: false,
  });

  let phase: Phase = 'generate';
  let kind: QueryKind | undefined;
  let indexed = 0;
  let completedInKind = 0;
  let timer: NodeJS.Timeout | undefined;
  let settled = false;

  return new Promise<EngineRun>((resolve) => {
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.wallMs = performance.now() - started;
      resolve(run);
    };
    const stop = (reason: string, limitMs: number) => {
      if (settled) return;
      run.status = 'stopped';
      run.reason = reason;
      if (phase === 'build') run.buildStopped = { limitMs, indexed };
      if ((phase === 'warmup' || phase === 'timed') && kind) {
        run.kinds[kind] = { status: 'stopped', limitMs, completedQueries: completedInKind };
        for (const k of QUERY_KINDS) run.kinds[k] ??= { status: 'skipped', reason: `not run: ${input.engine} was stopped` };
      }
      void worker.terminate().then(finish, finish);
    };
    const arm = (limitMs: number, reason: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => stop(reason, limitMs), limitMs);
    };
    arm(GENERATE_LIMIT_MS, `data generation took over ${GENERATE_LIMIT_MS / 1000} s`);

    worker.on('message', (m: WorkerMessage) => {
      onEvent(input.engine, m);
      switch (m.type) {
        case 'phase':
          phase = m.phase;
          if (m.phase === 'build') arm(limits.buildLimitMs, `build took over ${limits.buildLimitMs / 1000} s`);
          else if (m.phase === 'memory') arm(MEMORY_LIMIT_MS, `memory measurement took over ${MEMORY_LIMIT_MS / 1000} s`);
          else if (m.phase === 'warmup' || m.phase === 'timed') {
            if (m.phase === 'warmup') {
              kind = m.kind;
              completedInKind = 0;
            }
            arm(limits.queryLimitMs, `a query took over ${limits.queryLimitMs / 1000} s`);
          }
          break;
        case 'dataset':
          run.docs = m.docs;
          run.generateMs = m.generateMs;
          break;
        case 'progress':
          indexed = m.indexed;
          break;
        case 'built':
          run.buildMs = m.ms;
          break;
        case 'memory':
          run.memory = m.memory;
          break;
        case 'alive':
          completedInKind = m.completed;
          arm(limits.queryLimitMs, `a query took over ${limits.queryLimitMs / 1000} s`);
          break;
        case 'kind':
          run.kinds[m.kind] = { status: 'ok', loop: m.loop, sampleIds: m.sampleIds, latencies: m.latencies };
          break;
        case 'skipped':
          run.kinds[m.kind] = { status: 'skipped', reason: m.reason };
          break;
        case 'error':
          run.status = 'failed';
          run.reason = `${m.phase}: ${m.message}`;
          break;
        case 'done':
          void worker.terminate().then(finish, finish);
          break;
      }
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (settled) return;
      run.status = 'failed';
      run.reason =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `out of memory during ${phase} (heap limit ${limits.heapLimitMb} MB)`
          : `${phase}: ${e.message}`;
      if (phase === 'build') run.buildStopped = { limitMs: 0, indexed };
    });
    worker.on('exit', () => {
      if (!settled && run.status === 'ok' && !QUERY_KINDS.every((k) => run.kinds[k])) {
        run.status = 'failed';
        run.reason ??= `worker exited during ${phase}`;
      }
      finish();
    });
  });
}
