/**
 * For host tests of the cdc area: embedded ClickHouse and the connect service (source, topic log,
 * worker) in a temporary folder, a HostRuntime over them, and `call` to run a contract method the
 * way the dispatcher does (parameters parsed, then the handler).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle, ServiceName } from '../../common/service.js';
import { startConnectService, type ConnectApi } from '../../cdc/connect/service.js';
import { startClickHouseService } from '../../cdc/clickhouse/service.js';
import type { HostRuntime } from '../area.js';
import type { MethodName, Params, Result } from '../contract.js';
import { cdcArea } from '../areas/cdc.js';

export interface CdcTestRuntime {
  connect: ServiceHandle<ConnectApi>;
  ch: ServiceHandle<unknown>;
  rt: HostRuntime;
  call<M extends keyof typeof cdcArea & MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  close(): Promise<void>;
}

export async function startCdcRuntime(opts: { prefix: string; sourcePort?: number; emit?: HostRuntime['emit'] }): Promise<CdcTestRuntime> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), opts.prefix));
  fs.mkdirSync(path.join(dir, 'ch'));
  fs.mkdirSync(path.join(dir, 'connect'));
  const ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'ch'), log: silentLogger, peers: {} });
  const connect = await startConnectService({ host: '127.0.0.1', port: 0, ...(opts.sourcePort !== undefined ? { sourcePort: opts.sourcePort } : {}), dataDir: path.join(dir, 'connect'), log: silentLogger, peers: { clickhouse: ch.url } });
  const rt: HostRuntime = {
    handle: <Api,>(name: ServiceName) => (name === 'connect' ? (connect as unknown as ServiceHandle<Api>) : name === 'clickhouse' ? (ch as unknown as ServiceHandle<Api>) : undefined),
    urlOf: (name) => (name === 'connect' ? connect.url : name === 'clickhouse' ? ch.url : 'http://127.0.0.1:1'),
    emit: opts.emit ?? (() => undefined),
    dataDir: dir,
    log: silentLogger,
  };
  return {
    connect,
    ch,
    rt,
    async call(method, params) {
      const spec = cdcArea[method];
      return (await spec.handler(spec.params.parse(params) as never, rt)) as Result<typeof method>;
    },
    async close() {
      await connect.close();
      await ch.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `f` every 100 ms until it returns something truthy; fails naming `what` after `ms`. */
export async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
