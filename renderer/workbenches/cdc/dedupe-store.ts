/**
 * The dedupe demo: the sink's exactly-once state (BEFORE_PROCESSING/AFTER_PROCESSING and offsets
 * per topic-partition), and a replay of the topic from its start through the same sink, with the
 * target's physical row count before and after, so a presenter shows that nothing was inserted
 * twice.
 */
import { create } from 'zustand';
import { bridge } from '../../bridge.js';
import { failureOf, useCdc, type Failure } from './store.js';
import { TARGET, useTarget } from './target-store.js';

export interface StateRow {
  key: string;
  minOffset: number;
  maxOffset: number;
  state: string;
}

export interface DedupeState {
  sink: string | null;
  table: string | null;
  rows: StateRow[];
  error?: Failure;
  replay: { phase: 'idle' | 'running' | 'done' | 'error'; step?: string; before?: number; after?: number; error?: Failure };
  load(sink: string): Promise<void>;
  replayFromStart(): Promise<void>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rawCount(): Promise<number> {
  return (await bridge().invoke('cdc.targetView', { ...TARGET, view: 'raw', limit: 0 })).total;
}

export const useDedupe = create<DedupeState>((set, get) => ({
  sink: null,
  table: null,
  rows: [],
  replay: { phase: 'idle' },

  async load(sink) {
    try {
      const r = await bridge().invoke('cdc.sinkState', { connector: sink });
      set({ sink, table: `${r.database}.${r.table}`, rows: r.rows, error: undefined });
    } catch (err) {
      set({ sink, error: failureOf(err, 'ClickHouse') });
    }
  },

  async replayFromStart() {
    const sink = get().sink;
    if (!sink) return;
    const step = (s: string) => set((st) => ({ replay: { ...st.replay, phase: 'running', step: s } }));
    try {
      step('counting the target’s physical rows');
      const before = await rawCount();
      set((st) => ({ replay: { ...st.replay, before, after: undefined, error: undefined } }));
      step('PUT /connectors/' + sink + '/stop');
      await bridge().invoke('cdc.connectorAction', { name: sink, action: 'stop' });
      step('DELETE /connectors/' + sink + '/offsets (the consumer starts again at offset 0)');
      await bridge().invoke('cdc.connectorAction', { name: sink, action: 'resetOffsets' });
      step('PUT /connectors/' + sink + '/resume: every message is read again');
      await bridge().invoke('cdc.connectorAction', { name: sink, action: 'resume' });
      // the sink re-reads the whole topic; give it time to reach the end (its state shows where it is)
      for (let i = 0; i < 20; i++) {
        await pause(500);
        await get().load(sink);
        const st = (await bridge().invoke('cdc.connectors', {})).connectors.find((c) => c.name === sink);
        if (st?.failed) throw new Error(`${sink} failed during the replay: ${st.tasks.find((t) => t.trace)?.trace?.split('\n')[0] ?? st.trace ?? ''}`);
        if (i >= 3 && st?.tasks.every((t) => t.state === 'RUNNING') && get().rows.every((r) => r.state === 'AFTER_PROCESSING')) break;
      }
      const after = await rawCount();
      set({ replay: { phase: 'done', before, after } });
      void useTarget.getState().load();
      void useCdc.getState().loadConnectors();
    } catch (err) {
      set((st) => ({ replay: { ...st.replay, phase: 'error', error: failureOf(err, 'Kafka Connect') } }));
    }
  },
}));
