/**
 * `npm run bench:cdc:requests` — where the seed sink's requests lose to chDB direct: bench:cdc's
 * "requests alone" ratio (target 0.8) taken apart.
 *
 * In every round, three passes over the same changes in 5,000-row blocks, each into a fresh copy
 * of the seed's target table, one after another so that they meet the same machine:
 * - `direct`: the blocks straight into chDB (session.insert, as bench:cdc's peer);
 * - `in process`: the sink's exactly-once sequence per block (BEFORE_PROCESSING state write, the
 *   insert with the sink's settings and deduplication token, AFTER_PROCESSING state write)
 *   straight into the embedded server's engine (ChEngine.exec), with no HTTP;
 * - `over HTTP`: the same sequence through the embedded server's HTTP interface on 127.0.0.1, by
 *   the sink's own request path (lean-http.ts): bench:cdc's "requests alone".
 * For the two sequences, the time spent inside the engine (ChEngine.exec: its queue, statements and
 * chDB) is shown apart; the rest of a block's time over HTTP is the HTTP path's.
 * Before the rounds, the two costs no code of ours can lower are measured on their own:
 * - a chDB statement (`SELECT 1`, and the state write) on the engine's data directory;
 * - an HTTP round trip on 127.0.0.1 by the same client to a node server that only reads the
 *   body, with a state write's body and with an insert's.
 * From them, the most the requests-alone ratio could reach were the server's own HTTP code free:
 * each round's in-process pass plus the floor of its three round trips (two small, one with the
 * insert's body). Even that is optimistic: over HTTP the engine's own time grows too. An
 * in-process pass with a pause of about 1 ms before each statement took as long as the pass over
 * HTTP (21.4 against 22.1 ms a block, 2026-11-29): while a round trip is on its way chDB's threads
 * go idle, and the next statement starts cold.
 *
 *   --changes N  rows in all (default 1,000,000: 200 blocks)
 *   --rounds R   rounds of the three passes (default 5: this machine's speed varies by half from one pass to the next)
 *   --out FILE   JSON results (default bench/results/cdc-requests-latest.json)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session } from 'chdb';
import { collectGarbage, formatRatio, formatTable, median, positiveInt } from './bench-util.js';
import { silentLogger } from '../core/common/log.js';
import { closeServer, listen, readBody } from '../core/common/http.js';
import { ChEngine } from '../core/cdc/clickhouse/engine.js';
import { createClickHouseHttpHandler, HANDLER_PARAMETERS } from '../core/cdc/clickhouse/http.js';
import { LeanHttp } from '../core/cdc/connect/plugins/clickhouse-sink/lean-http.js';
import { stateTableQuery, stateWriteQuery } from '../core/cdc/connect/plugins/clickhouse-sink/state.js';
import { BLOCK_ROWS, insertDirect, mergesEnded, sessionQuery } from './cdc/chdb-direct.js';
import { blocksOf, seedSink, sendBlocks, type RequestTimes, type SinkWrites } from './cdc/requests-alone.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.resolve(here, '../assets/cdc');
const { values: args } = parseArgs({ options: { changes: { type: 'string' }, rounds: { type: 'string' }, out: { type: 'string' } } });
const N = positiveInt(args.changes, '--changes', 1_000_000);
const ROUNDS = positiveInt(args.rounds, '--rounds', 5);
const OUT = path.resolve(args.out ?? path.join(here, 'results/cdc-requests-latest.json'));
/** Statements or round trips timed for each floor. */
const FLOOR_SAMPLES = 400;
const PASSES = ['direct', 'in process', 'over HTTP'] as const;
type Pass = (typeof PASSES)[number];

/** Topic values as the seed's pipeline writes them (unwrap with rewrite): one per changed row. */
function values(n: number): { offset: number; value: string }[] {
  const out: { offset: number; value: string }[] = [];
  for (let i = 0; i < n; i++) {
    const id = 1_000_000 + i;
    out.push({ offset: i, value: JSON.stringify({ created_at: 1_764_000_000_000 + i, id, name: `c${id}-${1 + Math.floor(i / 5000)}`, __deleted: 'false' }) });
  }
  return out;
}

/** Milliseconds to a hundredth: a block's requests differ by fractions of one. */
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** Median milliseconds of `n` calls of `fn`, one after another. */
async function medianOf(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * The sink's writes straight to the engine: the statements LeanHttp would POST, with the settings
 * the HTTP handler would pass on (it consumes wait_end_of_query and the like itself), with no HTTP.
 */
function engineWrites(engine: ChEngine): SinkWrites {
  const text = (settings: Record<string, string | number> = {}) => Object.fromEntries(Object.entries(settings).flatMap(([k, v]) => (HANDLER_PARAMETERS.has(k) ? [] : [[k, String(v)]])));
  return {
    command: async (query) => void (await engine.exec({ query })),
    exec: async (query, data, settings) => void (await engine.exec({ query, data: Buffer.isBuffer(data) ? data : Buffer.from(data), settings: text(settings) })),
  };
}

/** A server that reads the request's body and answers 200 with nothing: HTTP alone. */
async function bareServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    void readBody(req, 1 << 30).then(() => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' });
      res.end();
    });
  });
  const port = await listen(server, '127.0.0.1', 0, 'bench', '');
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

const leanClient = (url: string) => new LeanHttp({ url, username: 'default', password: '', database: 'default', requestTimeoutMs: 60_000, maxOpenConnections: 4 });

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-requests-'));
  const dataDir = path.join(dir, 'chdb');
  const blocks = blocksOf(values(N), BLOCK_ROWS);
  const targetDdl = readFileSync(path.join(ASSETS, 'target-table.sql'), 'utf8');
  const sink = seedSink(ASSETS);
  const engine = await ChEngine.open({ dataDir, log: silentLogger });
  // Time inside the engine (its queue, its statements, chDB), so that what HTTP adds shows apart.
  let engineMs = 0;
  const exec = engine.exec.bind(engine);
  engine.exec = async (req) => {
    const t0 = performance.now();
    try {
      return await exec(req);
    } finally {
      engineMs += performance.now() - t0;
    }
  };
  const server = http.createServer(createClickHouseHttpHandler({ engine, log: silentLogger, users: { default: '' } }));
  const port = await listen(server, '127.0.0.1', 0, 'clickhouse', '');
  const lean = leanClient(`http://127.0.0.1:${port}`);
  const direct = new Session(dataDir);
  const bare = await bareServer();
  const bareLean = leanClient(bare.url);
  try {
    await engine.query(stateTableQuery({ onCluster: sink.keeperOnCluster, zkPath: sink.zkPath, zkDatabase: sink.zkDatabase }));
    const stateWrite = (i: number) => stateWriteQuery(sink.zkDatabase, 'floor-0', i * BLOCK_ROWS, i * BLOCK_ROWS + BLOCK_ROWS - 1, 'BEFORE_PROCESSING');
    const floors = {
      select1: await medianOf(FLOOR_SAMPLES, () => direct.queryAsync('SELECT 1', { format: 'TabSeparated' })),
      stateWrite: await medianOf(FLOOR_SAMPLES, (i) => direct.queryAsync(stateWrite(i), { format: 'TabSeparated' })),
      smallTrip: await medianOf(FLOOR_SAMPLES, (i) => bareLean.command(stateWrite(i))),
      insertTrip: await medianOf(Math.min(FLOOR_SAMPLES, blocks.length * 2), (i) => bareLean.exec('INSERT INTO `default`.`t` FORMAT JSONEachRow', blocks[i % blocks.length]!.body, {})),
    };

    const perBlock = new Map<Pass, number[]>(PASSES.map((p) => [p, []]));
    const inEngine = new Map<Pass, number[]>(PASSES.map((p) => [p, []]));
    const requests: Record<'in process' | 'over HTTP', RequestTimes> = {
      'in process': { before: [], insert: [], after: [] },
      'over HTTP': { before: [], insert: [], after: [] },
    };
    let run = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // each round starts with another pass, so that none always follows the same one
      for (let k = 0; k < PASSES.length; k++) {
        const pass = PASSES[(round + k) % PASSES.length]!;
        const table = `customers_${++run}`;
        await engine.query(targetDdl.replace('default.customers', `default.${table}`));
        await mergesEnded(sessionQuery(direct));
        engineMs = 0;
        const t0 = performance.now();
        if (pass === 'direct') await insertDirect(direct, `default.${table}`, blocks.map((b) => b.body));
        else await sendBlocks(pass === 'in process' ? engineWrites(engine) : lean, blocks, table, sink, requests[pass]);
        perBlock.get(pass)!.push((performance.now() - t0) / blocks.length);
        inEngine.get(pass)!.push(engineMs / blocks.length);
        // the pass's parts merged now, not under the next pass (mergesEnded sees only running merges)
        await engine.query(`OPTIMIZE TABLE default.${table} FINAL`);
        collectGarbage();
      }
    }

    const direct_ = perBlock.get('direct')!;
    /** The median over rounds of direct's time over `xs`'s, each round's against its own direct pass. */
    const ratio = (xs: number[]) => median(xs.map((x, r) => direct_[r]! / x));
    const trips = 2 * floors.smallTrip + floors.insertTrip;
    // the engine's sequence as the in-process pass ran it, carried by HTTP that costs only its floor
    const leanest = perBlock.get('in process')!.map((x) => x + trips);
    const load = os.loadavg()[0]!;
    console.log(`\nThe seed sink's requests, ${N.toLocaleString('en-US')} rows in ${blocks.length} blocks of ${BLOCK_ROWS.toLocaleString('en-US')}, medians of ${ROUNDS} rounds; ${os.cpus().length} CPUs, load ${load.toFixed(1)}\n`);
    const m = (ys: number[] | undefined) => (ys ? ms(median(ys)) : '');
    console.log(
      formatTable(
        ['per block', 'time', 'direct / this', 'in the engine', 'BEFORE', 'insert', 'AFTER', 'rounds'],
        [
          ...PASSES.map((p) => {
            const xs = perBlock.get(p)!;
            const r = p === 'direct' ? undefined : requests[p];
            return [p, m(xs), formatRatio(ratio(xs)), r ? m(inEngine.get(p)) : '', m(r?.before), m(r?.insert), m(r?.after), xs.map(ms).join(', ')];
          }),
          ['in process + HTTP floor', m(leanest), formatRatio(ratio(leanest)), '', '', '', '', leanest.map(ms).join(', ')],
        ],
        ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
      ),
    );
    console.log(
      `\nFloors (medians of ${FLOOR_SAMPLES}): a chDB statement ${ms(floors.select1)} (SELECT 1), the state write ${ms(floors.stateWrite)};` +
        `\nan HTTP round trip on 127.0.0.1 to a server that only reads the body: ${ms(floors.smallTrip)} (a state write), ${ms(floors.insertTrip)} (an insert's ${(blocks[0]!.body.length / 1024).toFixed(0)} KiB).` +
        `\n"in process + HTTP floor": each round's in-process pass plus the floor of its three round trips (${ms(trips)} a block): the most` +
        `\n"over HTTP" could reach were the server's own HTTP code free. The direct / this column is the median of the rounds' ratios.`,
    );
    const result = {
      bench: 'cdc-requests',
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, load1: load },
      rows: N,
      blocks: blocks.length,
      rounds: ROUNDS,
      floorsMs: floors,
      perBlockMs: Object.fromEntries(PASSES.map((p) => [p, perBlock.get(p)!])),
      inEngineMs: { 'in process': inEngine.get('in process')!, 'over HTTP': inEngine.get('over HTTP')! },
      requestMedianMs: Object.fromEntries(Object.entries(requests).map(([p, r]) => [p, { before: median(r.before), insert: median(r.insert), after: median(r.after) }])),
      ratios: { inProcess: ratio(perBlock.get('in process')!), overHttp: ratio(perBlock.get('over HTTP')!), inProcessPlusHttpFloor: ratio(leanest) },
    };
    writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');
    console.log(`\nresults: ${path.relative(process.cwd(), OUT)}`);
  } finally {
    bareLean.close();
    await bare.close();
    lean.close();
    await closeServer(server);
    direct.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
