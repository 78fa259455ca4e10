/**
 * The seed sink's requests with nothing of Kafka Connect around them: for every block, the
 * exactly-once sequence the sink sends (BEFORE_PROCESSING state write, the insert with the sink's
 * settings and deduplication token, AFTER_PROCESSING state write), through the sink's own request
 * path (lean-http.ts, the requests @clickhouse/client would send) and StateStore's statement, with the JSONEachRow bodies already built. However cheap the sink's
 * own work became, it could go no faster than this on the same server and machine; against the
 * peer (the same bodies straight into chDB) it is the ceiling of bench:cdc's ratio.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@clickhouse/client';
import { parseSinkConfig, type SinkConfig } from '../../core/cdc/connect/plugins/clickhouse-sink/config.js';
import { LeanHttp } from '../../core/cdc/connect/plugins/clickhouse-sink/lean-http.js';
import { stateWriteQuery } from '../../core/cdc/connect/plugins/clickhouse-sink/state.js';
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

/** The sink's two kinds of write: LeanHttp's, or the same statements straight to the engine. */
export type SinkWrites = Pick<LeanHttp, 'command' | 'exec'>;

/** Milliseconds of each request of the sequence, block by block. */
export interface RequestTimes {
  before: number[];
  insert: number[];
  after: number[];
}

/**
 * The exactly-once sequence of every block through `writes`, one request after another as the sink
 * sends them; each request's time goes to `times` when given.
 */
export async function sendBlocks(writes: SinkWrites, blocks: Block[], table: string, sink: Pick<SinkConfig, 'zkDatabase' | 'clickhouseSettings'>, times?: RequestTimes): Promise<void> {
  const timed = async (into: number[] | undefined, request: () => Promise<void>) => {
    const t0 = performance.now();
    await request();
    into?.push(performance.now() - t0);
  };
  const key = `${table}-0`;
  for (const b of blocks) {
    await timed(times?.before, () => writes.command(stateWriteQuery(sink.zkDatabase, key, b.first, b.last, 'BEFORE_PROCESSING')));
    await timed(times?.insert, () => writes.exec(`INSERT INTO \`default\`.\`${table}\` FORMAT JSONEachRow`, b.body, { ...INSERT_SETTINGS, insert_deduplication_token: `${key}-${b.first}-${b.last}`, ...sink.clickhouseSettings }));
    await timed(times?.after, () => writes.command(stateWriteQuery(sink.zkDatabase, key, b.first, b.last, 'AFTER_PROCESSING')));
  }
}

/** The seed sink's config as the connector reads it: its clickhouseSettings, its state table. */
export function seedSink(assets: string): SinkConfig {
  return parseSinkConfig(sinkConfig(assets, '8123').config);
}

/**
 * Sends every block into a fresh copy of the target table (`table`), after the server's
 * background merges have ended; returns the wall time and the process CPU of the sends.
 */
export async function sendRequestsAlone(url: string, assets: string, blocks: Block[], table: string, query: (sql: string) => Promise<string>): Promise<{ ms: number; cpu: NodeJS.CpuUsage }> {
  const client = createClient({ url, max_open_connections: 4 });
  const lean = new LeanHttp({ url, username: 'default', password: '', database: 'default', requestTimeoutMs: 30_000, maxOpenConnections: 4 });
  try {
    await client.command({ query: readFileSync(path.join(assets, 'target-table.sql'), 'utf8').replace('default.customers', `default.${table}`) });
    await mergesEnded(query);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await sendBlocks(lean, blocks, table, seedSink(assets));
    return { ms: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
  } finally {
    lean.close();
    await client.close();
  }
}
