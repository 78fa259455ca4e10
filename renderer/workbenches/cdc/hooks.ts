/** Hooks of the CDC workbench: the page's set-up and the live updates it follows while open. */
import { useEffect } from 'react';
import { bridge } from '../../bridge.js';
import { useCdc } from './store.js';
import { useStream } from './stream-store.js';
import { refreshGate } from './refresh-gate.js';
import { useDedupe } from './dedupe-store.js';
import { useTarget } from './target-store.js';

/**
 * Loads the seed's pipeline and the current state, then follows the worker: connector state
 * changes refresh the connectors at once; progress refreshes the source and target (at once when
 * idle, then at most every 250 ms; the source-against-target check every 1.5 s) and the messages and flow (every 500 ms), so a 10,000-change burst does not flood the
 * page, and feeds the per-stage counters sampled each second.
 */
export function useCdcLive(): void {
  useEffect(() => {
    const st = useCdc.getState();
    if (!st.template) void st.loadTemplate();
    void st.refreshAll();
    void bridge().invoke('cdc.watch', {}).catch(() => undefined);
    const target = refreshGate(() => {
      const sink = useDedupe.getState().sink;
      return Promise.all([useTarget.getState().load(), useCdc.getState().loadSource(), sink ? useDedupe.getState().load(sink) : undefined]);
    }, 250);
    // the source-against-target check reads both tables whole (in the host): less often
    const compare = refreshGate(() => useTarget.getState().loadCompare(), 1500);
    const later = () => {
      target.request();
      compare.request();
    };
    const stream = useStream.getState();
    void stream.loadTopics();
    void stream.loadFlow();
    let streamTimer: ReturnType<typeof setTimeout> | null = null;
    const streamLater = () => {
      if (streamTimer) return;
      streamTimer = setTimeout(() => {
        streamTimer = null;
        const s = useStream.getState();
        void s.loadTopics();
        void s.loadFlow();
        if (s.follow) void s.loadMessages();
      }, 500);
    };
    const offProgress = bridge().subscribe('cdc.progress', (e) => {
      useStream.getState().onProgress(e);
      streamLater();
      if (e.kind === 'sink') later();
    });
    const sampler = setInterval(() => void useStream.getState().sample(), 1000);
    const offState = bridge().subscribe('cdc.connectorState', () => void useCdc.getState().loadConnectors());
    // a materialized view (variant 2) inserts without sink progress events: poll slowly as well
    const poll = setInterval(later, 3000);
    return () => {
      offProgress();
      offState();
      clearInterval(poll);
      clearInterval(sampler);
      if (streamTimer) clearTimeout(streamTimer);
      target.dispose();
      compare.dispose();
    };
  }, []);
}
