/** The Relevance workbench's hooks: host events and the deep link. */
import { useEffect, useRef } from 'react';
import { bridge } from '../../bridge.js';
import { readLink, writeLink } from './lib/deep-link.js';
import { useRelevance } from './store.js';
import { serviceByName, useShell } from '../../store/shell.js';

/** Loads the indexes, follows `search.indicesChanged`, and reloads when the search service (re)starts. */
export function useIndices(): void {
  useEffect(() => {
    void useRelevance.getState().refreshIndices();
    let was = serviceByName(useShell.getState().services, 'search')?.state;
    const offShell = useShell.subscribe((s) => {
      const now = serviceByName(s.services, 'search')?.state;
      if (now === 'running' && was !== undefined && was !== 'running') void useRelevance.getState().refreshIndices();
      was = now;
    });
    const offEvents = bridge().subscribe('search.indicesChanged', () => void useRelevance.getState().refreshIndices());
    return () => {
      offShell();
      offEvents();
    };
  }, []);
}

/**
 * Applies the URL's state once the indexes are known, then writes the state back to the URL
 * (replaceState: no history entry per keystroke).
 */
export function useDeepLink(): void {
  const indices = useRelevance((s) => s.indices);
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || indices === null) return;
    applied.current = true;
    const link = readLink(window.location.hash);
    const st = useRelevance.getState();
    if (link.body) st.setBody(link.body);
    if (link.index && indices.some((i) => i.name === link.index)) st.selectIndex(link.index);
    if (link.whyNot) st.setWhyNotId(link.whyNot);
    if (link.compareB) useRelevance.setState({ compareB: link.compareB });
    if (link.tab) useRelevance.setState({ tab: link.tab });
    if (!useRelevance.getState().index) return;
    void (async () => {
      if (link.hit) useRelevance.setState({ selectedId: link.hit });
      await useRelevance.getState().run();
      if (link.hit && useRelevance.getState().selectedId !== link.hit) await useRelevance.getState().select(link.hit);
      if (link.tab === 'why-not' && link.whyNot) await useRelevance.getState().whyNotRun(link.whyNot);
      if (link.tab === 'compare') await useRelevance.getState().compare();
      if (link.tab === 'similarity') await useRelevance.getState().similaritySwitch();
    })();
  }, [indices]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsub = useRelevance.subscribe((s) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!applied.current) return;
        if (!/^#\/?relevance/.test(window.location.hash) && window.location.hash !== '') return;
        const hash = writeLink({ index: s.index ?? undefined, body: s.bodyText, hit: s.selectedId ?? undefined, whyNot: s.whyNotId || undefined, tab: s.tab, compareB: s.tab === 'compare' ? (s.compareB ?? undefined) : undefined });
        if (hash !== window.location.hash) window.history.replaceState(window.history.state, '', hash);
      }, 150);
    });
    return () => {
      clearTimeout(timer);
      unsub();
    };
  }, []);
}
