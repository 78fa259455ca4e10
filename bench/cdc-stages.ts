/**
 * `npm run bench:cdc:stages` — the CDC pipeline's two halves timed one at a time, each with the
 * other idle, to show which one bounds `bench:cdc`:
 *
 * 1. source: N changes committed while the seed source connector is paused; then resumed, and
 *    timed until the topic holds every change (change log → envelope → unwrap → RegexRouter →
 *    JSON converter → topic log);
 * 2. sink: with the topic full and the source paused again, the seed sink connector (exactlyOnce)
 *    is created and timed until its AFTER_PROCESSING state covers the topic's last offset
 *    (fetch → JSON converter → Flatten → JSONEachRow blocks → embedded ClickHouse);
 * 3. the sink's requests alone: the same rows, already joined into the sink's 5000-row JSONEachRow
 *    bodies, sent through the sink's request path (lean-http.ts) the way the sink's exactlyOnce sends each block —
 *    BEFORE_PROCESSING state write, insert with the sink's settings and dedup token,
 *    AFTER_PROCESSING state write — into a fresh table, with no Kafka Connect work at all: the
 *    fastest the sink can go on this machine however cheap its own work became;
 * 4. the peer of `bench:cdc`: the same bodies straight into chDB (after the service has closed).
 *
 * Stage 3 against stage 4 is the ceiling of `bench:cdc`'s ratio that the exactly-once request
 * sequence leaves. The CPU figures are the process's (every thread, chDB's included) over each stage.
 *
 *   --changes N   changes (default 200,000)
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session } from 'chdb';
import { formatMs, formatRatio, formatTable, positiveInt } from './bench-util.js';
import { translateDdl } from '../core/cdc/clickhouse/translate.js';
import { Workload } from './cdc/workload.js';
import { withCdcServices } from './cdc/services.js';
import { post, SOURCE_CONFIG, sinkConfig, topicEnd, topicValues, visibleEnd } from './cdc/pipelines.js';
import { blocksOf, sendRequestsAlone } from './cdc/requests-alone.js';
import { insertDirect, mergesEnded, sessionQuery } from './cdc/chdb-direct.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.resolve(here, '../assets/cdc');
const { values: args } = parseArgs({ options: { changes: { type: 'string' } } });
const N = positiveInt(args.changes, '--changes', 200_000);
const BLOCK = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  await withCdcServices('cdc-stages', async ({ chDir, ch, client, connect, close }) => {
    await client.command({ query: readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8') });
    const topic = () => topicEnd(connect.api.topicLog);
    const waitFor = async (what: string, done: () => Promise<boolean>, everyMs: number) => {
      const until = Date.now() + 600_000;
      while (!(await done())) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await sleep(everyMs);
      }
    };

    // the snapshot of the seed rows, then the workload committed while the connector is paused
    await post(`${connect.url}/connectors`, SOURCE_CONFIG);
    await waitFor('the snapshot', async () => (await topic()) > 0, 10);
    const snapshot = await topic();
    await post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/pause`, undefined, 'PUT');
    await sleep(1200); // the task notices the pause within a second
    const work = new Workload();
    let committed = 0;
    while (committed < N) {
      const tx = work.next(Math.min(BLOCK, Math.max(10, N - committed)));
      connect.api.source.executeSync('demo', tx.sql);
      committed += tx.changes;
    }
    const target = snapshot + committed;

    let cpu0 = process.cpuUsage();
    let t0 = performance.now();
    await post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/resume`, undefined, 'PUT');
    await waitFor('the topic', async () => (await topic()) >= target, 2);
    const sourceMs = performance.now() - t0;
    const sourceCpu = process.cpuUsage(cpu0);
    await post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/pause`, undefined, 'PUT');

    cpu0 = process.cpuUsage();
    t0 = performance.now();
    await post(`${connect.url}/connectors`, sinkConfig(ASSETS, new URL(ch.url).port));
    await waitFor('the sink', async () => (await visibleEnd((sql) => ch.api.query(sql))) >= target, 20);
    const sinkMs = performance.now() - t0;
    const sinkCpu = process.cpuUsage(cpu0);
    await post(`${connect.url}/connectors/${sinkConfig(ASSETS, '0').name}/pause`, undefined, 'PUT');

    // 3. the sink's request sequence alone, on the bodies the sink sent (the topic's values, 5000 a block)
    const bodies = blocksOf(await topicValues(connect.api.topicLog, 0, target), BLOCK);
    // (after the parts the sink stage left have been merged, so that stages 3 and 4 start alike)
    const { ms: chainMs, cpu: chainCpu } = await sendRequestsAlone(ch.url, ASSETS, bodies, 'customers_chain', (sql) => ch.api.query(sql));
    await close();

    // 4. the peer: the same bodies straight into chDB, as bench:cdc's peer inserts them
    const session = new Session(path.join(chDir, 'chdb'));
    const targetDdl = readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8');
    await session.queryAsync(translateDdl(targetDdl.replace('default.customers', 'default.customers_direct')).sql);
    await mergesEnded(sessionQuery(session));
    const { ms: directMs, cpu: directCpu } = await insertDirect(session, 'default.customers_direct', bodies.map((b) => b.body));
    session.close();

    const cpuUs = (c: NodeJS.CpuUsage, n: number) => ((c.user + c.system) / n).toFixed(1);
    console.log(`\nCDC stages, ${committed.toLocaleString('en-US')} changes, each stage alone, ${os.cpus().length} CPUs\n`);
    console.log(
      formatTable(
        ['stage', 'wall', 'per record', 'CPU per record', 'note'],
        [
          ['source', formatMs(sourceMs), `${((sourceMs * 1000) / committed).toFixed(1)} µs`, `${cpuUs(sourceCpu, committed)} µs`, 'change log -> envelope -> unwrap -> RegexRouter -> JSON -> topic'],
          ['sink', formatMs(sinkMs), `${((sinkMs * 1000) / target).toFixed(1)} µs`, `${cpuUs(sinkCpu, target)} µs`, `${formatMs(sinkMs / Math.ceil(target / BLOCK))} per ${BLOCK}-record block, exactlyOnce; includes starting the task`],
          ['sink requests alone', formatMs(chainMs), `${((chainMs * 1000) / target).toFixed(1)} µs`, `${cpuUs(chainCpu, target)} µs`, `${formatMs(chainMs / bodies.length)} per block: BEFORE state, insert, AFTER state through the sink's request path (lean-http.ts)`],
          ['chDB direct (the peer)', formatMs(directMs), `${((directMs * 1000) / target).toFixed(1)} µs`, `${cpuUs(directCpu, target)} µs`, `${formatMs(directMs / bodies.length)} per block: session.insert of the same bodies`],
        ],
        ['left', 'right', 'right', 'right', 'left'],
      ),
    );
    console.log(`\nceiling of bench:cdc's ratio left by the exactly-once requests: ${formatRatio(directMs / chainMs)} (requests alone against chDB direct)`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
