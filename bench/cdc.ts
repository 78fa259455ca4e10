/**
 * `npm run bench:cdc` — the CDC pipeline end to end (issue 5, item 10):
 *
 * 1. latency: commits changes to the embedded source at a fixed rate (1,000 changes/s) while
 *    the pipeline runs, and measures for every inserted row the time from its commit until the
 *    ClickHouse insert that carries it has finished (the server's insert events, by dedup token);
 * 2–4, in three rounds, each on its own N changes, the round's three runs one after another so
 *    that they meet the same machine (one run alone varied by a factor of 1.5–2 here, and the
 *    machine's speed drifts over a minute); each ratio is a round's, and the medians are reported:
 * 2. throughput: with the pipeline held, commits N changes (60 % inserts, 30 % updates, 10 %
 *    deletes) to the source; then releases it and times until the last change is visible in
 *    the target (the insert whose dedup token covers the topic's last offset has finished; the
 *    bench then waits for the sink's AFTER_PROCESSING state too); checks `SELECT … FINAL` against
 *    the source row for row (after the last round also `OPTIMIZE … FINAL CLEANUP` and the table);
 * 3. the sink's exactly-once requests alone on the round's rows (bench/cdc/requests-alone.ts): the
 *    ceiling of the ratio whatever the pipeline's own work cost;
 * 4. the peer: the round's messages straight into chDB as JSONEachRow in 5000-row blocks, into a
 *    fresh table, twice: by a process of its own (bench/cdc/peer.ts), which holds nothing else,
 *    and in this process on the embedded server's data directory; the faster run counts.
 *
 * Both print their process CPU: chDB parses and merges on several threads, so the peer alone keeps
 * more than one core busy, and the line "CPU at ratio 0.4" says how much CPU the pipeline may use
 * in all to reach the target on this machine.
 *
 *   --changes N          changes per throughput round (default 1,000,000; env LOUPE_BENCH_CDC_CHANGES)
 *   --rate R             changes per second for the latency run (default 1000)
 *   --latency-seconds S  length of the latency run (default 10)
 *   --path worker|bridge the Connect worker (default when present) or the bench's bridge
 *   --out FILE           JSON results (default bench/results/cdc-latest.json)
 *   --cpu-prof FILE      V8 CPU profile of the main thread during the first round's pipeline only
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
import { Session } from 'chdb';
import { createClient } from '@clickhouse/client';
import { formatMs, formatRate, formatRatio, formatTable, median, positiveInt } from './bench-util.js';
import { silentLogger } from '../core/common/log.js';
import { startClickHouseService } from '../core/cdc/clickhouse/service.js';
import { translateDdl } from '../core/cdc/clickhouse/translate.js';
import { Workload } from './cdc/workload.js';
import { bridgePipeline, TOPIC, topicEnd, topicValues, visibleEnd, workerPipeline, type Pipeline } from './cdc/pipelines.js';
import { blocksOf, sendRequestsAlone } from './cdc/requests-alone.js';
import { profileStages, STAGES } from './cdc/stage-profile.js';
import { startPeer } from './cdc/peer.js';
import { BLOCK_ROWS, bodiesOf, insertDirect, mergesEnded } from './cdc/chdb-direct.js';

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
/** Rounds of the throughput run; the medians count (issue: medians of 3 runs in one invocation). */
const ROUNDS = 3;
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

    // 2–4, in ROUNDS rounds side by side, so that the three figures of a round meet the same
    // machine (one run alone varied by a factor of 1.5–2 on this machine, and its speed drifts
    // over a minute): N changes committed while the pipeline is held, then released and timed
    // until they are visible; the sink's requests alone on the round's messages; and the peer,
    // the same messages straight into chDB. Each ratio is a round's; the medians are reported.
    const peer = startPeer(path.join(dir, 'peer'));
    const session = new Session(path.join(chDir, 'chdb'));
    const query = (sql: string) => ch.api.query(sql);
    const rounds: Round[] = [];
    let roundStart = latencyEnd;
    let finalOk = true;
    for (let round = 1; round <= ROUNDS; round++) {
      await pipeline.hold();
      log(`round ${round}/${ROUNDS}: committing ${N} changes to the embedded source in transactions of ${TX_SIZE}`);
      let roundChanges = 0;
      const s0 = performance.now();
      while (roundChanges < N) {
        const tx = work.next(Math.min(TX_SIZE, Math.max(10, N - roundChanges)));
        source.executeSync('demo', tx.sql);
        roundChanges += tx.changes;
      }
      const sourceMs = performance.now() - s0;
      // The source writes its databases to disk every 5,000 commits and every 10 s: the part of that
      // the workload left pending is done now, not on the main thread in the pipeline's timed window.
      source.snapshot();
      // the profile covers the pipeline of the first round only
      const profiler = args['cpu-prof'] && round === 1 ? new InspectorSession() : undefined;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const cpu0 = process.cpuUsage();
      const p0 = performance.now();
      await pipeline.release();
      const roundEnd = await caughtUp(roundStart + roundChanges);
      // until the insert holding the last change finished, not until the bench noticed the sink's state
      const pipelineMs = (inserted.find((i) => i.at >= p0 && i.end >= roundEnd)?.at ?? performance.now()) - p0;
      const topicMs = topicCompleteAt - p0;
      const pipelineCpu = process.cpuUsage(cpu0);
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(path.resolve(args['cpu-prof']!), JSON.stringify(profile));
        profiler.disconnect();
      }
      log(`round ${round}: pipeline caught up in ${formatMs(pipelineMs)} (topic end ${roundEnd}; the topic held every change after ${formatMs(topicMs)})`);
      await pipeline.hold();
      finalOk = (await check('SELECT id, name FROM customers FINAL ORDER BY id')) && finalOk;

      // the round's messages, for the requests alone and the peer
      const values = await topicValues(topicLog, roundStart, roundEnd);
      const messages = values.flatMap((v) => (v.value === null ? [] : [v.value]));
      roundStart = roundEnd;

      // 3. the sink's exactly-once requests alone on the same rows (requests-alone.ts): the ceiling
      // of the ratio, whatever the pipeline's own work cost
      log(`round ${round}: the sink's requests alone (BEFORE state, insert, AFTER state per 5000-row block), then the peer`);
      const requests = await sendRequestsAlone(ch.url, ASSETS, blocksOf(values, BLOCK_ROWS), `customers_requests_${round}`, query);

      // 4. the same rows straight into chDB, JSONEachRow, 5000-row blocks, into a fresh table of
      // the round's own, by a process of its own (bench/cdc/peer.ts) once the server's merges ended
      const messagesFile = path.join(dir, 'round-messages.ndjson');
      writeFileSync(messagesFile, messages.join('\n') + '\n');
      await mergesEnded(query);
      const table = `default.customers_direct_${round}`;
      const { blocks, ...apart } = await peer.run({ file: messagesFile, table, ddl: translateDdl(targetDdl.replace('default.customers', table)).sql });
      rmSync(messagesFile);
      // and in this process too, on the embedded server's data directory: the faster of the two is the round's peer
      const inside = `default.customers_direct_in_${round}`;
      await session.queryAsync(translateDdl(targetDdl.replace('default.customers', inside)).sql);
      await mergesEnded(query);
      const here = await insertDirect(session, inside, bodiesOf(messages));
      const r: Round = { changes: roundChanges, messages: messages.length, blocks, sourceMs, pipelineMs, topicMs, pipelineCpu, requests, direct: here.ms < apart.ms ? here : apart, directApart: apart, directHere: here };
      rounds.push(r);
      log(`round ${round}: pipeline ${formatMs(pipelineMs)}, requests alone ${formatMs(requests.ms)}, chDB direct ${formatMs(r.direct.ms)}: ratios ${formatRatio(pipelineRatio(r))} and ${formatRatio(requestsRatio(r))}`);
    }
    peer.close();
    session.close();
    const rawRows = Number(JSON.parse(await ch.api.query('SELECT count() AS c FROM customers')).c);
    const o0 = performance.now();
    await ch.api.query('OPTIMIZE TABLE customers FINAL CLEANUP');
    const optimizeMs = performance.now() - o0;
    const cleanupOk = await check('SELECT id, name FROM customers ORDER BY id');
    offInserted();
    const description = pipeline.description;
    const pathName = pipeline.name;
    await pipeline.close();
    await client.close();
    await ch.close();

    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const ratio = median(rounds.map(pipelineRatio));
    const requestsToDirect = median(rounds.map(requestsRatio));
    const pipelineMs = median(rounds.map((r) => r.pipelineMs));
    const directMs = median(rounds.map((r) => r.direct.ms));
    const requestsMs = median(rounds.map((r) => r.requests.ms));
    const pipelineRate = median(rounds.map((r) => r.changes / (r.pipelineMs / 1000)));
    const directRate = median(rounds.map((r) => r.messages / (r.direct.ms / 1000)));
    const requestsRate = median(rounds.map((r) => r.messages / (r.requests.ms / 1000)));
    /** The round of the median pipeline time, whose CPU figures are reported. */
    const mid = [...rounds].sort((a, b) => a.pipelineMs - b.pipelineMs)[Math.floor(rounds.length / 2)]!;
    const load = os.loadavg()[0]!;
    const cpuOf = (c: NodeJS.CpuUsage) => ({ user: c.user / 1e6, system: c.system / 1e6 });
    const result = {
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, loadAverage1m: load },
      path: pathName,
      pipeline: description,
      changes: N,
      mix: { inserts: 0.6, updates: 0.3, deletes: 0.1 },
      of: `the median of ${ROUNDS} rounds; in each, the pipeline, the sink's requests alone and chDB direct ran one after the other on that round's ${N.toLocaleString('en-US')} changes, and the ratios are the round's`,
      source: { ms: median(rounds.map((r) => r.sourceMs)), changesPerSecond: median(rounds.map((r) => r.changes / (r.sourceMs / 1000))) },
      throughput: { ms: pipelineMs, topicCompleteMs: median(rounds.map((r) => r.topicMs)), rowsPerSecond: pipelineRate, cpuSeconds: cpuOf(mid.pipelineCpu), finalEqualsSource: finalOk, targetRowsBeforeMerge: rawRows, cleanupEqualsSource: cleanupOk, optimizeFinalCleanupMs: optimizeMs },
      directChdb: { ms: directMs, rowsPerSecond: directRate, blocks: mid.blocks, what: "the same messages straight into chDB (session.insert, JSONEachRow, 5000-row blocks) into a fresh table, each round twice: by a process of its own (bench/cdc/peer.ts) and in the bench's process on the embedded server's data directory; the faster run is the round's peer" },
      ratio,
      ratioTarget: RATIO_TARGET,
      requestsAlone: {
        what: "the seed sink's exactly-once requests per 5000-row block (BEFORE state, insert, AFTER state) through the sink's request path (the requests @clickhouse/client sends), bodies prebuilt, no Kafka Connect work",
        ms: requestsMs,
        rowsPerSecond: requestsRate,
        ratioToDirect: requestsToDirect,
        ratioTarget: REQUESTS_RATIO_TARGET,
      },
      rounds: rounds.map((r) => ({
        changes: r.changes,
        messages: r.messages,
        sourceMs: r.sourceMs,
        pipelineMs: r.pipelineMs,
        topicCompleteMs: r.topicMs,
        pipelineCpuSeconds: cpuOf(r.pipelineCpu),
        requestsAloneMs: r.requests.ms,
        requestsAloneCpuSeconds: cpuOf(r.requests.cpu),
        directChdbMs: r.direct.ms,
        directChdbCpuSeconds: cpuOf(r.direct.cpu),
        directChdbOwnProcessMs: r.directApart.ms,
        directChdbThisProcessMs: r.directHere.ms,
        ratio: pipelineRatio(r),
        requestsRatio: requestsRatio(r),
      })),
      latency: { rate: RATE, achievedRate, seconds: LAT_S, changes: latencyChanges, insertsMeasured: latencies.length, medianMs: pct(50), p95Ms: pct(95), p99Ms: pct(99), maxMs: latencies[latencies.length - 1] ?? NaN, targetMedianMs: 250, finalEqualsSource: latencyOk, observedBy: 'ClickHouse insert completions (dedup token offsets) in the embedded server; inserted rows' },
    };
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');

    const runs = (f: (r: Round) => number) => rounds.map((r) => formatMs(f(r))).join(', ');
    console.log(`\nCDC pipeline (${pathName}), ${ROUNDS} rounds of ${N.toLocaleString('en-US')} changes (60 % inserts, 30 % updates, 10 % deletes), each round's pipeline, requests alone and peer side by side; medians; ${os.cpus().length} CPUs, load ${load.toFixed(1)}\n`);
    console.log(
      formatTable(
        ['measure', 'value', 'note'],
        [
          ['source commits', formatRate(result.source.changesPerSecond), `embedded source, transactions of ${TX_SIZE}`],
          ['pipeline end to end', formatRate(pipelineRate), `committed change -> visible in target; rounds ${runs((r) => r.pipelineMs)}; ${cpuNote(mid.pipelineCpu, mid.pipelineMs)} (median round)`],
          ['chDB direct JSONEachRow', formatRate(directRate), `the round's rows, 5000-row blocks, fresh table; the faster of its own process (${runs((r) => r.directApart.ms)}) and this one (${runs((r) => r.directHere.ms)}); ${cpuNote(mid.direct.cpu, mid.direct.ms)}`],
          ['ratio pipeline / direct', formatRatio(ratio), `target >= ${RATIO_TARGET} ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'}; rounds ${rounds.map((r) => formatRatio(pipelineRatio(r))).join(', ')}`],
          ["sink's requests alone", formatRate(requestsRate), `BEFORE state, insert, AFTER state per block, no Kafka Connect work; rounds ${runs((r) => r.requests.ms)}; ${cpuNote(mid.requests.cpu, mid.requests.ms)}`],
          ['ceiling: requests / direct', formatRatio(requestsToDirect), `target >= ${REQUESTS_RATIO_TARGET} ${requestsToDirect >= REQUESTS_RATIO_TARGET ? 'met' : 'NOT met'}; rounds ${rounds.map((r) => formatRatio(requestsRatio(r))).join(', ')}`],
          [`CPU at ratio ${RATIO_TARGET}`, `${((os.cpus().length * directMs) / RATIO_TARGET / 1000).toFixed(1)} s`, `all ${os.cpus().length} cores for the peer's time / ${RATIO_TARGET}; the median round's pipeline used ${((mid.pipelineCpu.user + mid.pipelineCpu.system) / 1e6).toFixed(1)} s`],
          ['FINAL = source', String(finalOk), `after every round; ${rawRows.toLocaleString('en-US')} target rows before merges after the last`],
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

/** One round: its changes through the pipeline, and its messages through the requests alone and into chDB directly. */
interface Round {
  changes: number;
  messages: number;
  blocks: number;
  sourceMs: number;
  pipelineMs: number;
  topicMs: number;
  pipelineCpu: NodeJS.CpuUsage;
  requests: TimedRun;
  /** The faster of the two peers below. */
  direct: TimedRun;
  /** The peer in a process of its own (bench/cdc/peer.ts). */
  directApart: TimedRun;
  /** The peer in the bench's process, on the embedded server's data directory. */
  directHere: TimedRun;
}

const pipelineRatio = (r: Round) => r.changes / r.pipelineMs / (r.messages / r.direct.ms);
const requestsRatio = (r: Round) => r.direct.ms / r.requests.ms;

/** Process CPU over a span, and how many cores' worth it kept busy. */
function cpuNote(cpu: NodeJS.CpuUsage, ms: number): string {
  const s = (cpu.user + cpu.system) / 1e6;
  return `process CPU ${s.toFixed(1)} s (${(s / (ms / 1000)).toFixed(2)} cores)`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
