/**
 * `npm run bench:cdc` — the CDC pipeline end to end (issue 5, item 10):
 *
 * 1. latency: commits changes to the embedded source at a fixed rate (1,000 changes/s) while
 *    the pipeline runs, and measures for every inserted row the time from its commit until the
 *    ClickHouse insert that carries it has finished (the server's insert events, by dedup token);
 * 2. throughput: with the pipeline held, commits N changes (60 % inserts, 30 % updates, 10 %
 *    deletes) to the source; then releases it and times until the last change is visible in
 *    the target (the insert whose dedup token covers the topic's last offset has finished; the
 *    bench then waits for the sink's AFTER_PROCESSING state too); checks `SELECT … FINAL`, then
 *    `OPTIMIZE … FINAL CLEANUP` and the whole table, against the source row for row;
 * 3. the sink's exactly-once requests alone on the same rows (bench/cdc/requests-alone.ts), three
 *    times: the ceiling of the ratio whatever the pipeline's own work cost;
 * 4. the peer: the same messages straight into chDB as JSONEachRow in 5000-row blocks, three
 *    times (each into a fresh table); the median run is the peer's figure.
 *
 * Both print their process CPU: chDB parses and merges on several threads, so the peer alone keeps
 * more than one core busy, and the line "CPU at ratio 0.4" says how much CPU the pipeline may use
 * in all to reach the target on this machine.
 *
 *   --changes N          changes for the throughput run (default 1,000,000; env LOUPE_BENCH_CDC_CHANGES)
 *   --rate R             changes per second for the latency run (default 1000)
 *   --latency-seconds S  length of the latency run (default 10)
 *   --path worker|bridge the Connect worker (default when present) or the bench's bridge
 *   --out FILE           JSON results (default bench/results/cdc-latest.json)
 *   --cpu-prof FILE      V8 CPU profile of the main thread during the timed pipeline phase only
 *   --profile-changes N  changes for the per-stage CPU table (default the smaller of N and 200,000; 0: none)
 *
 * 5. per-stage CPU: the pipeline once more on its own data under V8's sampling profiler, with the
 *    sink task on the main thread, printed as microseconds of main-thread CPU per change by stage
 *    (bench/cdc/stage-profile.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session as InspectorSession } from 'node:inspector/promises';
import { createClient } from '@clickhouse/client';
import { Session } from 'chdb';
import { formatMs, formatRate, formatRatio, formatTable, positiveInt } from './bench-util.js';
import { silentLogger } from '../core/common/log.js';
import { startClickHouseService } from '../core/cdc/clickhouse/service.js';
import { translateDdl } from '../core/cdc/clickhouse/translate.js';
import { Workload } from './cdc/workload.js';
import { bridgePipeline, TOPIC, topicEnd, visibleEnd, workerPipeline, type Pipeline } from './cdc/pipelines.js';
import { blocksOf, sendRequestsAlone } from './cdc/requests-alone.js';
import { profileStages, STAGES } from './cdc/stage-profile.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.resolve(here, '../assets/cdc');
const { values: args } = parseArgs({
  options: {
    changes: { type: 'string' },
    rate: { type: 'string' },
    'latency-seconds': { type: 'string' },
    path: { type: 'string' },
    out: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'profile-changes': { type: 'string' },
  },
});
const N = positiveInt(args.changes ?? process.env.LOUPE_BENCH_CDC_CHANGES, '--changes', 1_000_000);
const RATE = positiveInt(args.rate, '--rate', 1000);
const LAT_S = positiveInt(args['latency-seconds'], '--latency-seconds', 10);
const OUT = path.resolve(args.out ?? path.join(here, 'results/cdc-latest.json'));
const PATH = args.path ?? 'worker';
if (PATH !== 'worker' && PATH !== 'bridge') throw new Error('--path must be worker or bridge');
const TX_SIZE = 5000;
const PEER_RUNS = 3;
/** The CDC engine issue's targets: the pipeline's ratio to the peer, and its requests' alone. */
const RATIO_TARGET = 0.4;
const REQUESTS_RATIO_TARGET = 0.8;

const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-cdc-'));
  const chDir = path.join(dir, 'clickhouse');
  mkdirSync(chDir, { recursive: true });
  try {
    const ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: chDir, log: silentLogger, peers: {} });
    const client = createClient({ url: ch.url });
    const targetDdl = readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8');
    await client.command({ query: targetDdl });
    let pipeline: Pipeline | undefined = PATH === 'worker' ? await workerPipeline(dir, ch.url, ASSETS) : undefined;
    if (!pipeline) {
      if (PATH === 'worker') log('no Connect worker in this checkout: using the bench bridge');
      pipeline = await bridgePipeline(dir, ch.url, ASSETS);
    }
    const { source, topicLog } = pipeline;
    log(`pipeline (${pipeline.name}): ${pipeline.description}`);
    const work = new Workload();
    // the seed demo rows are part of the source and travel through the snapshot
    for (const r of (await source.execute('demo', 'SELECT id, name FROM customers'))[0]!.rows) work.live.set(r[0] as number, r[1] as string);

    const visible = () => visibleEnd((sql) => ch.api.query(sql));
    // Every insert of the sink into the target carries the dedup token `<topic>-<partition>-<first>-<last>`:
    // the moment it finished (on this thread: the server reports it as it answers), records up to
    // <last> are visible in the target. The state table is asked whether the sink has finished
    // soon after the insert that covers the topic's end, and every second regardless: each SELECT
    // waits its turn on the one embedded ClickHouse session, in front of the sink's next state
    // write (asked after every insert, it took 0.6 s of the session's time in a 15 s run).
    const tokenRe = new RegExp(`^${TOPIC}-0-(\\d+)-(\\d+)$`);
    /** Target inserts as they finished (performance.now() and Date.now()) and the next offset after each block. */
    const inserted: { at: number; wall: number; end: number }[] = [];
    const offInserted = ch.api.onInsert((e) => {
      const m = e.table === TOPIC && e.dedupToken ? tokenRe.exec(e.dedupToken) : null;
      if (m) inserted.push({ at: performance.now(), wall: e.at, end: Number(m[2]) + 1 });
    });
    /** Waits until the topic has at least `minEnd` records and all of them are visible. */
    /** When the topic first held `minEnd` records in the last caughtUp() (performance.now()). */
    let topicCompleteAt = 0;
    const caughtUp = async (minEnd: number, timeoutMs = 600_000) => {
      const until = Date.now() + timeoutMs;
      let seen = -1;
      let askedAt = 0;
      topicCompleteAt = 0;
      for (;;) {
        const end = await topicEnd(topicLog);
        if (end >= minEnd && !topicCompleteAt) topicCompleteAt = performance.now();
        // (the AFTER_PROCESSING state follows an insert by a few milliseconds)
        const last = inserted.at(-1);
        const covered = last !== undefined && last.end >= end && performance.now() - last.at > 5;
        if (end >= minEnd && ((covered && inserted.length !== seen) || performance.now() - askedAt > 1000)) {
          seen = inserted.length;
          askedAt = performance.now();
          if ((await visible()) >= end) return end;
        }
        if (Date.now() > until) throw new Error(`pipeline did not catch up: topic end ${end}, visible ${await visible()}, wanted ${minEnd}`);
        await sleep(2);
      }
    };
    const check = async (sql: string) => {
      const expected = [...work.live].sort((a, b) => a[0] - b[0]);
      const rows = (await ch.api.query(sql, 'JSONCompactEachRow')).split('\n').filter(Boolean);
      if (rows.length !== expected.length) {
        log(`${sql}: ${rows.length} rows, source has ${expected.length}`);
        return false;
      }
      return rows.every((l, i) => {
        const [id, name] = JSON.parse(l) as [number, string];
        return id === expected[i]![0] && name === expected[i]![1];
      });
    };
    const snapshotEnd = await caughtUp(work.live.size);

    // 1. latency at RATE changes/s, observed on the target
    log(`latency: ${RATE} changes/s for ${LAT_S} s`);
    // from each target insert on (`inserted`), the rows of its offsets are visible
    const commitTimeOfId = new Map<number, number>();
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
      const at = Date.now();
      for (const id of tx.inserted) commitTimeOfId.set(id, at);
      latencyChanges += tx.changes;
    }
    const achievedRate = latencyChanges / ((performance.now() - l0) / 1000);
    const latencyEnd = await caughtUp(snapshotEnd + latencyChanges);
    const timeline = inserted.map((x) => ({ at: x.wall, end: x.end })).sort((x, y) => x.at - y.at);
    const latencies: number[] = [];
    for (let off = snapshotEnd, t = 0; off < latencyEnd; ) {
      const recs = await topicLog.fetch(TOPIC, 0, off, { maxRecords: 10_000 });
      if (!recs.length) break;
      for (const r of recs) {
        const id = r.key === null ? undefined : (JSON.parse(r.key) as { id?: number }).id;
        const at = id === undefined ? undefined : commitTimeOfId.get(id);
        commitTimeOfId.delete(id!);
        if (at === undefined) continue;
        while (t < timeline.length && timeline[t]!.end <= r.offset) t++;
        if (t < timeline.length) latencies.push(timeline[t]!.at - at);
      }
      off = recs[recs.length - 1]!.offset + 1;
    }
    const latencyOk = await check('SELECT id, name FROM customers FINAL ORDER BY id');

    // 2. N changes committed while the pipeline is held, then released
    await pipeline.hold();
    log(`committing ${N} changes to the embedded source in transactions of ${TX_SIZE}`);
    let committed = 0;
    const s0 = performance.now();
    while (committed < N) {
      const tx = work.next(Math.min(TX_SIZE, Math.max(10, N - committed)));
      source.executeSync('demo', tx.sql);
      committed += tx.changes;
    }
    const sourceMs = performance.now() - s0;
    const profiler = args['cpu-prof'] ? new InspectorSession() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const cpu0 = process.cpuUsage();
    const p0 = performance.now();
    await pipeline.release();
    const finalEnd = await caughtUp(latencyEnd + committed);
    // until the insert holding the last change finished, not until the bench noticed the sink's state
    const pipelineMs = (inserted.find((i) => i.at >= p0 && i.end >= finalEnd)?.at ?? performance.now()) - p0;
    const topicMs = topicCompleteAt - p0;
    const pipelineCpu = process.cpuUsage(cpu0);
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(path.resolve(args['cpu-prof']!), JSON.stringify(profile));
      profiler.disconnect();
    }
    log(`pipeline caught up in ${formatMs(pipelineMs)} (topic end ${finalEnd}; the topic held every change after ${formatMs(topicMs)})`);

    const finalOk = await check('SELECT id, name FROM customers FINAL ORDER BY id');
    const rawRows = Number(JSON.parse(await ch.api.query('SELECT count() AS c FROM customers')).c);
    const o0 = performance.now();
    await ch.api.query('OPTIMIZE TABLE customers FINAL CLEANUP');
    const optimizeMs = performance.now() - o0;
    const cleanupOk = await check('SELECT id, name FROM customers ORDER BY id');

    // the messages of the throughput run, for the peer
    const messages: string[] = [];
    const values: { offset: number; value: string | null }[] = [];
    for (let off = latencyEnd; off < finalEnd; ) {
      const recs = await topicLog.fetch(TOPIC, 0, off, { maxRecords: 50_000, maxBytes: 64 * 1024 * 1024 });
      if (!recs.length) break;
      for (const r of recs) {
        if (r.offset >= finalEnd) break;
        values.push({ offset: r.offset, value: r.value });
        if (r.value !== null) messages.push(r.value);
      }
      off = recs[recs.length - 1]!.offset + 1;
    }
    offInserted();
    const description = pipeline.description;
    const pathName = pipeline.name;
    await pipeline.close();

    // 3. the sink's exactly-once requests alone on the same rows (requests-alone.ts): the ceiling
    // of the ratio, whatever the pipeline's own work cost. PEER_RUNS times, the median counts.
    log(`the sink's requests alone: BEFORE state, insert, AFTER state per 5000-row block, ${PEER_RUNS} runs`);
    const requestBlocks = blocksOf(values, 5000);
    const requestRuns: TimedRun[] = [];
    for (let run = 1; run <= PEER_RUNS; run++) requestRuns.push(await sendRequestsAlone(ch.url, ASSETS, requestBlocks, `customers_requests_${run}`, (sql) => ch.api.query(sql)));
    const requests = medianRun(requestRuns);
    await client.close();
    await ch.close();

    // 4. the same rows straight into chDB, JSONEachRow, 5000-row blocks: PEER_RUNS times, each into
    // a table of its own (the same blocks again would be deduplicated), and the median run counts.
    // One run lasts a few seconds, and on this machine one alone varied by a factor of 1.5–2.
    log(`peer: the same rows straight into chDB as JSONEachRow in 5000-row blocks, ${PEER_RUNS} runs`);
    const session = new Session(path.join(chDir, 'chdb'));
    const blocks: Buffer[] = [];
    for (let i = 0; i < messages.length; i += 5000) blocks.push(Buffer.from(messages.slice(i, i + 5000).join('\n') + '\n'));
    const peerRuns: TimedRun[] = [];
    for (let run = 1; run <= PEER_RUNS; run++) {
      const table = `default.customers_direct_${run}`;
      await session.queryAsync(translateDdl(targetDdl.replace('default.customers', table)).sql);
      const dc0 = process.cpuUsage();
      const d0 = performance.now();
      for (const b of blocks) await session.insert({ table, values: b, format: 'JSONEachRow', settings: { input_format_skip_unknown_fields: 1 } });
      peerRuns.push({ ms: performance.now() - d0, cpu: process.cpuUsage(dc0) });
    }
    session.close();
    const direct = medianRun(peerRuns);
    const { ms: directMs, cpu: directCpu } = direct;

    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const pipelineRate = committed / (pipelineMs / 1000);
    const directRate = messages.length / (directMs / 1000);
    const requestsRate = messages.length / (requests.ms / 1000);
    const load = os.loadavg()[0]!;
    const result = {
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, loadAverage1m: load },
      path: pathName,
      pipeline: description,
      changes: committed,
      mix: { inserts: 0.6, updates: 0.3, deletes: 0.1 },
      source: { ms: sourceMs, changesPerSecond: committed / (sourceMs / 1000) },
      throughput: { ms: pipelineMs, topicCompleteMs: topicMs, rowsPerSecond: pipelineRate, cpuSeconds: { user: pipelineCpu.user / 1e6, system: pipelineCpu.system / 1e6 }, messages: messages.length, targetRowsBeforeMerge: rawRows, finalEqualsSource: finalOk, cleanupEqualsSource: cleanupOk, optimizeFinalCleanupMs: optimizeMs },
      directChdb: runsSummary(peerRuns, direct, messages.length, blocks.length),
      ratio: pipelineRate / directRate,
      ratioTarget: RATIO_TARGET,
      requestsAlone: {
        what: "the seed sink's exactly-once requests per 5000-row block (BEFORE state, insert, AFTER state) through the sink's request path (the requests @clickhouse/client sends), bodies prebuilt, no Kafka Connect work",
        ...runsSummary(requestRuns, requests, messages.length, requestBlocks.length),
        ratioToDirect: requestsRate / directRate,
        ratioTarget: REQUESTS_RATIO_TARGET,
      },
      latency: { rate: RATE, achievedRate, seconds: LAT_S, changes: latencyChanges, insertsMeasured: latencies.length, medianMs: pct(50), p95Ms: pct(95), p99Ms: pct(99), maxMs: latencies[latencies.length - 1] ?? NaN, targetMedianMs: 250, finalEqualsSource: latencyOk, observedBy: 'ClickHouse insert completions (dedup token offsets) in the embedded server; inserted rows' },
    };
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');

    console.log(`\nCDC pipeline (${pathName}), ${committed.toLocaleString('en-US')} changes (60 % inserts, 30 % updates, 10 % deletes), ${os.cpus().length} CPUs, load ${load.toFixed(1)}\n`);
    console.log(
      formatTable(
        ['measure', 'value', 'note'],
        [
          ['source commits', formatRate(result.source.changesPerSecond), `embedded source, transactions of ${TX_SIZE}`],
          ['pipeline end to end', formatRate(pipelineRate), `committed change -> visible in target; ${formatMs(pipelineMs)}, ${cpuNote(pipelineCpu, pipelineMs)}`],
          ['chDB direct JSONEachRow', formatRate(directRate), `same ${messages.length.toLocaleString('en-US')} rows, 5000-row blocks; median of ${PEER_RUNS} runs (${peerRuns.map((r) => formatMs(r.ms)).join(', ')}); ${formatMs(directMs)}, ${cpuNote(directCpu, directMs)}`],
          ['ratio pipeline / direct', formatRatio(result.ratio), `target >= ${RATIO_TARGET} ${result.ratio >= RATIO_TARGET ? 'met' : 'NOT met'}`],
          ["sink's requests alone", formatRate(requestsRate), `BEFORE state, insert, AFTER state per block, no Kafka Connect work; median of ${PEER_RUNS} runs (${requestRuns.map((r) => formatMs(r.ms)).join(', ')}); ${formatMs(requests.ms)}, ${cpuNote(requests.cpu, requests.ms)}`],
          ['ceiling: requests / direct', formatRatio(result.requestsAlone.ratioToDirect), `target >= ${REQUESTS_RATIO_TARGET} ${result.requestsAlone.ratioToDirect >= REQUESTS_RATIO_TARGET ? 'met' : 'NOT met'}; the most the pipeline's ratio could be with the sink's exactly-once requests on this server and machine`],
          [`CPU at ratio ${RATIO_TARGET}`, `${((os.cpus().length * directMs) / RATIO_TARGET / 1000).toFixed(1)} s`, `all ${os.cpus().length} cores for the peer's time / ${RATIO_TARGET}; the pipeline used ${((pipelineCpu.user + pipelineCpu.system) / 1e6).toFixed(1)} s, the peer ${((directCpu.user + directCpu.system) / 1e6).toFixed(1)} s`],
          ['FINAL = source', String(finalOk), `${rawRows.toLocaleString('en-US')} target rows before merges`],
          ['after OPTIMIZE FINAL CLEANUP', String(cleanupOk), `optimize took ${formatMs(optimizeMs)}`],
          [`latency median @ ${RATE}/s`, formatMs(pct(50)), `target < 250 ms ${pct(50) < 250 ? 'met' : 'NOT met'}; achieved ${Math.round(achievedRate)}/s`],
          ['latency p95 / p99 / max', `${formatMs(pct(95))} / ${formatMs(pct(99))} / ${formatMs(latencies[latencies.length - 1] ?? NaN)}`, `${latencies.length} inserts observed on the target`],
        ],
        ['left', 'right', 'left'],
      ),
    );
    const profileN = args['profile-changes'] === '0' ? 0 : positiveInt(args['profile-changes'], '--profile-changes', Math.min(N, 200_000));
    if (profileN > 0) {
      log(`per-stage CPU: ${profileN} changes through the pipeline under the profiler`);
      const prof = await profileStages(profileN, ASSETS, log);
      const total = [...prof.usPerChange.values()].reduce((a, b) => a + b, 0);
      console.log(`\nMain-thread CPU per change by stage: V8 sampling profiler (1 ms), sink task on the main thread, ${prof.changes.toLocaleString('en-US')} changes in ${formatMs(prof.wallMs)}; chDB's native threads are not in it\n`);
      console.log(
        formatTable(
          ['stage', 'µs per change', 'share'],
          [...STAGES.map((st) => [st, prof.usPerChange.get(st)!.toFixed(2), `${((100 * prof.usPerChange.get(st)!) / total).toFixed(0)} %`]), ['total', total.toFixed(2), '100 %']],
          ['left', 'right', 'right'],
        ),
      );
      (result as Record<string, unknown>).stagesUsPerChange = { changes: prof.changes, ...Object.fromEntries(prof.usPerChange) };
      writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');
    }
    console.log(`\nresults: ${path.relative(process.cwd(), OUT)}`);
  } finally {
    // chDB's background threads may still write parts for a moment after the session closed.
    for (let attempt = 0; ; attempt++) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
        break;
      } catch (err) {
        if (attempt >= 20) {
          log(`could not remove ${dir}: ${(err as Error).message}`);
          break;
        }
        await sleep(250);
      }
    }
  }
}

interface TimedRun {
  ms: number;
  cpu: NodeJS.CpuUsage;
}

/** The median of repeated runs (one run alone varied by a factor of 1.5–2 on this machine). */
function medianRun(runs: TimedRun[]): TimedRun {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

/** How the results file records repeated runs over `rows` rows and their median. */
function runsSummary(runs: TimedRun[], median: TimedRun, rows: number, blocks: number) {
  return {
    ms: median.ms,
    rowsPerSecond: rows / (median.ms / 1000),
    blocks,
    cpuSeconds: { user: median.cpu.user / 1e6, system: median.cpu.system / 1e6 },
    of: `the median of ${runs.length} runs, each into a fresh table`,
    runs: runs.map((r) => ({ ms: r.ms, rowsPerSecond: rows / (r.ms / 1000) })),
  };
}

/** Process CPU over a span, and how many cores' worth it kept busy. */
function cpuNote(cpu: NodeJS.CpuUsage, ms: number): string {
  const s = (cpu.user + cpu.system) / 1e6;
  return `process CPU ${s.toFixed(1)} s (${(s / (ms / 1000)).toFixed(2)} cores)`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
