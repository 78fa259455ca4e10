/** Hooks of the Federation workbench: a ticking clock for countdowns, the XML viewer's turn, and the store's set-up. */
import { useEffect, useRef, useState } from 'react';
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

/**
 * True once secondary work may start: `settleMs` after the component is shown, or as soon as
 * a `busy` spell (a credentials call) has ended, whichever first; never while `busy`.
 */
export function useAfterSettling(busy: boolean, settleMs: number): boolean {
  const [settled, setSettled] = useState(false);
  const [answered, setAnswered] = useState(false);
  const wasBusy = useRef(false);
  useEffect(() => {
    const t = setTimeout(() => setSettled(true), settleMs);
    return () => clearTimeout(t);
  }, [settleMs]);
  useEffect(() => {
    if (busy) wasBusy.current = true;
    else if (wasBusy.current) setAnswered(true);
  }, [busy]);
  return !busy && (settled || answered);
}
