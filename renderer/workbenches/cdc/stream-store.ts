/**
 * The message stream and the flow view: the topics, one partition's messages (follow mode reads
 * the tail again as the source writes), the recent changes followed through the pipeline, and
 * the per-stage counters the worker's progress events add up.
 */
import { create } from 'zustand';
import type { CdcMessage, CdcPipelineStep, CdcProgressEvent, CdcTopicInfo } from '../../../core/host/contract.js';
import { bridge } from '../../bridge.js';
import { failureOf, useCdc, type Failure } from './store.js';

/** Records per second of one stage, one sample a second, the last 60 s. */
export interface StageSeries {
  total: number;
  samples: number[];
}

export interface StreamState {
  topics: CdcTopicInfo[];
  topic: string | null;
  /** -1: all partitions, newest first by timestamp. */
  partition: number;
  follow: boolean;
  messages: CdcMessage[];
  range: { begin: number; end: number } | null;
  error?: Failure;

  flow: CdcPipelineStep[];
  flowError?: Failure;

  /** Per second: transactions committed in the source, messages produced and consumed, rows ClickHouse inserted. */
  stages: { committed: StageSeries; produced: StageSeries; consumed: StageSeries; inserted: StageSeries };

  loadTopics(): Promise<void>;
  choose(topic: string, partition?: number): Promise<void>;
  setFollow(on: boolean): void;
  loadMessages(): Promise<void>;
  loadFlow(): Promise<void>;
  onProgress(e: CdcProgressEvent): void;
  sample(): Promise<void>;
}

const SAMPLES = 60;
/** Records seen since the last sample, per stage. */
const pending = { produced: 0, consumed: 0 };
/** The last running totals read from the host; the first read only sets the baseline. */
const totals: { transactions: number | null; insertedRows: number | null } = { transactions: null, insertedRows: null };
/** Follow mode reads the tail again twice a second: the newest 100 per partition; browsing reads 500. */
const FOLLOW_LIMIT = 100;
const BROWSE_LIMIT = 500;
const emptySeries = (): StageSeries => ({ total: 0, samples: [] });

export const useStream = create<StreamState>((set, get) => ({
  topics: [],
  topic: null,
  partition: -1,
  follow: true,
  messages: [],
  range: null,
  flow: [],
  stages: { committed: emptySeries(), produced: emptySeries(), consumed: emptySeries(), inserted: emptySeries() },

  async loadTopics() {
    try {
      const r = await bridge().invoke('cdc.topics', {});
      set({ topics: r.topics, error: undefined });
      // the pipeline's own topic first (Debezium's schema-change topic sits beside it)
      const wanted = useCdc.getState().template?.topic;
      const first = r.topics.find((t) => t.name === wanted) ?? r.topics.find((t) => !t.internal);
      const current = get().topic;
      if ((!current || (current !== wanted && r.topics.some((t) => t.name === wanted) && get().messages.length === 0)) && first) await get().choose(first.name);
    } catch (err) {
      set({ error: failureOf(err, 'Loupe') });
    }
  },

  async choose(topic, partition = -1) {
    set({ topic, partition, messages: [], range: null });
    await get().loadMessages();
  },

  setFollow: (on) => {
    set({ follow: on });
    if (on) void get().loadMessages();
  },

  async loadMessages() {
    const { topic, partition } = get();
    if (!topic) return;
    try {
      const count = get().topics.find((t) => t.name === topic)?.partitions.length ?? 1;
      const parts = partition >= 0 ? [partition] : Array.from({ length: count }, (_, i) => i);
      const answers = await Promise.all(parts.map((p) => bridge().invoke('cdc.messages', { topic, partition: p, fromEnd: true, limit: get().follow ? FOLLOW_LIMIT : BROWSE_LIMIT })));
      const messages = answers.flatMap((a) => a.messages).sort((a, b) => b.timestamp - a.timestamp || b.offset - a.offset);
      const range = answers.length === 1 ? { begin: answers[0]!.begin, end: answers[0]!.end } : null;
      set({ messages, range, error: undefined });
    } catch (err) {
      set({ error: failureOf(err, 'Loupe') });
    }
  },

  async loadFlow() {
    try {
      const r = await bridge().invoke('cdc.pipeline', { database: 'demo', table: 'customers', limit: 12, targetTable: 'customers', targetDatabase: 'default' });
      set({ flow: r.steps.slice().reverse(), flowError: undefined });
    } catch (err) {
      set({ flowError: failureOf(err, 'ClickHouse') });
    }
  },

  onProgress(e) {
    // counted outside the state: a burst sends hundreds of events a second, and each state change re-renders the panels
    if (e.kind === 'source') pending.produced += e.records;
    else pending.consumed += e.records;
  },

  async sample() {
    const { produced, consumed } = pending;
    pending.produced = 0;
    pending.consumed = 0;
    // the source and ClickHouse keep running totals: the difference since the last sample
    const now = await bridge()
      .invoke('cdc.counters', {})
      .catch(() => null);
    const committed = now?.transactions != null && totals.transactions != null ? Math.max(0, now.transactions - totals.transactions) : 0;
    const inserted = now && totals.insertedRows != null ? Math.max(0, now.insertedRows - totals.insertedRows) : 0;
    if (now) {
      totals.transactions = now.transactions;
      totals.insertedRows = now.insertedRows;
    }
    set((s) => {
      const push = (series: StageSeries, n: number): StageSeries => ({ total: series.total + n, samples: [...series.samples, n].slice(-SAMPLES) });
      return { stages: { committed: push(s.stages.committed, committed), produced: push(s.stages.produced, produced), consumed: push(s.stages.consumed, consumed), inserted: push(s.stages.inserted, inserted) } };
    });
  },
}));
