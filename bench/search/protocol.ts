/**
 * Messages between the benchmark's main thread and the worker that measures one engine. Each
 * engine runs in its own worker thread (same process, own heap), so its memory is measured
 * alone and a peer that runs past its time budget can be terminated mid-call.
 */
import type { LoopLimits, LoopResult } from '../bench-util.js';
import type { EngineName } from './engines/index.js';
import type { QueryKind } from './types.js';

export type DatasetSpec = { kind: 'spam-assassin' } | { kind: 'access-logs'; docs: number };

export interface WorkerInput {
  engine: EngineName;
  dataset: DatasetSpec;
  /** Queries answered before timing starts; their top-10 ids feed the overlap column. */
  warmupQueries: number;
  warmupMaxMs: number;
  loop: LoopLimits;
  /** Once this much time has passed since the build began, remaining query kinds are skipped. */
  budgetMs: number;
  /** How often the worker reports that queries still complete (well under the query limit). */
  aliveEveryMs: number;
}

export type Phase = 'generate' | 'build' | 'memory' | 'warmup' | 'timed';

export interface MemoryFigures {
  /** Growth of JS heap + external memory over the build, after forced GC (data set retained). */
  heapDelta: number;
  externalDelta: number;
  totalDelta: number;
  gcForced: boolean;
  /** The engine's own figure, when it reports one. */
  ownBytes?: number;
}

export type WorkerMessage =
  | { type: 'phase'; phase: Phase; kind?: QueryKind }
  | { type: 'dataset'; docs: number; queriesPerKind: number; generateMs: number }
  | { type: 'progress'; indexed: number }
  | { type: 'built'; ms: number }
  | { type: 'memory'; memory: MemoryFigures }
  /** Queries completed in the current kind (sent at most every 250 ms). */
  | { type: 'alive'; completed: number }
  /** latencies[i]: ms taken by query i of the set on the timed loop's first pass. */
  | { type: 'kind'; kind: QueryKind; sampleIds: string[][]; loop: LoopResult; latencies: number[] }
  | { type: 'skipped'; kind: QueryKind; reason: string }
  | { type: 'done' }
  | { type: 'error'; phase: Phase; message: string };
