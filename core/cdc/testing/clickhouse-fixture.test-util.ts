/**
 * What the CDC tests share: an embedded ClickHouse service over real chDB with either a
 * @clickhouse/client and an embedded topic log (`useClickHouseAndLog`, for the sink and the
 * queue feeder) or the Connect service with its embedded source and log (`useClickHouseAndConnect`,
 * for whole pipelines), in a temporary folder that is removed afterwards. Each registers the
 * suite's beforeAll/afterAll; the fields are set once beforeAll has run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { silentLogger, type Logger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { EmbeddedLog } from '../log/embedded-log.js';
import { startClickHouseService, type ClickHouseApi } from '../clickhouse/service.js';
import { startConnectService, type ConnectApi } from '../connect/service.js';

/** The seed's CDC configs and DDL (assets/cdc). */
export const CDC_ASSETS = fileURLToPath(new URL('../../../assets/cdc', import.meta.url));

export interface ClickHouseFixture {
  dir: string;
  ch: ServiceHandle<ClickHouseApi>;
  client: ClickHouseClient;
  log: EmbeddedLog;
}

export function useClickHouseAndLog(tmpPrefix: string): ClickHouseFixture {
  const fx = {} as ClickHouseFixture;
  beforeAll(async () => {
    fx.dir = mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
    fx.ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: path.join(fx.dir, 'ch'), log: silentLogger, peers: {} });
    fx.client = createClient({ url: fx.ch.url });
    fx.log = await EmbeddedLog.open({ dir: path.join(fx.dir, 'log'), retentionCheckMs: 0 });
  });
  afterAll(async () => {
    await fx.log?.close();
    await fx.client?.close();
    await fx.ch?.close();
    if (fx.dir) rmSync(fx.dir, { recursive: true, force: true });
  });
  return fx;
}

export interface PipelineFixture {
  dir: string;
  ch: ServiceHandle<ClickHouseApi>;
  connect: ServiceHandle<ConnectApi>;
  /** Closes the Connect service and starts it again on the same data (a restart of `loupe services`). */
  restartConnect(): Promise<void>;
}

export function useClickHouseAndConnect(tmpPrefix: string, opts: { log?: Logger } = {}): PipelineFixture {
  const fx = {} as PipelineFixture;
  const startConnect = () => startConnectService({ host: '127.0.0.1', port: 0, dataDir: path.join(fx.dir, 'connect'), log: opts.log ?? silentLogger, peers: { clickhouse: fx.ch.url } });
  fx.restartConnect = async () => {
    await fx.connect.close();
    fx.connect = await startConnect();
  };
  beforeAll(async () => {
    fx.dir = mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
    fx.ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: path.join(fx.dir, 'ch'), log: silentLogger, peers: {} });
    fx.connect = await startConnect();
  });
  afterAll(async () => {
    await fx.connect?.close();
    await fx.ch?.close();
    if (fx.dir) rmSync(fx.dir, { recursive: true, force: true });
  });
  return fx;
}

/** Calls `fn` every 100 ms until `ok` holds or `ms` pass, and returns its last value (the test asserts on it). */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The target's `customers` read as the source's `id, name` rows (JSON text, ordered by id), with
 * FINAL or without: what a pipeline test compares with the source.
 */
export async function targetIdNames(fx: PipelineFixture, final: 'FINAL' | ''): Promise<string> {
  return JSON.stringify(
    (await fx.ch.api.query(`SELECT id, name FROM customers ${final} ORDER BY id`))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; name: string }),
  );
}
