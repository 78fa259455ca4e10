/**
 * `npm run bench:cdc` — the CDC pipeline end to end (issue 5, item 10):
 *
 * 1. commits N changes (60 % inserts, 30 % updates, 10 % deletes) to the embedded source;
 * 2. runs the pipeline source change log → topic → ClickHouse sink (the seed's sink config,
 *    exactlyOnce on) → embedded ClickHouse over HTTP, and times until the last change is
 *    visible in the target; checks `SELECT … FINAL` against the source row for row;
 * 3. inserts the same rows straight into chDB as JSONEachRow in 5000-row blocks (the peer);
 * 4. drives 1,000 changes/s for a while and reports the change-to-target latency.
 *
 *   --changes N          changes for the throughput run (default 1,000,000; env LOUPE_BENCH_CDC_CHANGES)
 *   --rate R             changes per second for the latency run (default 1000)
 *   --latency-seconds S  length of the latency run (default 10)
 *   --out FILE           JSON results (default bench/results/cdc-latest.json)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '@clickhouse/client';
import { Session } from 'chdb';
import { formatMs, formatRate, formatRatio, formatTable, positiveInt } from './bench-util.js';
import { silentLogger } from '../core/common/log.js';
import { EmbeddedSource } from '../core/cdc/source/embedded-source.js';
import { EmbeddedLog } from '../core/cdc/log/embedded-log.js';
import { startClickHouseService } from '../core/cdc/clickhouse/service.js';
import { translateDdl } from '../core/cdc/clickhouse/translate.js';
import type { SinkStep } from '../core/cdc/connect/plugins/clickhouse-sink/task.js';
import { Workload } from './cdc/workload.js';
import { startBridge } from './cdc/bridge.js';
import { startSinkLoop } from './cdc/sink-loop.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.resolve(here, '../assets/cdc');
const { values: args } = parseArgs({
  options: {
    changes: { type: 'string' },
    rate: { type: 'string' },
    'latency-seconds': { type: 'string' },
    out: { type: 'string' },
  },
});
const N = positiveInt(args.changes ?? process.env.LOUPE_BENCH_CDC_CHANGES, '--changes', 1_000_000);
const RATE = positiveInt(args.rate, '--rate', 1000);
const LAT_S = positiveInt(args['latency-seconds'], '--latency-seconds', 10);
const OUT = path.resolve(args.out ?? path.join(here, 'results/cdc-latest.json'));
const TX_SIZE = 5000;
const TOPIC = 'customers';

const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-cdc-'));
  const chDir = path.join(dir, 'clickhouse');
  mkdirSync(chDir, { recursive: true });
  try {
    // the pipeline: source change log -> topic -> ClickHouse sink -> embedded ClickHouse
    const source = await EmbeddedSource.open({ dir: path.join(dir, 'source'), seedDemo: true });
    const work = new Workload();
    const ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: chDir, log: silentLogger, peers: {} });
    const client = createClient({ url: ch.url });
    const targetDdl = readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8');
    await client.command({ query: targetDdl });
    const topicLog = await EmbeddedLog.open({ dir: path.join(dir, 'log'), retentionCheckMs: 0 });
    await topicLog.createTopic(TOPIC, { partitions: 1 });
    const seed = JSON.parse(readFileSync(path.join(ASSETS, 'sink-variant1.json'), 'utf8')) as { config: Record<string, string> };
    const sinkConfig: Record<string, string> = { ...seed.config, port: new URL(ch.url).port };
    let onStep: ((step: SinkStep, b: { min: number; max: number }) => void) | undefined;
    const sink = await startSinkLoop(topicLog, sinkConfig, 'connect-clickhouse-sink', dir, { step: (s, b) => onStep?.(s, b) });
    log(`pipeline: change log -> topic ${TOPIC} -> ClickHouse sink (exactlyOnce=${sinkConfig.exactlyOnce}, max.poll.records ${sinkConfig['consumer.override.max.poll.records']}) -> ${ch.url}`);
    const check = async (sql: string) => {
      const expected = [...work.live].sort((a, b) => a[0] - b[0]);
      const text = await ch.api.query(sql, 'JSONCompactEachRow');
      const rows = text.split('\n').filter(Boolean);
      if (rows.length !== expected.length) return false;
      return rows.every((l, i) => {
        const [id, name] = JSON.parse(l) as [number, string];
        return id === expected[i]![0] && name === expected[i]![1];
      });
    };

    // 1. latency at RATE changes/s, on a fresh table
    log(`latency: ${RATE} changes/s for ${LAT_S} s`);
    let bridge = startBridge(source, topicLog, TOPIC, source.position(), { trackCommitTimes: true });
    const latencies: number[] = [];
    onStep = (step, b) => {
      if (step !== 'after-insert') return;
      const now = Date.now();
      for (let o = b.min; o <= b.max; o++) {
        const t = bridge.commitTimeOfOffset.get(o);
        if (t !== undefined) latencies.push(now - t);
      }
    };
    const perTick = Math.max(10, Math.round(RATE / 100));
    const ticks = Math.round((RATE * LAT_S) / perTick);
    const l0 = performance.now();
    let latencyChanges = 0;
    for (let i = 0; i < ticks; i++) {
      const due = l0 + (i * perTick * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const tx = work.next(perTick);
      source.executeSync('demo', tx.sql);
      latencyChanges += tx.changes;
    }
    const achievedRate = latencyChanges / ((performance.now() - l0) / 1000);
    while (sink.position() < latencyChanges) await sleep(5);
    await bridge.stop();
    onStep = undefined;
    const latencyOk = await check('SELECT id, name FROM customers FINAL ORDER BY id');

    // 2. N changes committed to the source, then the pipeline catches up
    const resumeAt = source.position();
    log(`committing ${N} changes to the embedded source in transactions of ${TX_SIZE}`);
    let committed = 0;
    const s0 = performance.now();
    while (committed < N) {
      const tx = work.next(Math.min(TX_SIZE, Math.max(10, N - committed)));
      source.executeSync('demo', tx.sql);
      committed += tx.changes;
    }
    const sourceMs = performance.now() - s0;
    const firstOffset = latencyChanges;
    const p0 = performance.now();
    bridge = startBridge(source, topicLog, TOPIC, resumeAt);
    while (sink.position() < firstOffset + committed) await sleep(5);
    const pipelineMs = performance.now() - p0;
    log(`pipeline done in ${formatMs(pipelineMs)}`);
    await bridge.stop();
    await sink.stop();

    // correctness: FINAL equals the source, then OPTIMIZE … FINAL CLEANUP and the whole table
    const finalOk = await check('SELECT id, name FROM customers FINAL ORDER BY id');
    const rawRows = Number(JSON.parse(await ch.api.query('SELECT count() AS c FROM customers')).c);
    const o0 = performance.now();
    await ch.api.query('OPTIMIZE TABLE customers FINAL CLEANUP');
    const optimizeMs = performance.now() - o0;
    const cleanupOk = await check('SELECT id, name FROM customers ORDER BY id');

    // the messages, for the direct-insert peer
    const messages: string[] = [];
    for (let off = firstOffset; off < firstOffset + committed; ) {
      const recs = await topicLog.fetch(TOPIC, 0, off, { maxRecords: 50_000, maxBytes: 64 * 1024 * 1024 });
      for (const r of recs) if (r.offset < firstOffset + committed) messages.push(r.value!);
      off = recs[recs.length - 1]!.offset + 1;
    }
    await client.close();
    await ch.close();
    await topicLog.close();
    await source.close();

    // 3. the same rows straight into chDB, JSONEachRow, 5000-row blocks
    log('peer: the same rows straight into chDB as JSONEachRow in 5000-row blocks');
    const session = new Session(path.join(chDir, 'chdb'));
    const ddl = translateDdl(targetDdl.replace('default.customers', 'default.customers_direct')).sql;
    await session.queryAsync(ddl);
    const blocks: Buffer[] = [];
    for (let i = 0; i < messages.length; i += 5000) blocks.push(Buffer.from(messages.slice(i, i + 5000).join('\n') + '\n'));
    const d0 = performance.now();
    for (const b of blocks) await session.insert({ table: 'default.customers_direct', values: b, format: 'JSONEachRow', settings: { input_format_skip_unknown_fields: 1 } });
    const directMs = performance.now() - d0;
    const directFinal = (await session.queryAsync('SELECT count() AS c FROM customers_direct FINAL', { format: 'JSONEachRow' })).json<{ c: number }>().c;
    session.close();

    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const pipelineRate = committed / (pipelineMs / 1000);
    const directRate = messages.length / (directMs / 1000);
    const result = {
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version },
      path: 'embedded source change log -> topic log (bench bridge in the shape of the seed source connector) -> ClickHouse sink task (seed config, exactlyOnce) -> @clickhouse/client -> embedded ClickHouse HTTP -> chDB',
      changes: committed,
      mix: { inserts: 0.6, updates: 0.3, deletes: 0.1 },
      source: { ms: sourceMs, changesPerSecond: committed / (sourceMs / 1000) },
      pipeline: { ms: pipelineMs, rowsPerSecond: pipelineRate, targetRowsBeforeMerge: rawRows, finalEqualsSource: finalOk, cleanupEqualsSource: cleanupOk, optimizeFinalCleanupMs: optimizeMs },
      directChdb: { ms: directMs, rowsPerSecond: directRate, blocks: blocks.length, finalRows: directFinal },
      ratio: pipelineRate / directRate,
      ratioTarget: 0.5,
      latency: { rate: RATE, achievedRate, seconds: LAT_S, changes: latencyChanges, measured: latencies.length, medianMs: pct(50), p95Ms: pct(95), p99Ms: pct(99), maxMs: latencies[latencies.length - 1] ?? NaN, targetMedianMs: 250, finalEqualsSource: latencyOk },
    };
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');

    console.log(`\nCDC pipeline, ${committed.toLocaleString('en-US')} changes (60 % inserts, 30 % updates, 10 % deletes), ${os.cpus().length} CPUs\n`);
    console.log(
      formatTable(
        ['measure', 'value', 'note'],
        [
          ['source commits', formatRate(result.source.changesPerSecond), `embedded source, transactions of ${TX_SIZE}`],
          ['pipeline end to end', formatRate(pipelineRate), `change log -> topic -> sink -> visible; ${formatMs(pipelineMs)}`],
          ['chDB direct JSONEachRow', formatRate(directRate), `same rows, 5000-row blocks; ${formatMs(directMs)}`],
          ['ratio pipeline / direct', formatRatio(result.ratio), `target >= 0.5 ${result.ratio >= 0.5 ? 'met' : 'NOT met'}`],
          ['FINAL = source', String(finalOk), `${rawRows.toLocaleString('en-US')} target rows before merges`],
          ['after OPTIMIZE FINAL CLEANUP', String(cleanupOk), `optimize took ${formatMs(optimizeMs)}`],
          [`latency median @ ${RATE}/s`, formatMs(pct(50)), `target < 250 ms ${pct(50) < 250 ? 'met' : 'NOT met'}; achieved ${Math.round(achievedRate)}/s`],
          ['latency p95 / p99 / max', `${formatMs(pct(95))} / ${formatMs(pct(99))} / ${formatMs(latencies[latencies.length - 1] ?? NaN)}`, `${latencies.length} changes measured`],
        ],
        ['left', 'right', 'left'],
      ),
    );
    console.log(`\nresults: ${path.relative(process.cwd(), OUT)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
