/**
 * The pipeline wizard's host methods over the real embedded services: the seed's pipeline with
 * the running services' addresses (so it captures the embedded source at its own port and sinks
 * into this ClickHouse), ClickHouse statements with the embedded translation notice and
 * ClickHouse's own errors, and SYSTEM STOP/START MERGES.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../common/service.js';
import type { ConnectApi } from '../../cdc/connect/service.js';
import { HostCallError } from '../area.js';
import { startCdcRuntime, until, type CdcTestRuntime } from '../testing/cdc-runtime.js';
import { cdcArea } from './cdc.js';

let env: CdcTestRuntime;
let connect: ServiceHandle<ConnectApi>;
let ch: ServiceHandle<unknown>;

beforeAll(async () => {
  // sourcePort 0: the embedded source listens at an address of its own, as under loupe serve
  env = await startCdcRuntime({ prefix: 'loupe-cdc-wizard-', sourcePort: 0 });
  ({ connect, ch } = env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const call: CdcTestRuntime['call'] = (method, params) => env.call(method, params);

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

describe('cdc.translateDdl: the embedded form beside the cluster form, nothing run', () => {
  it("gives embedded ClickHouse's single-node form of the seed's DDL with its notices", async () => {
    const v2 = await call('cdc.pipelineTemplate', { variant: 2 });
    const target = await call('cdc.translateDdl', { sql: v2.statements[0]!.sql });
    expect(target.embedded).toBe(true);
    expect(target.original).toBe(v2.statements[0]!.sql);
    expect(target.sql).toMatch(/ENGINE = ReplacingMergeTree\(created_at, __deleted\)/);
    expect(target.sql).not.toMatch(/ON CLUSTER '\{cluster\}'/);
    expect(target.sql).toMatch(/non_replicated_deduplication_window = 10000/);
    expect(target.notices.some((n) => /ON CLUSTER/.test(n))).toBe(true);
    expect(target.notices.some((n) => /ReplicatedReplacingMergeTree/.test(n))).toBe(true);
    const queue = await call('cdc.translateDdl', { sql: v2.statements[1]!.sql });
    expect(queue.sql).toMatch(/ENGINE = Null/);
    expect(queue.notices.some((n) => /Kafka/.test(n))).toBe(true);
    // a preview only: the queue table was not created
    await expect(call('cdc.targetRows', { table: 'customers_queue' })).rejects.toThrow(/customers_queue/);
  });

  it('gives the text as written when the target is a real ClickHouse (no embedded one running)', async () => {
    const remote = { ...env.rt, handle: () => undefined, urlOf: () => 'http://clickhouse.example:8123' };
    const spec = cdcArea['cdc.translateDdl'];
    const v1 = await call('cdc.pipelineTemplate', { variant: 1 });
    const t = await spec.handler(spec.params.parse({ sql: v1.statements[0]!.sql }), remote);
    expect(t).toEqual({ original: v1.statements[0]!.sql, sql: v1.statements[0]!.sql, notices: [], embedded: false });
  });

  it("refuses what has no single-node form in ClickHouse's words", async () => {
    const err = await call('cdc.translateDdl', { sql: "CREATE TABLE g (p String, t DateTime, v Float64, ts UInt32) ENGINE = GraphiteMergeTree('graphite_rollup') ORDER BY t" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).message).toMatch(/^Code: \d+\. DB::Exception: .*graphite/i);
  });
});

describe('cdc.putConnectorConfig: PUT /connectors/{name}/config', () => {
  it("replaces a connector's config, and answers a refused config with Kafka Connect's {error_code,message}", async () => {
    const v1 = await call('cdc.pipelineTemplate', { variant: 1 });
    const name = 'put-config-source';
    const config = { ...v1.source.config, name, 'topic.prefix': 'putcfg', 'database.server.id': '5501', 'table.include.list': 'demo.customers', 'database.include.list': 'demo' };
    const first = await call('cdc.putConnectorConfig', { name, config });
    expect(first).toMatchObject({ name, created: true, type: 'source' });
    const changed = await call('cdc.putConnectorConfig', { name, config: { ...config, 'snapshot.mode': 'no_data' } });
    expect(changed.created).toBe(false);
    expect(changed.config['snapshot.mode']).toBe('no_data');
    const listed = (await call('cdc.connectors', {})).connectors.find((c) => c.name === name)!;
    expect(listed.config['snapshot.mode']).toBe('no_data');

    const refused = await call('cdc.putConnectorConfig', { name, config: { ...config, 'tasks.max': 'many' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HostCallError);
    const detail = (refused as HostCallError).detail as { error_code: number; message: string };
    expect(detail.error_code).toBe(400);
    expect(detail.message).toMatch(/^Connector configuration is invalid and contains the following 1 error\(s\):\nInvalid value many for configuration tasks\.max/);
    const mismatch = await call('cdc.putConnectorConfig', { name, config: { ...config, name: 'other' } }).catch((e: unknown) => e);
    expect(((mismatch as HostCallError).detail as { message: string }).message).toBe("Connector name configuration (other) doesn't match connector name in the URL (put-config-source)");
    await call('cdc.connectorAction', { name, action: 'delete' });
  }, 30_000);
});
