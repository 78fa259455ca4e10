/**
 * The target visualizer's state: a window of each view (Raw, FINAL, before and after the last
 * cleanup) around the rows its table shows, read and grouped by the host (cdc.targetView), the
 * source-against-target check, the cleanup and the merges switch. A refresh asks for the windows
 * in view only, so a target of 100,000 versions costs the page a few hundred lines per refresh.
 */
import { create } from 'zustand';
import type { CdcCleanupResult, CdcKeyStory, CdcTargetComparison, CdcTargetView, CdcTargetViewName } from '../../../core/host/contract.js';
import { bridge, HostError } from '../../bridge.js';
import { failureOf, type Failure, type Phase } from './store.js';

export const TARGET = { database: 'default', table: 'customers' };
const SOURCE = { database: 'demo', table: 'customers' };
/** Lines read beyond each edge of what a table shows, so scrolling a little needs no new read. */
const PAD = 100;
const MAX_WINDOW = 2000;

export const VIEWS: CdcTargetViewName[] = ['raw', 'final', 'before', 'after'];

export interface TargetState {
  views: Record<CdcTargetViewName, CdcTargetView | null>;
  /** The rows each table shows now, [start, end). */
  ranges: Record<CdcTargetViewName, [number, number]>;
  /** null: not read yet; false: the table does not exist (set the pipeline up). */
  exists: boolean | null;
  error?: Failure;
  compare: CdcTargetComparison | null;
  compareError?: Failure;
  cleanup: { phase: Phase; result?: CdcCleanupResult; error?: Failure };
  mergesStopped: boolean;
  mergesError?: Failure;
  /** One id followed from the source's changes to its rows (an id clicked in Raw). */
  story: { phase: Phase; key?: string; data?: CdcKeyStory; error?: Failure };

  /** Reads the windows in view of Raw and FINAL again (and before/after once a cleanup ran). */
  load(): Promise<void>;
  loadCompare(): Promise<void>;
  /** A table scrolled: read its window again if what it shows is not loaded. */
  setRange(view: CdcTargetViewName, start: number, end: number): void;
  runCleanup(): Promise<void>;
  setMerges(stopped: boolean): Promise<void>;
  /** Follows an id (null closes the story). */
  explainKey(key: string | null): Promise<void>;
  reset(): void;
}

const empty = (): Record<CdcTargetViewName, CdcTargetView | null> => ({ raw: null, final: null, before: null, after: null });
const covered = (w: CdcTargetView | null, [s, e]: [number, number]) => {
  if (!w) return false;
  const have = w.view === 'final' ? w.rows.length : w.lines.length;
  return s >= w.offset && Math.min(e, w.total) <= w.offset + have;
};
const missingTable = (err: unknown) => {
  const d = err instanceof HostError ? (err.detail as { code?: string; type?: string } | undefined) : undefined;
  return d?.type === 'UNKNOWN_TABLE' || d?.code === '60';
};

/** The newest read of each view wins: a slow answer that comes back after a newer one is dropped. */
const seq: Record<CdcTargetViewName, number> = { raw: 0, final: 0, before: 0, after: 0 };
const inFlight = new Set<CdcTargetViewName>();

export const useTarget = create<TargetState>((set, get) => {
  async function read(view: CdcTargetViewName): Promise<void> {
    const [s, e] = get().ranges[view];
    const offset = Math.max(0, s - PAD);
    const limit = Math.min(MAX_WINDOW, e - offset + PAD);
    const mine = ++seq[view];
    inFlight.add(view);
    try {
      const w = await bridge().invoke('cdc.targetView', { ...TARGET, view, offset, limit });
      if (mine !== seq[view]) return;
      set((st) => ({ views: { ...st.views, [view]: w }, exists: true, error: undefined }));
    } finally {
      if (mine === seq[view]) inFlight.delete(view);
    }
    // the table scrolled on while this read was under way
    if (mine === seq[view] && !covered(get().views[view], get().ranges[view])) await read(view);
  }

  return {
    views: empty(),
    ranges: { raw: [0, 40], final: [0, 40], before: [0, 40], after: [0, 40] },
    exists: null,
    compare: null,
    cleanup: { phase: 'idle' },
    mergesStopped: false,
    story: { phase: 'idle' },

    async load() {
      const views: CdcTargetViewName[] = get().cleanup.result ? VIEWS : ['raw', 'final'];
      try {
        await Promise.all(views.map(read));
      } catch (err) {
        // no target table yet is the empty state (set up the pipeline), not an error
        if (missingTable(err)) set({ exists: false, error: undefined, views: empty() });
        else set({ error: failureOf(err, 'ClickHouse') });
      }
    },

    async loadCompare() {
      if (get().exists === false) return set({ compare: null });
      try {
        const compare = await bridge().invoke('cdc.targetCompare', { source: SOURCE, target: TARGET, columns: ['name'] });
        set({ compare, compareError: undefined });
      } catch (err) {
        if (missingTable(err)) set({ compare: null, compareError: undefined });
        else set({ compareError: failureOf(err, 'ClickHouse') });
      }
    },

    setRange(view, start, end) {
      const ranges = { ...get().ranges, [view]: [start, end] as [number, number] };
      set({ ranges });
      if (covered(get().views[view], ranges[view]) || inFlight.has(view)) return;
      read(view).catch((err: unknown) => set({ error: failureOf(err, 'ClickHouse') }));
    },

    async runCleanup() {
      set((s) => ({ cleanup: { ...s.cleanup, phase: 'running' } }));
      try {
        // ClickHouse cancels OPTIMIZE while merges are stopped: the host starts them for the cleanup and stops them again
        const result = await bridge().invoke('cdc.optimizeFinalCleanup', { ...TARGET, resumeMerges: get().mergesStopped });
        set({ cleanup: { phase: 'done', result } });
        await Promise.all(VIEWS.map(read));
        void get().loadCompare();
      } catch (err) {
        set({ cleanup: { phase: 'error', error: failureOf(err, 'ClickHouse') } });
      }
    },

    async setMerges(stopped) {
      // the switch moves at once; it moves back if ClickHouse refuses
      set({ mergesStopped: stopped, mergesError: undefined });
      try {
        await bridge().invoke('cdc.merges', { ...TARGET, stopped });
      } catch (err) {
        set({ mergesStopped: !stopped, mergesError: failureOf(err, 'ClickHouse') });
      }
    },

    async explainKey(key) {
      if (key === null) return set({ story: { phase: 'idle' } });
      set({ story: { phase: 'running', key } });
      try {
        const data = await bridge().invoke('cdc.keyStory', { key, ...TARGET, sourceDatabase: SOURCE.database, sourceTable: SOURCE.table });
        if (get().story.key === key) set({ story: { phase: 'done', key, data } });
      } catch (err) {
        if (get().story.key === key) set({ story: { phase: 'error', key, error: failureOf(err, 'Loupe') } });
      }
    },

    reset() {
      set({ story: { phase: 'idle' }, views: empty(), exists: null, compare: null, cleanup: { phase: 'idle' }, mergesStopped: false, error: undefined, compareError: undefined });
    },
  };
});
