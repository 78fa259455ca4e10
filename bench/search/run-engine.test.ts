/**
 * Each engine is measured in its own worker; the main thread enforces the time limits, so a
 * peer that never finishes is stopped and reported instead of hanging the benchmark.
 */
import { describe, expect, it } from 'vitest';
import type { WorkerInput } from './protocol.js';
import { runEngine } from './run-engine.js';

const quick: Omit<WorkerInput, 'engine' | 'dataset'> = {
  warmupQueries: 5,
  warmupMaxMs: 1_000,
  loop: { minMs: 0, minIterations: 5, maxMs: 1_000 },
  budgetMs: 60_000,
  aliveEveryMs: 50,
};

describe('measuring an engine in a worker', () => {
  it('reports build time, memory and every query kind with per-query latencies and top-10 ids', async () => {
    const run = await runEngine(
      { ...quick, engine: 'MiniSearch', dataset: { kind: 'access-logs', docs: 2_000 } },
      { buildLimitMs: 60_000, queryLimitMs: 30_000, heapLimitMb: 1_024 },
    );
    expect(run.status).toBe('ok');
    expect(run.docs).toBe(2_000);
    expect(run.buildMs).toBeGreaterThan(0);
    expect(run.memory?.gcForced).toBe(typeof (globalThis as { gc?: unknown }).gc === 'function');
    for (const kind of ['terms1', 'terms2', 'terms3', 'filtered'] as const) {
      const k = run.kinds[kind];
      expect(k?.status).toBe('ok');
      if (k?.status !== 'ok') continue;
      expect(k.loop.iterations).toBeGreaterThanOrEqual(5);
      expect(k.latencies.length).toBeGreaterThanOrEqual(5);
      expect(k.sampleIds).toHaveLength(5);
      for (const ids of k.sampleIds) expect(ids.length).toBeLessThanOrEqual(10);
    }
  });

  it('stops a peer whose build runs past the limit and says how far it got', async () => {
    const run = await runEngine(
      { ...quick, engine: 'Lunr', dataset: { kind: 'access-logs', docs: 100_000 } },
      { buildLimitMs: 200, queryLimitMs: 30_000, heapLimitMb: 2_048 },
    );
    expect(run.status).toBe('stopped');
    expect(run.reason).toBe('build took over 0.2 s');
    expect(run.buildStopped?.limitMs).toBe(200);
    expect(run.buildStopped!.indexed).toBeLessThan(100_000);
    expect(run.buildMs).toBeUndefined();
    expect(run.kinds).toEqual({});
  });

  it('reports a failure, not a crash, when the engine runs out of worker heap', async () => {
    const run = await runEngine(
      { ...quick, engine: 'Lunr', dataset: { kind: 'access-logs', docs: 100_000 } },
      { buildLimitMs: 60_000, queryLimitMs: 30_000, heapLimitMb: 64 },
    );
    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(/out of memory during (generate|build) \(heap limit 64 MB\)/);
  });
});
