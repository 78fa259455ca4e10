/**
 * Where the pipeline's CPU goes, per change and by stage: the seed pipeline (worker path) run once
 * more, on its own data, under V8's sampling CPU profiler (node:inspector), with the sink task on
 * the main thread (LOUPE_CONNECT_SINK_THREADS=0) so that one profile sees every stage. Each
 * sample's self time goes to the stage of the code it was in, told by the source file:
 *
 *   source commit (core/cdc/source, sql.js) · log append and fetch (core/cdc/log) · envelope
 *   (the Debezium task) · converters · transforms · worker (dispatch, offsets, topic creation) ·
 *   sink conversion (the ClickHouse sink task) · requests (@clickhouse/client, node's HTTP and
 *   sockets, the embedded server's JavaScript) · garbage collector · other JavaScript
 *
 * chDB's own threads run native code the profiler does not see (they are in the process CPU of
 * `bench:cdc`'s main table). Sampling at 1 ms, the figures are estimates, not exact counts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { drainPending } from 'chdb';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../core/common/log.js';
import { startClickHouseService } from '../../core/cdc/clickhouse/service.js';
import { startConnectService } from '../../core/cdc/connect/service.js';
import { post, SOURCE_CONFIG, sinkConfig, topicEnd, visibleEnd } from './pipelines.js';
import { Workload } from './workload.js';

export const STAGES = ['source commit', 'log append and fetch', 'envelope (Debezium task)', 'converters', 'transforms', 'worker', 'sink conversion', 'requests (client, HTTP, server JS)', 'garbage collector', 'other JavaScript'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * The stage of a profile node, by its function's file (and V8's pseudo-functions); 'caller' for
 * code that works for whoever calls it (V8 builtins, Node's own modules but its network stack),
 * whose time goes to the caller's stage.
 */
export function stageOf(url: string, functionName: string): Stage | 'caller' | null {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)') return null;
  const u = url.replace(/\\/g, '/');
  // sql.js's SQLite is the process's only WebAssembly
  if (/\/core\/cdc\/source\/|\/sql\.js\/|sql-wasm|^wasm:/.test(u)) return 'source commit';
  if (/\/core\/cdc\/log\//.test(u)) return 'log append and fetch';
  if (/\/plugins\/debezium-mysql\//.test(u)) return 'envelope (Debezium task)';
  if (/\/connect\/converters\/|\/common\/exact-json/.test(u)) return 'converters';
  if (/\/connect\/transforms\//.test(u)) return 'transforms';
  if (/\/plugins\/clickhouse-sink\//.test(u)) return 'sink conversion';
  if (/\/connect\/(worker|rest)\/|\/connect\/(slice|plugin)\./.test(u)) return 'worker';
  if (/@clickhouse\/client|\/core\/cdc\/clickhouse\/|\/chdb\/|^node:(_http|http|net|internal\/(http|net|stream_base|deps\/undici))/.test(u)) return 'requests (client, HTTP, server JS)';
  if (u === '' || u.startsWith('node:')) return 'caller';
  return 'other JavaScript';
}

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

/** Microseconds of self time per stage in a V8 CPU profile. */
export function selfTimeByStage(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }): Map<Stage, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stageById = new Map<number, Stage | null>();
  const resolve = (id: number | undefined): Stage | null => {
    if (id === undefined) return 'other JavaScript';
    const known = stageById.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const own = stageOf(n.callFrame.url, n.callFrame.functionName);
    // a builtin or Node's own code takes its caller's stage (the root's: other JavaScript)
    const stage = own === 'caller' ? (parent.has(id) ? resolve(parent.get(id)) ?? 'other JavaScript' : 'other JavaScript') : own;
    stageById.set(id, stage);
    return stage;
  };
  for (const n of profile.nodes) resolve(n.id);
  const out = new Map<Stage, number>(STAGES.map((s) => [s, 0]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // a sample's time is the delta to the next one
  for (let i = 0; i < samples.length; i++) {
    const stage = stageById.get(samples[i]!);
    const us = deltas[i + 1] ?? 0;
    if (stage) out.set(stage, out.get(stage)! + us);
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Commits `changes` changes to the embedded source while the source connector is paused, then
 * lets the pipeline carry them into embedded ClickHouse, the whole under the profiler.
 */
export async function profileStages(changes: number, assets: string, log: (m: string) => void): Promise<{ changes: number; usPerChange: Map<Stage, number>; wallMs: number }> {
  // chDB binds one data directory per process: the runs before must have let go of theirs
  await drainPending();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-cdc-profile-'));
  const chDir = path.join(dir, 'clickhouse');
  mkdirSync(chDir, { recursive: true });
  const ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: chDir, log: silentLogger, peers: {} });
  const connect = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'connect'), log: silentLogger, peers: { clickhouse: ch.url } }, { ...process.env, LOUPE_CONNECT_SINK_THREADS: '0' });
  const inspector = new Session();
  inspector.connect();
  try {
    await ch.api.query(readFileSync(path.join(assets, 'target-table.sql'), 'utf8'));
    await post(`${connect.url}/connectors`, SOURCE_CONFIG);
    await post(`${connect.url}/connectors`, sinkConfig(assets, new URL(ch.url).port));
    const work = new Workload();
    for (const r of (await connect.api.source.execute('demo', 'SELECT id, name FROM customers'))[0]!.rows) work.live.set(r[0] as number, r[1] as string);
    while ((await topicEnd(connect.api.topicLog)) < work.live.size) await sleep(10);
    const start = await topicEnd(connect.api.topicLog);
    await post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/pause`, undefined, 'PUT');
    await sleep(1200);

    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 1000 });
    await inspector.post('Profiler.start');
    const t0 = performance.now();
    let committed = 0;
    while (committed < changes) {
      const tx = work.next(Math.min(5000, Math.max(10, changes - committed)));
      connect.api.source.executeSync('demo', tx.sql);
      committed += tx.changes;
    }
    log(`profile: ${committed} changes committed, pipeline released`);
    await post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/resume`, undefined, 'PUT');
    const until = Date.now() + 900_000;
    for (;;) {
      const end = await topicEnd(connect.api.topicLog);
      if (end >= start + committed && (await visibleEnd((sql) => ch.api.query(sql))) >= end) break;
      if (Date.now() > until) throw new Error('the profiled pipeline did not catch up');
      await sleep(50);
    }
    const wallMs = performance.now() - t0;
    const { profile } = await inspector.post('Profiler.stop');
    const byStage = selfTimeByStage(profile as unknown as { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] });
    return { changes: committed, usPerChange: new Map([...byStage].map(([s, us]) => [s, us / committed])), wallMs };
  } finally {
    inspector.disconnect();
    await connect.close();
    await ch.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
