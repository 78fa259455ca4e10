/**
 * Helpers every benchmark shares: a seeded PRNG, timing, time-boxed loops, memory after GC,
 * and plain-text tables. Nothing here knows what is being measured.
 */

/** mulberry32: a tiny 32-bit PRNG, good enough for repeatable test data (not for crypto). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function nowMs(): number {
  return performance.now();
}

/** Runs `fn` once and returns its result with the wall time in milliseconds. */
export async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const start = nowMs();
  const value = await fn();
  return { value, ms: nowMs() - start };
}

export interface LoopLimits {
  /** Keep going at least this long (unless maxMs is reached first). */
  minMs: number;
  /** Stop once this many iterations are done and minMs has passed. */
  minIterations: number;
  /** Hard stop: never start another iteration after this long. */
  maxMs: number;
}

export interface LoopResult {
  iterations: number;
  ms: number;
  /** Iterations per second. */
  perSecond: number;
}

/**
 * Calls `fn(i)` repeatedly (i counts up from 0) until both minMs and minIterations are met, or
 * maxMs has passed. At least one iteration always runs. Throughput is iterations / wall time.
 */
export async function timeBoxedLoop(
  fn: (i: number) => unknown | Promise<unknown>,
  limits: LoopLimits,
  onIteration?: (i: number) => void,
): Promise<LoopResult> {
  const start = nowMs();
  let i = 0;
  let elapsed: number;
  do {
    await fn(i);
    i++;
    onIteration?.(i);
    elapsed = nowMs() - start;
  } while (elapsed < limits.maxMs && (elapsed < limits.minMs || i < limits.minIterations));
  return { iterations: i, ms: elapsed, perSecond: (i * 1000) / elapsed };
}

/** Forces a full collection when the process runs with --expose-gc; a no-op otherwise. */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  // Two passes: the first may only schedule finalizers and weak-reference clearing.
  gc();
  gc();
  return true;
}

/**
 * Bytes held by this isolate after a forced GC: the JS heap plus memory outside it that the
 * heap owns (typed-array backing stores, strings held by native code). Typed arrays matter:
 * an engine with postings in typed arrays keeps most of its bytes in `external`.
 */
export function retainedBytes(): { heapUsed: number; external: number; total: number; gcForced: boolean } {
  const gcForced = collectGarbage();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external, total: m.heapUsed + m.external, gcForced };
}

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1024) return `${(mb / 1024).toFixed(2)} GB`;
  if (mb >= 10) return `${mb.toFixed(0)} MB`;
  return `${mb.toFixed(1)} MB`;
}

/** The median of `xs` (NaN when empty). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
}

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(0)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return `${ms.toFixed(0)} ms`;
}

/** Three significant figures, without exponent notation for the ranges benchmarks print. */
export function formatRate(perSecond: number): string {
  if (perSecond >= 100) return Math.round(perSecond).toLocaleString('en-US');
  if (perSecond >= 10) return perSecond.toFixed(1);
  if (perSecond >= 1) return perSecond.toFixed(2);
  return perSecond.toPrecision(2);
}

/** A ratio such as 123× or 0.25×. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  if (ratio >= 100) return `${Math.round(ratio).toLocaleString('en-US')}×`;
  if (ratio >= 10) return `${ratio.toFixed(0)}×`;
  if (ratio >= 1) return `${ratio.toFixed(1)}×`;
  return `${ratio.toPrecision(2)}×`;
}

export type Align = 'left' | 'right';

/**
 * A plain-text table with a header rule. Columns are right-aligned unless told otherwise,
 * since most cells are figures.
 */
export function formatTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const cell = (text: string, c: number) =>
    (align[c] ?? (c === 0 ? 'left' : 'right')) === 'left' ? text.padEnd(widths[c]) : text.padStart(widths[c]);
  const line = (cells: string[]) => cells.map((t, c) => cell(t ?? '', c)).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Reads a positive integer from a flag value or environment variable, with a clear error. */
export function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const cleaned = raw.replace(/[_,]/g, '');
  const n = /^\d+(\.\d+)?[kKmM]?$/.test(cleaned)
    ? Number(cleaned.replace(/[kKmM]$/, '')) * (/[kK]$/.test(cleaned) ? 1e3 : /[mM]$/.test(cleaned) ? 1e6 : 1)
    : NaN;
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Reads a positive number (decimals allowed) from a flag value, with a clear error. */
export function positiveNumber(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(n > 0)) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}
