/**
 * `npm run bench:search` — Loupe's search engine side by side with MiniSearch, FlexSearch,
 * Lunr and Orama on the SpamAssassin corpus and on generated access logs (issue 3, item 9).
 *
 *   --docs N          access-log documents (default 1,000,000; env LOUPE_BENCH_DOCS; 200k, 1m ok)
 *   --datasets LIST   spam,logs (default both)
 *   --engines LIST    Loupe,MiniSearch,FlexSearch,Lunr,Orama (default all)
 *   --build-limit S   stop a peer whose build takes longer (default 120)
 *   --query-limit S   stop a peer when one query takes longer (default 60)
 *   --heap-mb MB      heap limit of each engine's worker (default 12288)
 *   --out FILE        JSON results (default bench/results/search-latest.json); the printed
 *                     tables go to the same name with .txt
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatBytes, formatMs, positiveInt, positiveNumber } from './bench-util.js';
import { ENGINE_NAMES, type EngineName } from './search/engines/index.js';
import type { DatasetSpec, WorkerInput, WorkerMessage } from './search/protocol.js';
import { datasetSection, FOOTNOTES, LUCENE_ANCHOR, runJson, type DatasetReport } from './search/report.js';
import { runEngine, type EngineRun, type RunLimits } from './search/run-engine.js';

const here = dirname(fileURLToPath(import.meta.url));

function options() {
  const { values } = parseArgs({
    options: {
      docs: { type: 'string' },
      datasets: { type: 'string' },
      engines: { type: 'string' },
      'build-limit': { type: 'string' },
      'query-limit': { type: 'string' },
      'heap-mb': { type: 'string' },
      out: { type: 'string' },
    },
  });
  const docs = positiveInt(values.docs ?? process.env.LOUPE_BENCH_DOCS, '--docs / LOUPE_BENCH_DOCS', 1_000_000);
  const datasets = (values.datasets ?? 'spam,logs').split(',').map((s) => s.trim());
  for (const d of datasets) if (d !== 'spam' && d !== 'logs') throw new Error(`--datasets: unknown data set ${JSON.stringify(d)} (spam, logs)`);
  const engines = (values.engines ?? ENGINE_NAMES.join(',')).split(',').map((s) => {
    const name = ENGINE_NAMES.find((e) => e.toLowerCase() === s.trim().toLowerCase());
    if (!name) throw new Error(`--engines: unknown engine ${JSON.stringify(s)} (${ENGINE_NAMES.join(', ')})`);
    return name;
  });
  const limits: RunLimits = {
    buildLimitMs: positiveNumber(values['build-limit'], '--build-limit', 120) * 1000,
    queryLimitMs: positiveNumber(values['query-limit'], '--query-limit', 60) * 1000,
    heapLimitMb: positiveInt(values['heap-mb'], '--heap-mb', 12_288),
  };
  const out = resolve(values.out ?? resolve(here, 'results/search-latest.json'));
  return { docs, datasets, engines, limits, out };
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Everything printed to stdout, also written next to the JSON as the table README quotes. */
const printed: string[] = [];
function print(text: string): void {
  process.stdout.write(text);
  printed.push(text);
}

/** Which engine code the figures belong to: the last commit touching core/search, and whether the tree differs from it. */
function engineRevision(): { commit: string; uncommittedChanges: boolean } | null {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: resolve(here, '..'), encoding: 'utf8' }).trim();
    return { commit: git('log', '-1', '--format=%H', '--', 'core/search'), uncommittedChanges: git('status', '--porcelain', '--', 'core/search') !== '' };
  } catch {
    return null;
  }
}

function logEvent(dataset: string, engine: EngineName, m: WorkerMessage): void {
  const at = `[${dataset}] ${engine}:`;
  if (m.type === 'dataset') progress(`${at} ${m.docs.toLocaleString('en-US')} docs ready in ${formatMs(m.generateMs)}, building…`);
  else if (m.type === 'built') progress(`${at} built in ${formatMs(m.ms)}`);
  else if (m.type === 'memory') progress(`${at} memory Δ ${formatBytes(m.memory.totalDelta)}`);
  else if (m.type === 'kind') progress(`${at} ${m.kind}: ${m.loop.perSecond.toFixed(2)} q/s (${m.loop.iterations} queries in ${formatMs(m.loop.ms)})`);
  else if (m.type === 'skipped') progress(`${at} ${m.kind} skipped: ${m.reason}`);
  else if (m.type === 'error') progress(`${at} error during ${m.phase}: ${m.message}`);
}

async function runDataset(spec: DatasetSpec, title: string, engines: EngineName[], limits: RunLimits): Promise<DatasetReport> {
  const runs: EngineRun[] = [];
  const name = spec.kind;
  for (const engine of engines) {
    const input: WorkerInput = {
      engine,
      dataset: spec,
      // One pass over the whole query set when the engine is fast enough (capped at 5 s), so
      // JIT and filter caches are warm for the queries that are then timed.
      warmupQueries: 200,
      warmupMaxMs: 5_000,
      loop: { minMs: 2_000, minIterations: 200, maxMs: 8_000 },
      budgetMs: 300_000,
      aliveEveryMs: Math.min(250, limits.queryLimitMs / 4),
    };
    const run = await runEngine(input, limits, (e, m) => logEvent(name, e, m));
    if (run.status !== 'ok') progress(`[${name}] ${engine}: ${run.status}: ${run.reason}`);
    runs.push(run);
  }
  const docs = runs.find((r) => r.docs !== undefined)?.docs ?? 0;
  return { dataset: name, title: `${title} (${docs.toLocaleString('en-US')} documents)`, docs, queriesPerKind: 200, runs };
}

function printReport(report: DatasetReport): void {
  print(datasetSection(report));
}

async function main(): Promise<void> {
  const opts = options();
  if (!(globalThis as { gc?: unknown }).gc) {
    progress('note: run with node --expose-gc (npm run bench:search does) so memory is measured after a forced GC');
  }
  const reports: DatasetReport[] = [];
  const started = performance.now();
  // Other work on the machine skews every figure; the load average is recorded with them.
  const loadAtStart = loadavg()[0];
  const revision = engineRevision();
  const write = () => {
    mkdirSync(dirname(opts.out), { recursive: true });
    const json = {
      benchmark: 'search',
      generatedAt: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? '',
        totalMemoryBytes: totalmem(),
        node: process.version,
        platform: process.platform,
        loadAverage1m: { atStart: loadAtStart, atEnd: loadavg()[0] },
      },
      loupeEngine: revision,
      config: { accessLogDocs: opts.docs, engines: opts.engines, ...opts.limits, queriesPerKind: 200, topK: 10 },
      luceneAnchor: LUCENE_ANCHOR,
      datasets: reports.map(runJson),
      footnotes: FOOTNOTES,
      wallMs: performance.now() - started,
    };
    writeFileSync(opts.out, JSON.stringify(json, null, 2) + '\n');
  };
  if (opts.datasets.includes('spam')) {
    const report = await runDataset({ kind: 'spam-assassin' }, 'SpamAssassin public mail corpus', opts.engines, opts.limits);
    reports.push(report);
    printReport(report);
    write();
  }
  if (opts.datasets.includes('logs')) {
    const report = await runDataset({ kind: 'access-logs', docs: opts.docs }, 'Generated access logs', opts.engines, opts.limits);
    reports.push(report);
    printReport(report);
    write();
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at start / ${loadavg()[0].toFixed(1)} at end`;
  print(['', 'Notes:', ...FOOTNOTES.map((f) => `- ${f}`), `- Machine: ${machine}.`, `- Total ${formatMs(performance.now() - started)}.`, ''].join('\n'));
  const text = opts.out.replace(/\.json$/, '') + '.txt';
  writeFileSync(text, printed.join(''));
  process.stdout.write(`\nResults in ${opts.out} and ${text}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench:search failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
