import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../../common/log.js';
import type { ServiceHandle } from '../../../../common/service.js';
import { freePort } from '../../../../common/testing/free-port.js';
import { EmbeddedLog } from '../../../log/embedded-log.js';
import { startClickHouseService, type ClickHouseApi } from '../../../clickhouse/service.js';
import { runSinkUntilCaughtUp } from './harness.test-util.js';

let dir: string;
let ch: ServiceHandle<ClickHouseApi>;
let log: EmbeddedLog;
const seed = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../../assets/cdc/sink-variant1.json'), 'utf8')) as { config: Record<string, string> };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-retry-'));
  ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'ch'), log: silentLogger, peers: {} });
  log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), retentionCheckMs: 0 });
  await ch.api.query(readFileSync(path.resolve(__dirname, '../../../../../assets/cdc/target-table.sql'), 'utf8'));
});
afterAll(async () => {
  await log?.close();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts forwarding `port` to ClickHouse after `delayMs`: a server that comes up late. */
function proxyLater(port: number, target: number, delayMs: number): { close(): Promise<void> } {
  const server = net.createServer((c) => {
    const up = net.connect(target, '127.0.0.1');
    c.pipe(up).pipe(c);
    c.on('error', () => up.destroy());
    up.on('error', () => c.destroy());
  });
  const timer = setTimeout(() => server.listen(port, '127.0.0.1'), delayMs);
  return {
    close: () =>
      new Promise<void>((r) => {
        clearTimeout(timer);
        if (!server.listening) return r();
        server.close(() => r());
      }),
  };
}

describe('ClickHouse sink errors', () => {
  it('keeps retrying a refused connection within errors.retry.timeout and delivers once the server is up', async () => {
    await log.produce('customers', [{ key: '{"id":7}', value: JSON.stringify({ created_at: 1_700_000_000_000, id: 7, name: 'late', __deleted: 'false' }) }]);
    const port = await freePort();
    const proxy = proxyLater(port, Number(new URL(ch.url).port), 1500);
    try {
      const config = { ...seed.config, port: String(port), 'errors.retry.timeout': '30' };
      expect(await runSinkUntilCaughtUp(log, config, { group: 'g-retry', dataDir: dir })).toBe('done');
    } finally {
      await proxy.close();
    }
    expect(await ch.api.query('SELECT id, name FROM customers FINAL WHERE id = 7')).toBe('{"id":7,"name":"late"}\n');
  });

  it('gives up after errors.retry.timeout with the connection error', async () => {
    const port = await freePort();
    const config = { ...seed.config, port: String(port), 'errors.retry.timeout': '1' };
    const t0 = Date.now();
    await expect(runSinkUntilCaughtUp(log, config, { group: 'g-giveup', dataDir: dir })).rejects.toThrow(/ECONNREFUSED|connect/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });

  it('with errors.tolerance=all skips a record that is not a row and inserts the rest', async () => {
    await log.produce('tolerant', [
      { key: null, value: JSON.stringify({ created_at: 1_700_000_000_000, id: 8, name: 'kept', __deleted: 'false' }) },
      { key: null, value: '["an array"]' },
    ]);
    const base = { ...seed.config, port: new URL(ch.url).port, topics: 'tolerant', topic2TableMap: 'tolerant=customers', exactlyOnce: 'false' };
    await expect(runSinkUntilCaughtUp(log, base, { group: 'g-strict', dataDir: dir })).rejects.toThrow(/Expected a struct or map value/);
    expect(await runSinkUntilCaughtUp(log, { ...base, 'errors.tolerance': 'all' }, { group: 'g-tolerant', dataDir: dir })).toBe('done');
    expect(await ch.api.query('SELECT name FROM customers FINAL WHERE id = 8')).toBe('{"name":"kept"}\n');
  });
});
