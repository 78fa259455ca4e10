/**
 * An embedded log in its own process for kill -9 tests: continues numbered atomic writes from
 * where the log stands (each: `sizeOf(n)` records of batch n to `data`, spread over its
 * partitions, and one record `n` to `offs`) until it is killed. Prints READY once it writes.
 */
import { EmbeddedLog } from '../embedded-log.js';
import { sizeOf } from './atomic-batches.js';

const dir = process.argv[2]!;
const log = await EmbeddedLog.open({ dir, retentionCheckMs: 0, segmentBytes: 16 * 1024 });
await log.createTopic('data', { partitions: 3 });
await log.createTopic('offs', { partitions: 1 });
const { end } = await log.offsets('offs', 0);
const last = end ? Number((await log.fetch('offs', 0, end - 1))[0]!.value) : 0;
process.stdout.write('READY\n');
for (let n = last + 1; ; n++) {
  const records = Array.from({ length: sizeOf(n) }, (_, i) => ({ key: `b${n}`, value: `${n}:${i}:${'x'.repeat(i % 40)}`, partition: i % 3 }));
  await log.produceAtomic([
    { topic: 'data', records },
    { topic: 'offs', records: [{ key: 'o', value: String(n) }] },
  ]);
  if (n % 20 === 0) await new Promise((r) => setImmediate(r));
}
