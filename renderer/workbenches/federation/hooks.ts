/** Hooks of the Federation workbench: a ticking clock for countdowns, and the store's set-up. */
import { useEffect, useState } from 'react';
import { useFederation } from './store.js';

/** The current time, updated every `ms` while the component is shown (countdowns). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** Loads what the page needs and follows capture progress while the page is open. */
export function useFederationSetup(): void {
  useEffect(() => {
    const off = useFederation.getState().connect();
    if (useFederation.getState().setup.phase === 'idle') void useFederation.getState().load();
    return off;
  }, []);
}
