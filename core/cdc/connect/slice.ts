/**
 * Cooperative slicing of long synchronous stretches on a shared event loop. The source task, the
 * topic log, the ClickHouse HTTP interface and the sink's requests to them share the main
 * thread: a stretch of per-record work gives the loop a turn every SLICE_MS, so the other side's
 * I/O (an insert answered, a fetch, a REST request) is handled within about a millisecond
 * instead of after the whole batch.
 */
export const SLICE_MS = 1;

export const turn = () => new Promise<void>((r) => setImmediate(r));

/** Counts per-record steps and says when a turn is due (the clock is read every 256th step). */
export class Slicer {
  private start = performance.now();

  /** True when step `i` should be preceded by a turn of the event loop. */
  due(i: number): boolean {
    return (i & 255) === 255 && performance.now() - this.start > SLICE_MS;
  }

  async turn(): Promise<void> {
    await turn();
    this.start = performance.now();
  }
}
