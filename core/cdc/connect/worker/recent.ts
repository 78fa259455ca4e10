/**
 * The newest items of a stream, at most `capacity` of them: the worker's lineage of source writes
 * and sink deliveries for the pipeline view. A ring, because a backlog writes a million records in
 * a few seconds: pushing each into an array and cutting its front after every poll cost the source
 * task a tenth of its time (0.34 s of 3.4 s for a million changes, source stage alone).
 */
export const LINEAGE_KEEP = 20_000;

export class Recent<T> {
  private readonly ring: T[] = [];
  /** Where the next item goes once the ring is full (its oldest item). */
  private next = 0;

  constructor(readonly capacity: number) {}

  add(items: readonly T[]): void {
    for (let i = Math.max(0, items.length - this.capacity); i < items.length; i++) {
      if (this.ring.length < this.capacity) this.ring.push(items[i]!);
      else {
        this.ring[this.next] = items[i]!;
        this.next = (this.next + 1) % this.capacity;
      }
    }
  }

  /** The items kept, oldest first. */
  list(): T[] {
    return this.next === 0 ? [...this.ring] : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }
}
