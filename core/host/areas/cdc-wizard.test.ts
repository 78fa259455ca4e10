/**
 * The pipeline wizard's host methods over the real embedded services: the seed's pipeline with
 * the running services' addresses (so it captures the embedded source at its own port and sinks
 * into this ClickHouse), ClickHouse statements with the embedded translation notice and
 * ClickHouse's own errors, and SYSTEM STOP/START MERGES.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle, ServiceName } from '../../common/service.js';
import { startConnectService, type ConnectApi } from '../../cdc/connect/service.js';
import { startClickHouseService } from '../../cdc/clickhouse/service.js';
import type { HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { MethodName, Params, Result } from '../contract.js';
import { cdcArea } from './cdc.js';

let dir: string;
let connect: ServiceHandle<ConnectApi>;
let ch: ServiceHandle<unknown>;
let rt: HostRuntime;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cdc-wizard-'));
  fs.mkdirSync(path.join(dir, 'ch'));
  fs.mkdirSync(path.join(dir, 'connect'));
  ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'ch'), log: silentLogger, peers: {} });
  connect = await startConnectService({ host: '127.0.0.1', port: 0, sourcePort: 0, dataDir: path.join(dir, 'connect'), log: silentLogger, peers: { clickhouse: ch.url } });
  rt = {
    handle: <Api,>(name: ServiceName) => (name === 'connect' ? (connect as unknown as ServiceHandle<Api>) : name === 'clickhouse' ? (ch as unknown as ServiceHandle<Api>) : undefined),
    urlOf: (name) => (name === 'connect' ? connect.url : name === 'clickhouse' ? ch.url : 'http://127.0.0.1:1'),
    emit: () => undefined,
    dataDir: dir,
    log: silentLogger,
  };
}, 120_000);

afterAll(async () => {
  await connect?.close();
  await ch?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call<M extends keyof typeof cdcArea & MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
  const spec = cdcArea[method];
  return (await spec.handler(spec.params.parse(params) as never, rt)) as Result<M>;
}

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the pipeline wizard against the embedded services', () => {
  it("fills the seed's pipeline with the running services' addresses", async () => {
    const own = connect.api.sourceAddress;
    const v1 = await call('cdc.pipelineTemplate', { variant: 1 });
    expect(v1.source.config['database.hostname']).toBe(own.host);
    expect(v1.source.config['database.port']).toBe(String(own.port));
    expect(v1.sink!.config.port).toBe(new URL(ch.url).port);
    expect(v1.statements.map((s) => s.label)).toEqual(['Target table']);
    expect(v1.statements[0]!.sql).toContain("ON CLUSTER '{cluster}'");
    expect(v1.topic).toBe('customers');
    const v2 = await call('cdc.pipelineTemplate', { variant: 2 });
    expect(v2.sink).toBeUndefined();
    expect(v2.statements.map((s) => s.label)).toEqual(['Target table', 'Queue table', 'Materialized view']);
    expect(v2.source.config['value.converter.schemas.enable']).toBe('true');
    expect(v2.topic).toBe('demo.customers');
    await expect(call('cdc.pipelineTemplate', { variant: 3 as 1 })).rejects.toThrow();
  });

  it("runs ClickHouse statements with the translation notice, and answers ClickHouse's errors in its words", async () => {
    const v1 = await call('cdc.pipelineTemplate', { variant: 1 });
    const created = await call('cdc.targetSql', { sql: v1.statements[0]!.sql });
    expect(created.notice).toMatch(/ON CLUSTER/);
    const err = await call('cdc.targetSql', { sql: 'SELEC 1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).message).toMatch(/^Code: 62\. DB::Exception: Syntax error/);
    expect((err as HostCallError).detail).toMatchObject({ code: '62' });
  });

  it('captures the embedded source at its own address into the target, and stops merges so versions stay apart', async () => {
    const v1 = await call('cdc.pipelineTemplate', { variant: 1 });
    await call('cdc.targetSql', { sql: v1.statements[0]!.sql });
    expect(await call('cdc.merges', { table: 'customers', stopped: true })).toMatchObject({ stopped: true, statement: 'SYSTEM STOP MERGES `default`.`customers`' });
    await call('cdc.createConnector', v1.source);
    await call('cdc.createConnector', v1.sink!);
    await call('cdc.sql', { sql: "INSERT INTO customers (created_at, id, name) VALUES ('2024-01-01 00:00:01', 50, 'v1')" });
    await until('id 50 in the target', async () => (await call('cdc.targetRows', { table: 'customers' })).rows.some((r) => Number(r.id) === 50));
    for (let v = 2; v <= 4; v++) {
      await call('cdc.sql', { sql: `UPDATE customers SET name = 'v${v}', created_at = '2024-01-01 00:00:0${v}' WHERE id = 50` });
      await until(`version ${v} of id 50`, async () => (await call('cdc.targetRows', { table: 'customers' })).rows.some((r) => r.name === `v${v}`));
    }
    // four blocks, four parts, no background merge while stopped
    await new Promise((r) => setTimeout(r, 1500));
    const raw = await call('cdc.targetRows', { table: 'customers' });
    expect(raw.rows.filter((r) => Number(r.id) === 50).map((r) => r.name)).toEqual(['v1', 'v2', 'v3', 'v4']);
    const fin = await call('cdc.targetRows', { table: 'customers', final: true });
    expect(fin.rows.filter((r) => Number(r.id) === 50).map((r) => r.name)).toEqual(['v4']);
    expect(await call('cdc.merges', { table: 'customers', stopped: false })).toMatchObject({ stopped: false });

    // the sink's exactly-once state: the last block of customers-0 written through (AFTER_PROCESSING)
    const state = await call('cdc.sinkState', { connector: v1.sink!.name });
    expect(state).toMatchObject({ database: 'default', table: 'connect_state' });
    const row = state.rows.find((r) => r.key === 'customers-0')!;
    expect(row.state).toBe('AFTER_PROCESSING');
    const end = (await call('cdc.topics', {})).topics.find((t) => t.name === 'customers')!.partitions[0]!.endOffset;
    expect(row.maxOffset).toBe(end - 1);
    await expect(call('cdc.sinkState', { connector: v1.source.name })).rejects.toThrow(/is not a ClickHouse sink connector/);
  }, 90_000);
});
