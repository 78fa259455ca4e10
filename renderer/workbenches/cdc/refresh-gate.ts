/**
 * A refresh that runs at once when idle, never twice at a time, and at most once per `gapMs`:
 * calls that arrive meanwhile fold into one more run after the current one. A burst of progress
 * events thus costs one refresh per gap, and the first change of a quiet pipeline shows without
 * waiting for a timer.
 */
export function refreshGate(run: () => Promise<unknown>, gapMs: number, now: () => number = Date.now): { request(): void; dispose(): void } {
  let running = false;
  let pending = false;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;
  const start = () => {
    timer = null;
    if (disposed) return;
    running = true;
    pending = false;
    last = now();
    void run()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (pending) schedule();
      });
  };
  const schedule = () => {
    if (disposed || running || timer) {
      pending = true;
      return;
    }
    const wait = last + gapMs - now();
    if (wait <= 0) start();
    else timer = setTimeout(start, wait);
  };
  return {
    request: schedule,
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
