/**
 * Measures one engine on one data set, inside a worker thread: generate the data, build the
 * index, measure memory, then for each query kind warm up and run a time-boxed loop. Reports
 * each step to the main thread, which enforces the time limits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nowMs, retainedBytes, timeBoxedLoop } from '../bench-util.js';
import { accessLogDataset } from './access-logs.js';
import { createEngine } from './engines/index.js';
import type { Phase, WorkerInput, WorkerMessage } from './protocol.js';
import { spamDataset } from './spam-corpus.js';
import { QUERY_KINDS, type Dataset, type QueryKind } from './types.js';

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

function loadDataset(input: WorkerInput): Dataset {
  return input.dataset.kind === 'spam-assassin' ? spamDataset() : accessLogDataset({ docs: input.dataset.docs });
}

async function run(input: WorkerInput): Promise<void> {
  let phase: Phase = 'generate';
  const enter = (p: Phase, kind?: QueryKind) => {
    phase = p;
    post({ type: 'phase', phase: p, kind });
  };
  try {
    enter('generate');
    const generateStart = nowMs();
    const dataset = loadDataset(input);
    const tags = new Map(dataset.docs.map((d) => [d.id, d.tag]));
    const engine = await createEngine(input.engine, dataset.layout, (id) => tags.get(id));
    post({
      type: 'dataset',
      docs: dataset.docs.length,
      queriesPerKind: dataset.queries.terms1.length,
      generateMs: nowMs() - generateStart,
    });

    const before = retainedBytes();
    enter('build');
    const buildStart = nowMs();
    await engine.build(dataset.docs, (indexed) => post({ type: 'progress', indexed }));
    post({ type: 'built', ms: nowMs() - buildStart });

    enter('memory');
    // The data set is still reachable here (its queries are used below), so neither figure
    // counts it: the difference is what the engine holds.
    const after = retainedBytes();
    const ownBytes = engine.ownMemoryBytes ? await engine.ownMemoryBytes() : undefined;
    post({
      type: 'memory',
      memory: {
        heapDelta: after.heapUsed - before.heapUsed,
        externalDelta: after.external - before.external,
        totalDelta: after.total - before.total,
        gcForced: after.gcForced,
        ...(ownBytes === undefined ? {} : { ownBytes }),
      },
    });

    let lastAlive = nowMs();
    let completed = 0;
    const alive = () => {
      completed++;
      const t = nowMs();
      if (t - lastAlive >= input.aliveEveryMs) {
        lastAlive = t;
        post({ type: 'alive', completed });
      }
    };
    for (const kind of QUERY_KINDS) {
      if (nowMs() - buildStart > input.budgetMs) {
        post({ type: 'skipped', kind, reason: `time budget of ${Math.round(input.budgetMs / 1000)} s used up` });
        continue;
      }
      const queries = dataset.queries[kind];
      completed = 0;
      enter('warmup', kind);
      const sampleIds: string[][] = [];
      const warmupStart = nowMs();
      for (let i = 0; i < Math.min(input.warmupQueries, queries.length); i++) {
        sampleIds.push(await engine.search(queries[i]));
        alive();
        if (nowMs() - warmupStart >= input.warmupMaxMs) break;
      }
      enter('timed', kind);
      // Latency of each query on the first pass over the set, so that ratios between engines
      // can be taken over exactly the same queries when a slow engine answers only a few.
      const latencies: number[] = [];
      const loop = await timeBoxedLoop(
        async (i) => {
          if (i >= queries.length) return engine.search(queries[i % queries.length]);
          const t = nowMs();
          await engine.search(queries[i]);
          latencies.push(nowMs() - t);
        },
        input.loop,
        alive,
      );
      post({ type: 'kind', kind, sampleIds, loop, latencies });
    }
    post({ type: 'done' });
  } catch (e) {
    post({ type: 'error', phase, message: e instanceof Error ? e.message : String(e) });
  }
}

await run(workerData as WorkerInput);
