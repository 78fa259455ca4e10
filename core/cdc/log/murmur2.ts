/**
 * Kafka's default partitioner for keyed records: `toPositive(murmur2(keyBytes)) % numPartitions`
 * (org.apache.kafka.common.utils.Utils.murmur2, seed 0x9747b28c), so a key lands on the same
 * partition here as in a real Kafka.
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  const seed = 0x9747b28c;
  const m = 0x5bd1e995;
  const r = 24;
  let h = seed ^ length;
  const length4 = length >> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = (data[i4]! & 0xff) + ((data[i4 + 1]! & 0xff) << 8) + ((data[i4 + 2]! & 0xff) << 16) + ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length4 * 4;
  switch (length % 4) {
    case 3:
      h ^= (data[tail + 2]! & 0xff) << 16;
    // falls through
    case 2:
      h ^= (data[tail + 1]! & 0xff) << 8;
    // falls through
    case 1:
      h ^= data[tail]! & 0xff;
      h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

export function partitionForKey(key: string, numPartitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % numPartitions;
}

/**
 * Kafka 3.x's partitioner for records without a key (KIP-794, producer BuiltInPartitioner): all
 * go to one partition until `batch.size` (16384) bytes have gone there, then the next partition
 * takes over, so a small burst lands in one partition instead of being spread one record each.
 * Kafka picks the next partition at random (weighted by queue depth); here it is the next one
 * in order, which spreads as evenly and is the same on every run.
 */
export class StickyPartitioner {
  private current = -1;
  private bytes = 0;
  constructor(private readonly batchSize = 16384) {}

  partition(numPartitions: number, recordBytes: number): number {
    if (this.current < 0 || this.current >= numPartitions || this.bytes >= this.batchSize) {
      this.current = (this.current + 1) % numPartitions;
      this.bytes = 0;
    }
    this.bytes += recordBytes;
    return this.current;
  }
}
