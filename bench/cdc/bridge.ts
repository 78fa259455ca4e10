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
  produced(): number;
  stop(): Promise<void>;
}

export function startBridge(source: EmbeddedSource, log: TopicLog, topic: string, from: BinlogPosition): BridgeHandle {
  let running = true;
  let produced = 0;
  const loop = (async () => {
    let pos = from;
    while (running) {
      // Transactions up to about one sink block of events per produce.
      const txs = source.readTransactions(pos, 1);
      for (let events = txs[0]?.events.length ?? 0; txs.length && events < 5000; ) {
        const more = source.readTransactions({ file: txs[txs.length - 1]!.file, pos: txs[txs.length - 1]!.nextPos }, 1);
        if (!more.length) break;
        txs.push(more[0]!);
        events += more[0]!.events.length;
      }
      if (!txs.length) {
        await source.waitForCommit(pos, 200);
        continue;
      }
      const records: ProduceRecord[] = [];
      for (const tx of txs) {
        for (const ev of tx.events) {
          if (ev.table !== 'customers') continue;
          const row = (ev.op === 'd' ? ev.before : ev.after)!;
          records.push({ key: `{"id":${row.id}}`, value: unwrap(row, ev.op === 'd'), timestamp: tx.ts });
        }
        pos = { file: tx.file, pos: tx.nextPos };
      }
      if (records.length) {
        await log.produce(topic, records);
        produced += records.length;
      }
    }
  })();
  return {
    produced: () => produced,
    async stop() {
      running = false;
      await loop;
    },
  };
}
