/**
 * `npm run bench:cdc:contention` — what slows the sink while the source half runs: the main
 * thread's stalls, or the CPU the source takes from the machine.
 *
 * In `bench:cdc` the sink needs 33–37 ms per 5,000-row block while the source task runs on the
 * main thread, and about 20 ms once the topic is complete. The embedded ClickHouse's HTTP interface
 * shares the main thread with the source task, so each of the sink's three requests per block
 * may wait for a slice of the source's work to end. The source's CPU also competes with the sink
 * thread and chDB's threads for the machine's cores. Moving the source task to a thread of its own
 * would remove only the first cost.
 *
 * The bench fills the topic once, then times the seed sink (exactlyOnce) on the same records,
 * each time into a fresh table and state store, with one of:
 * - `alone`: nothing else running;
 * - `thread`: another thread keeping a core busy (the source task on a thread of its own);
 * - `main 1 ms` / `main 4 ms`: the main thread kept busy, with a turn of the event loop every 1 or
 *   4 ms (the source task on the main thread; its turns come every 1.6 ms at the median and
 *   4.6 ms at p90).
 * The modes take turns in every round, so they meet the machine's drift alike. The figure is the
 * median time per block over blocks 10–59 (the task's start left out).
 *
 *   --changes N  records in the topic (default 300,000; at least 300,000)
 *   --rounds R   rounds of the four modes (default 3)
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { formatMs, formatRatio, formatTable, median, positiveInt } from './bench-util.js';
import { Workload } from './cdc/workload.js';
import { withCdcServices } from './cdc/services.js';
import { post, SOURCE_CONFIG, sinkConfig, TOPIC, topicEnd } from './cdc/pipelines.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.resolve(here, '../assets/cdc');
const { values: args } = parseArgs({ options: { changes: { type: 'string' }, rounds: { type: 'string' } } });
const N = Math.max(300_000, positiveInt(args.changes, '--changes', 300_000));
const ROUNDS = positiveInt(args.rounds, '--rounds', 3);
/** Blocks timed: from the 10th insert to the 60th (the sink's start and its first blocks left out). */
const FIRST = 10;
const LAST = 59;
const MODES = ['alone', 'thread', 'main 1 ms', 'main 4 ms'] as const;
type Mode = (typeof MODES)[number];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the load of `mode`; the returned function stops it. */
function load(mode: Mode): () => Promise<void> {
  if (mode === 'alone') return async () => {};
  if (mode === 'thread') {
    const w = new Worker('for (;;) { for (let i = 0; i < 1e7; i++); }', { eval: true });
    return async () => void (await w.terminate());
  }
  const slice = mode === 'main 1 ms' ? 1 : 4;
  let on = true;
  const done = (async () => {
    while (on) {
      const end = performance.now() + slice;
      while (performance.now() < end);
      await new Promise((r) => setImmediate(r));
    }
  })();
  return async () => {
    on = false;
    await done;
  };
}

async function main() {
  await withCdcServices('cdc-contention', async ({ ch, client, connect }) => {
    // the topic, filled once by the seed source connector
    const topic = () => topicEnd(connect.api.topicLog);
    await post(`${connect.url}/connectors`, SOURCE_CONFIG);
    while ((await topic()) === 0) await sleep(10);
    const work = new Workload();
    for (let committed = 0; committed < N; ) {
      const tx = work.next(Math.min(5000, N - committed));
      connect.api.source.executeSync('demo', tx.sql);
      committed += tx.changes;
    }
    while ((await topic()) < N) await sleep(20);
    await post(`${connect.url}/connectors/${SOURCE_CONFIG.name}/pause`, undefined, 'PUT');

    const inserts = new Map<string, number[]>();
    ch.api.onInsert((e) => inserts.get(e.table)?.push(performance.now()));
    const targetDdl = readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8');
    const seed = sinkConfig(ASSETS, new URL(ch.url).port);
    const perBlock = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
    let run = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // each round starts with another mode, so that none always follows the same one
      for (let k = 0; k < MODES.length; k++) {
        const mode = MODES[(round + k) % MODES.length]!;
        const table = `customers_${++run}`;
        await client.command({ query: targetDdl.replace('default.customers', `default.${table}`) });
        const times: number[] = [];
        inserts.set(table, times);
        await sleep(500); // the previous run's merges have a moment to settle
        const stop = load(mode);
        const name = `${seed.name}-${run}`;
        // its own table and state store: a sink sharing the state key of another writes nothing
        await post(`${connect.url}/connectors`, { name, config: { ...seed.config, topic2TableMap: `${TOPIC}=${table}`, zkPath: `/kafka-connect-${run}`, zkDatabase: `connect_state_${run}` } });
        while (times.length <= LAST) await sleep(5);
        await stop();
        await post(`${connect.url}/connectors/${name}`, undefined, 'DELETE');
        perBlock.get(mode)!.push((times[LAST]! - times[FIRST]!) / (LAST - FIRST));
        inserts.delete(table);
        await client.command({ query: `DROP TABLE default.${table} SYNC` });
      }
    }

    const alone = median(perBlock.get('alone')!);
    console.log(`\nThe seed sink (exactlyOnce) on ${N.toLocaleString('en-US')} records, time per 5,000-record block (blocks ${FIRST}–${LAST}), median of ${ROUNDS} rounds; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}\n`);
    console.log(
      formatTable(
        ['while', 'per block', 'against alone', 'rounds'],
        MODES.map((m) => {
          const xs = perBlock.get(m)!;
          return [m, formatMs(median(xs)), formatRatio(median(xs) / alone), xs.map(formatMs).join(', ')];
        }),
        ['left', 'right', 'right', 'left'],
      ),
    );
    console.log(
      '\nthread: another thread keeps a core busy, the main thread is free (the source task on a thread of its own);' +
        '\nmain N ms: the main thread is busy and gives the event loop a turn every N ms (the source task where it is now).',
    );
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
