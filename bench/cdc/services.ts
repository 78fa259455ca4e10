/**
 * The embedded ClickHouse and Connect services of a CDC bench that drives them itself
 * (bench:cdc:stages, bench:cdc:contention), in a temporary directory removed afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { silentLogger } from '../../core/common/log.js';
import type { ServiceHandle } from '../../core/common/service.js';
import { startClickHouseService, type ClickHouseApi } from '../../core/cdc/clickhouse/service.js';
import { startConnectService, type ConnectApi } from '../../core/cdc/connect/service.js';

export interface CdcServices {
  /** ClickHouse's data directory (its chDB files are in `chdb` under it). */
  chDir: string;
  ch: ServiceHandle<ClickHouseApi>;
  client: ClickHouseClient;
  connect: ServiceHandle<ConnectApi>;
  /** Closes the services (again at the end; safe to call twice). */
  close(): Promise<void>;
}

/** Runs `fn` with the services started on free ports of 127.0.0.1; closes and removes them after. */
export async function withCdcServices<T>(name: string, fn: (s: CdcServices) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `loupe-bench-${name}-`));
  const chDir = path.join(dir, 'clickhouse');
  mkdirSync(chDir, { recursive: true });
  const ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: chDir, log: silentLogger, peers: {} });
  const client = createClient({ url: ch.url });
  const connect = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'connect'), log: silentLogger, peers: { clickhouse: ch.url } }).catch(async (err: unknown) => {
    await client.close();
    await ch.close();
    throw err;
  });
  const close = async () => {
    await connect.close().catch(() => {});
    await client.close().catch(() => {});
    await ch.close().catch(() => {});
  };
  try {
    return await fn({ chDir, ch, client, connect, close });
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}
