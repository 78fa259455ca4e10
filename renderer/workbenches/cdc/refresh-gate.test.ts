import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshGate } from './refresh-gate.js';

describe('refreshGate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first request at once, folds a burst into one more run after the gap, and never overlaps', async () => {
    const starts: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const gate = refreshGate(async () => {
      starts.push(Date.now());
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
    }, 400);
    const t0 = Date.now();
    gate.request();
    expect(starts).toEqual([t0]);
    for (let i = 0; i < 100; i++) gate.request();
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts.map((t) => t - t0)).toEqual([0, 400]);
    expect(maxInFlight).toBe(1);
    gate.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(starts.length).toBe(3);
    gate.dispose();
  });

  it('a request after dispose does nothing', async () => {
    const run = vi.fn(async () => undefined);
    const gate = refreshGate(run, 100);
    gate.dispose();
    gate.request();
    await vi.advanceTimersByTimeAsync(500);
    expect(run).not.toHaveBeenCalled();
  });
});
