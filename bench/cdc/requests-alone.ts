/**
 * The seed sink's requests with nothing of Kafka Connect around them: for every block, the
 * exactly-once sequence the sink sends (BEFORE_PROCESSING state write, the insert with the sink's
 * settings and deduplication token, AFTER_PROCESSING state write), through the sink's own request
 * path (lean-http.ts, the requests @clickhouse/client would send) and StateStore, with the JSONEachRow bodies already built. However cheap the sink's
 * own work became, it could go no faster than this on the same server and machine; against the
 * peer (the same bodies straight into chDB) it is the ceiling of bench:cdc's ratio.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@clickhouse/client';
import { parseSinkConfig } from '../../core/cdc/connect/plugins/clickhouse-sink/config.js';
import { LeanHttp } from '../../core/cdc/connect/plugins/clickhouse-sink/lean-http.js';
import { StateStore } from '../../core/cdc/connect/plugins/clickhouse-sink/state.js';
import { INSERT_SETTINGS } from '../../core/cdc/connect/plugins/clickhouse-sink/task.js';
import { sinkConfig } from './pipelines.js';
import { mergesEnded } from './chdb-direct.js';

export interface Block {
  body: Buffer;
  first: number;
  last: number;
}

/** Topic values (null for a tombstone, which carries no row) as the sink's blocks of `size` records. */
export function blocksOf(values: { offset: number; value: string | null }[], size: number): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < values.length; i += size) {
    const part = values.slice(i, i + size);
    const rows = part.flatMap((v) => (v.value === null ? [] : [v.value]));
    if (rows.length) out.push({ body: Buffer.from(rows.join('\n') + '\n'), first: part[0]!.offset, last: part[part.length - 1]!.offset });
  }
  return out;
}

/**
 * Sends every block into a fresh copy of the target table (`table`), after the server's
 * background merges have ended; returns the wall time and the process CPU of the sends.
 */
export async function sendRequestsAlone(url: string, assets: string, blocks: Block[], table: string, query: (sql: string) => Promise<string>): Promise<{ ms: number; cpu: NodeJS.CpuUsage }> {
  const sink = parseSinkConfig(sinkConfig(assets, new URL(url).port).config);
  const client = createClient({ url, max_open_connections: 4 });
  const lean = new LeanHttp({ url, username: 'default', password: '', database: 'default', requestTimeoutMs: 30_000, maxOpenConnections: 4 });
  try {
    const state = new StateStore(client, { onCluster: '', zkPath: '/kafka-connect', zkDatabase: 'connect_state' }, lean);
    await client.command({ query: readFileSync(path.join(assets, 'target-table.sql'), 'utf8').replace('default.customers', `default.${table}`) });
    await mergesEnded(query);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const b of blocks) {
      await state.set(`${table}-0`, b.first, b.last, 'BEFORE_PROCESSING');
      await lean.exec(`INSERT INTO \`default\`.\`${table}\` FORMAT JSONEachRow`, b.body, { ...INSERT_SETTINGS, insert_deduplication_token: `${table}-0-${b.first}-${b.last}`, ...sink.clickhouseSettings });
      await state.set(`${table}-0`, b.first, b.last, 'AFTER_PROCESSING');
    }
    return { ms: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
  } finally {
    lean.close();
    await client.close();
  }
}
