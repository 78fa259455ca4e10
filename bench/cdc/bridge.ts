/**
 * Source → topic, used when the Connect worker with the Debezium source is not available in
 * this checkout: reads committed transactions from the embedded source's change log in order
 * and writes what the seed's source connector (ExtractNewRecordState with delete handling
 * rewrite, RegexRouter `$3`, JsonConverter schemas disabled) would write: key `{"id":…}`,
 * value the flat row with created_at as epoch milliseconds and `__deleted` "true"/"false".
 */
import type { EmbeddedSource } from '../../core/cdc/source/embedded-source.js';
import type { BinlogPosition, Row } from '../../core/cdc/source/types.js';
import type { ProduceRecord, TopicLog } from '../../core/cdc/log/types.js';

/** DATETIME text (no zone) → epoch millis read as UTC, as io.debezium.time.Timestamp does. */
let lastText = '';
let lastMs = 0;
function datetimeMs(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  // Rows of one transaction share their DATETIME default: parse each distinct text once.
  if (v !== lastText) {
    lastText = String(v);
    lastMs = Date.parse(`${lastText.replace(' ', 'T')}Z`);
  }
  return lastMs;
}

function unwrap(row: Row, deleted: boolean): string {
  return JSON.stringify({ created_at: datetimeMs(row.created_at), id: row.id, name: row.name ?? null, __deleted: deleted ? 'true' : 'false' });
}

export interface BridgeHandle {
  /** Log offset → commit time (epoch ms) of the source transaction it came from, when tracked. */
  readonly commitTimeOfOffset: Map<number, number>;
  produced(): number;
  stop(): Promise<void>;
}

export function startBridge(source: EmbeddedSource, log: TopicLog, topic: string, from: BinlogPosition, opts: { trackCommitTimes?: boolean } = {}): BridgeHandle {
  let running = true;
  let produced = 0;
  const commitTimeOfOffset = new Map<number, number>();
  const loop = (async () => {
    let pos = from;
    while (running) {
      // A few transactions at a time keeps topic batches near the sink's block size.
      const txs = source.readTransactions(pos, 4);
      if (!txs.length) {
        await source.waitForCommit(pos, 200);
        continue;
      }
      const records: ProduceRecord[] = [];
      const times: number[] = [];
      for (const tx of txs) {
        for (const ev of tx.events) {
          if (ev.table !== 'customers') continue;
          const row = (ev.op === 'd' ? ev.before : ev.after)!;
          records.push({ key: `{"id":${row.id}}`, value: unwrap(row, ev.op === 'd'), timestamp: tx.ts });
          times.push(tx.ts);
        }
        pos = { file: tx.file, pos: tx.nextPos };
      }
      if (records.length) {
        const res = await log.produce(topic, records);
        if (opts.trackCommitTimes) res.forEach((r, i) => commitTimeOfOffset.set(r.offset, times[i]!));
        produced += records.length;
      }
    }
  })();
  return {
    commitTimeOfOffset,
    produced: () => produced,
    async stop() {
      running = false;
      await loop;
    },
  };
}
