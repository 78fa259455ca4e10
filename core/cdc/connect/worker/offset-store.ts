/**
 * Source offsets, stored as Kafka Connect stores them: records in the `connect-offsets` topic
 * with key `["<connector>",{<source partition>}]` and value `{<offset>}` (null = removed), the
 * latest per key winning. Writes go out in the same atomic log write as the records they
 * describe (see SourceRunner).
 */
import type { ProduceRecord, TopicLog } from '../../log/types.js';

export const OFFSETS_TOPIC = 'connect-offsets';

export function offsetKey(connector: string, partition: Record<string, unknown>): string {
  return JSON.stringify([connector, partition]);
}

export class OffsetStore {
  private readonly latest = new Map<string, Record<string, unknown> | null>();

  constructor(private readonly log: TopicLog) {}

  /** Reads the whole offsets topic (it is small: one record per source batch). */
  async load(): Promise<void> {
    await this.log.createTopic(OFFSETS_TOPIC, { partitions: 1, cleanupPolicy: ['compact'], retentionMs: -1 });
    const { end } = await this.log.offsets(OFFSETS_TOPIC, 0);
    let at = 0;
    while (at < end) {
      const batch = await this.log.fetch(OFFSETS_TOPIC, 0, at, { maxRecords: 10_000, maxBytes: 64 * 1024 * 1024 });
      if (!batch.length) break;
      for (const r of batch) if (r.key !== null) this.latest.set(r.key, r.value === null ? null : (JSON.parse(r.value) as Record<string, unknown>));
      at = batch[batch.length - 1]!.offset + 1;
    }
  }

  get(connector: string, partition: Record<string, unknown>): Record<string, unknown> | null {
    return this.latest.get(offsetKey(connector, partition)) ?? null;
  }

  /** All stored (non-null) offsets of a connector. */
  list(connector: string): { partition: Record<string, unknown>; offset: Record<string, unknown> }[] {
    const out: { partition: Record<string, unknown>; offset: Record<string, unknown> }[] = [];
    for (const [k, v] of this.latest) {
      const [name, partition] = JSON.parse(k) as [string, Record<string, unknown>];
      if (name === connector && v !== null) out.push({ partition, offset: v });
    }
    return out;
  }

  /** The records to write for these offsets (null removes a partition's offset). */
  records(connector: string, offsets: { partition: Record<string, unknown>; offset: Record<string, unknown> | null }[]): ProduceRecord[] {
    return offsets.map((o) => ({ key: offsetKey(connector, o.partition), value: o.offset === null ? null : JSON.stringify(o.offset), partition: 0 }));
  }

  /** Call after the records from `records()` were written. */
  applied(connector: string, offsets: { partition: Record<string, unknown>; offset: Record<string, unknown> | null }[]): void {
    for (const o of offsets) this.latest.set(offsetKey(connector, o.partition), o.offset);
  }

  async write(connector: string, offsets: { partition: Record<string, unknown>; offset: Record<string, unknown> | null }[]): Promise<void> {
    await this.log.produce(OFFSETS_TOPIC, this.records(connector, offsets));
    this.applied(connector, offsets);
  }
}
