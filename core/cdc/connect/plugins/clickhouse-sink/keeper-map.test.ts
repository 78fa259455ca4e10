import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../../common/log.js';
import type { ServiceHandle } from '../../../../common/service.js';
import { EmbeddedLog } from '../../../log/embedded-log.js';
import { startClickHouseService, type ClickHouseApi } from '../../../clickhouse/service.js';
import { runSinkUntilCaughtUp } from './harness.test-util.js';

// chDB allows one data directory per process, so this server (without DDL translation, like a
// single ClickHouse server that has no keeper_map_path_prefix) lives in its own test file.
let dir: string;
let ch: ServiceHandle<ClickHouseApi>;
let log: EmbeddedLog;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-km-'));
  ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'ch'), log: silentLogger, peers: {} }, { translateDdl: false });
  log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), retentionCheckMs: 0 });
});
afterAll(async () => {
  await log?.close();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exactlyOnce against a server without keeper_map_path_prefix', () => {
  it('fails the task with the seed rule and what the server said', async () => {
    const seed = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../../assets/cdc/sink-variant1.json'), 'utf8')) as { config: Record<string, string> };
    await ch.api.query('CREATE TABLE customers (created_at DateTime64, id Int64, name Nullable(String), __deleted UInt8) ENGINE = ReplacingMergeTree(created_at, __deleted) ORDER BY id');
    await log.produce('customers', [{ key: null, value: '{"id":1}' }]);
    const config = { ...seed.config, port: new URL(ch.url).port };
    await expect(runSinkUntilCaughtUp(log, config, { group: 'g', dataDir: dir })).rejects.toThrow(
      /^exactlyOnce=true requires keeper_map_path_prefix in the ClickHouse server configuration, e\.g\. <keeper_map_path_prefix>\/keeper_map_tables<\/keeper_map_path_prefix>.*The server said: KeeperMap is disabled because 'keeper_map_path_prefix' config is not defined/s,
    );
    // without exactlyOnce the same server takes the rows
    await runSinkUntilCaughtUp(log, { ...config, exactlyOnce: 'false' }, { group: 'g', dataDir: dir });
    expect(await ch.api.query('SELECT id FROM customers')).toBe('{"id":1}\n');
  });
});
