/**
 * Turns engine runs into the printed tables, the ratios against MiniSearch and the Lucene
 * anchor, and the JSON written to bench/results/. Pure functions of the runs.
 */
import { formatBytes, formatMs, formatRate, formatRatio, formatTable } from '../bench-util.js';
import type { EngineRun, KindResult } from './run-engine.js';
import { QUERY_KIND_LABELS, QUERY_KINDS, type QueryKind } from './types.js';

/**
 * Lucene 9.11.1, single thread, 1,000,000 generated access-log documents on this machine, as
 * quoted in issue 3 (the targets are stated against these figures).
 */
export const LUCENE_ANCHOR = {
  version: '9.11.1',
  docs: 1_000_000,
  buildMs: 7_000,
  indexBytes: 38 * 1024 * 1024,
  perSecond: { terms1: 1_000, terms2: 460, terms3: 750 } as Partial<Record<QueryKind, number>>,
};

/** MiniSearch on the same 1M documents, as quoted in issue 3 (for comparison with this run's figure). */
export const ISSUE_MINISEARCH = { buildMs: 28_000, heapBytes: 970 * 1024 * 1024, perSecond: { terms1: 1.5, terms2: 0.7, terms3: 0.5 } };

export const TARGETS = { vsMiniSearchThroughput: 100, vsMiniSearchMemory: 0.25, vsLuceneFactor: 2 };

/**
 * Mean share of top-10 ids two engines agree on, over the sampled queries both answered.
 * Per query: |A ∩ B| / max(|A|, |B|); queries where both return nothing are left out.
 */
export function topOverlap(a: string[][], b: string[][]): { mean: number; queries: number } {
  let sum = 0;
  let queries = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const size = Math.max(a[i].length, b[i].length);
    if (size === 0) continue;
    const inA = new Set(a[i]);
    let common = 0;
    for (const id of new Set(b[i])) if (inA.has(id)) common++;
    sum += common / size;
    queries++;
  }
  return { mean: queries ? sum / queries : NaN, queries };
}

function overlapWith(reference: EngineRun | undefined, run: EngineRun): { mean: number; queries: number } | undefined {
  if (!reference) return undefined;
  let sum = 0;
  let queries = 0;
  for (const kind of QUERY_KINDS) {
    const a = reference.kinds[kind];
    const b = run.kinds[kind];
    if (a?.status !== 'ok' || b?.status !== 'ok') continue;
    const o = topOverlap(a.sampleIds, b.sampleIds);
    if (o.queries) {
      sum += o.mean * o.queries;
      queries += o.queries;
    }
  }
  return queries ? { mean: sum / queries, queries } : undefined;
}

export function throughput(run: EngineRun | undefined, kind: QueryKind): number | undefined {
  const k = run?.kinds[kind];
  return k?.status === 'ok' ? k.loop.perSecond : undefined;
}

function kindCell(k: KindResult | undefined): string {
  if (!k) return '–';
  switch (k.status) {
    case 'ok':
      return formatRate(k.loop.perSecond);
    case 'stopped':
      return `> ${k.limitMs / 1000} s/query (stopped)`;
    case 'skipped':
      return 'not run';
    case 'failed':
      return 'failed';
  }
}

function buildCell(run: EngineRun): string {
  if (run.buildMs !== undefined) return formatMs(run.buildMs);
  if (run.buildStopped && run.status === 'stopped') {
    const { limitMs, indexed } = run.buildStopped;
    const where = run.docs !== undefined && indexed >= run.docs ? 'stopped in its final build step' : `stopped at ${indexed.toLocaleString('en-US')} docs`;
    return `> ${limitMs / 1000} s (${where})`;
  }
  if (run.buildStopped) return `failed at ${run.buildStopped.indexed.toLocaleString('en-US')} docs`;
  return run.status === 'ok' ? '–' : 'not run';
}

export interface DatasetReport {
  dataset: string;
  title: string;
  docs: number;
  queriesPerKind: number;
  runs: EngineRun[];
}

/** The main table: one row per engine. */
export function engineTable(report: DatasetReport): string {
  const loupe = report.runs.find((r) => r.engine === 'Loupe');
  const headers = ['engine', 'build', ...QUERY_KINDS.map((k) => `${QUERY_KIND_LABELS[k]} q/s`), 'memory Δ', 'own figure', 'top-10 overlap vs Loupe'];
  const rows = report.runs.map((run) => {
    const overlap = run.engine === 'Loupe' ? undefined : overlapWith(loupe, run);
    return [
      run.engine,
      buildCell(run),
      ...QUERY_KINDS.map((k) => kindCell(run.kinds[k])),
      run.memory ? formatBytes(run.memory.totalDelta) : '–',
      run.memory?.ownBytes !== undefined ? formatBytes(run.memory.ownBytes) : '–',
      run.engine === 'Loupe' ? '(reference)' : overlap ? `${(overlap.mean * 100).toFixed(0)} % (${overlap.queries} q)` : '–',
    ];
  });
  return formatTable(headers, rows);
}

export interface RatioLine {
  metric: string;
  loupe?: number;
  peer?: number;
  /** loupe / peer for throughput, loupe / peer for memory and build time. */
  ratio?: number;
  target: string;
  met?: boolean;
}

/**
 * Throughput of two engines over exactly the same queries: the first k of the fixed set, where
 * k is how many both answered on their first timed pass. A slow peer may answer only a few
 * queries in its time box; comparing its rate with the fast engine's rate over the whole set
 * would compare different queries.
 */
export function sameQueryRates(
  a: EngineRun | undefined,
  b: EngineRun | undefined,
  kind: QueryKind,
): { a: number; b: number; queries: number } | undefined {
  const ka = a?.kinds[kind];
  const kb = b?.kinds[kind];
  if (ka?.status !== 'ok' || kb?.status !== 'ok') return undefined;
  const k = Math.min(ka.latencies.length, kb.latencies.length);
  if (k === 0) return undefined;
  const sum = (xs: number[]) => xs.slice(0, k).reduce((s, x) => s + x, 0);
  return { a: (k * 1000) / sum(ka.latencies), b: (k * 1000) / sum(kb.latencies), queries: k };
}

export function miniSearchRatios(report: DatasetReport): RatioLine[] {
  const loupe = report.runs.find((r) => r.engine === 'Loupe');
  const mini = report.runs.find((r) => r.engine === 'MiniSearch');
  const lines: RatioLine[] = QUERY_KINDS.map((kind) => {
    const same = sameQueryRates(loupe, mini, kind);
    const ratio = same ? same.a / same.b : undefined;
    return {
      metric: `${QUERY_KIND_LABELS[kind]} q/s${same ? ` (same ${same.queries} queries)` : ''}`,
      loupe: same?.a,
      peer: same?.b,
      ratio,
      target: `≥ ${TARGETS.vsMiniSearchThroughput}×`,
      met: ratio === undefined ? undefined : ratio >= TARGETS.vsMiniSearchThroughput,
    };
  });
  const lm = loupe?.memory?.totalDelta;
  const mm = mini?.memory?.totalDelta;
  const memRatio = lm !== undefined && mm ? lm / mm : undefined;
  lines.push({
    metric: 'memory (heap+external Δ after GC)',
    loupe: lm,
    peer: mm,
    ratio: memRatio,
    target: `≤ ${TARGETS.vsMiniSearchMemory}×`,
    met: memRatio === undefined ? undefined : memRatio <= TARGETS.vsMiniSearchMemory,
  });
  const lb = loupe?.buildMs;
  const mb = mini?.buildMs;
  lines.push({ metric: 'build time', loupe: lb, peer: mb, ratio: lb !== undefined && mb ? lb / mb : undefined, target: '–' });
  return lines;
}

export function luceneRatios(report: DatasetReport): RatioLine[] {
  const loupe = report.runs.find((r) => r.engine === 'Loupe');
  const lines: RatioLine[] = (['terms1', 'terms2', 'terms3'] as const).map((kind) => {
    const l = throughput(loupe, kind);
    const anchor = LUCENE_ANCHOR.perSecond[kind]!;
    const ratio = l !== undefined ? l / anchor : undefined;
    return {
      metric: `${QUERY_KIND_LABELS[kind]} q/s`,
      loupe: l,
      peer: anchor,
      ratio,
      target: `≥ ${1 / TARGETS.vsLuceneFactor}×`,
      met: ratio === undefined ? undefined : ratio >= 1 / TARGETS.vsLuceneFactor,
    };
  });
  const lb = loupe?.buildMs;
  const ratio = lb !== undefined ? lb / LUCENE_ANCHOR.buildMs : undefined;
  lines.push({
    metric: 'build time',
    loupe: lb,
    peer: LUCENE_ANCHOR.buildMs,
    ratio,
    target: `≤ ${TARGETS.vsLuceneFactor}×`,
    met: ratio === undefined ? undefined : ratio <= TARGETS.vsLuceneFactor,
  });
  return lines;
}

function ratioValue(metric: string, v: number | undefined): string {
  if (v === undefined) return '–';
  if (metric.startsWith('memory')) return formatBytes(v);
  if (metric.startsWith('build')) return formatMs(v);
  return formatRate(v);
}

/** The ratio lines as a table; with `targets: false` the target and met columns are left out (ratios for information). */
export function ratioTable(lines: RatioLine[], peerName: string, opts: { targets: boolean } = { targets: true }): string {
  const values = (l: RatioLine) => [l.metric, ratioValue(l.metric, l.loupe), ratioValue(l.metric, l.peer), l.ratio === undefined ? '–' : formatRatio(l.ratio)];
  if (!opts.targets) return formatTable(['metric', 'Loupe', peerName, 'ratio'], lines.map(values));
  return formatTable(
    ['metric', 'Loupe', peerName, 'ratio', 'target', 'met'],
    lines.map((l) => [...values(l), l.target, l.met === undefined ? '–' : l.met ? 'yes' : 'NO']),
  );
}

/**
 * Whether issue 3's targets (≥ 100× MiniSearch, memory ≤ 0.25× MiniSearch, within 2× of
 * Lucene) are judged on this data set: they are stated for the generated access logs (at 1M
 * documents); other data sets show their ratios for information only.
 */
export function targetsApply(report: DatasetReport): boolean {
  return report.dataset === 'access-logs';
}

/** The printed section of one data set: the engine table, then the ratio tables. */
export function datasetSection(report: DatasetReport): string {
  const out: string[] = ['', `## ${report.title}`, '', engineTable(report), ''];
  const hasLoupe = report.runs.some((r) => r.engine === 'Loupe');
  const targets = targetsApply(report);
  const caveat = report.docs === LUCENE_ANCHOR.docs ? '' : ` — the targets are stated for ${LUCENE_ANCHOR.docs.toLocaleString('en-US')} docs, this run has ${report.docs.toLocaleString('en-US')}`;
  if (hasLoupe && report.runs.some((r) => r.engine === 'MiniSearch')) {
    if (targets) out.push(`Loupe vs MiniSearch (same run)${caveat}:`, ratioTable(miniSearchRatios(report), 'MiniSearch'), '');
    else {
      out.push(
        'Loupe vs MiniSearch (same run), for information:',
        ratioTable(miniSearchRatios(report), 'MiniSearch', { targets: false }),
        `The targets of issue 3 (≥ ${TARGETS.vsMiniSearchThroughput}× MiniSearch's throughput, memory ≤ ${TARGETS.vsMiniSearchMemory}× MiniSearch's, within ${TARGETS.vsLuceneFactor}× of Lucene) apply to the ${LUCENE_ANCHOR.docs.toLocaleString('en-US')} generated access logs below, not to this data set.`,
        '',
      );
    }
  }
  if (targets && hasLoupe) {
    out.push(
      `Loupe vs Lucene ${LUCENE_ANCHOR.version} anchor (single thread, 1M access-log docs, figures from issue 3; Lucene's index: ${formatBytes(LUCENE_ANCHOR.indexBytes)})${caveat}:`,
      ratioTable(luceneRatios(report), `Lucene ${LUCENE_ANCHOR.version}`),
      '',
    );
  }
  for (const note of failureNotes(report.runs)) out.push(`! ${note}`);
  return out.join('\n') + '\n';
}

/** Notes on how each peer was driven and what every figure means; printed under the tables. */
export const FOOTNOTES = [
  'Same documents and the same fixed queries for every engine; each engine runs in its own worker thread of one process, one after the other, all with the same V8 limits (old generation --heap-mb, young generation 192 MB).',
  'q/s: top-10 queries per second, single thread, after a warm-up pass over the query set (capped at 5 s); each kind then loops over its fixed set of 200 queries for at least 2 s and the whole set (capped at 8 s).',
  'Loupe gets Elasticsearch bodies: {"size":10,"_source":false,"query":{"match":{...}}}, and bool {must:[match], filter:[term]} (default track_total_hits, i.e. exact counts up to 10,000).',
  'must+filter: a 2-term match restricted to one tag (access logs: http.request.method = POST; mails: label = spam). Filters, as each peer\'s docs recommend: MiniSearch `filter` option (callback on stored field), Orama `where` on an enum property, FlexSearch tag index (`tag` option), Lunr has none: its scored results are post-filtered.',
  'Match semantics are OR everywhere: MiniSearch default combineWith OR, Orama threshold 1, Lunr optional terms, FlexSearch `suggest: true` (FlexSearch does not score with BM25; it ranks by term context).',
  'Analysis: no stemming and no stop words in any engine (Lunr\'s stemmer and stop-word filter are removed), lower-casing everywhere.',
  'memory Δ: growth of V8 heap + external memory (typed arrays) of the engine\'s worker over the build, after forced GC, data set excluded. "own figure": the engine\'s own statistic (Loupe: stats().memoryBytes).',
  'Loupe indexes every mapped field (postings, numeric columns, keyword ordinals for all 8 access-log fields) and keeps each document\'s _source compressed, as Elasticsearch does; the peers index the text and the tag only and keep no source.',
  'Loupe vs MiniSearch ratios are taken over the same queries: the first k of the fixed set that both answered on their first timed pass (MiniSearch at 1M docs answers only a few per time box), from per-query latencies.',
  'FlexSearch answers a 1-term query by slicing a list ranked at index time (no scoring at query time), hence its outsized 1-term figure.',
  'top-10 overlap: share of top-10 ids shared with Loupe on the warm-up queries both answered (informational: the engines score with different formulas).',
];

export function failureNotes(runs: EngineRun[]): string[] {
  return runs.filter((r) => r.status !== 'ok' && r.reason).map((r) => `${r.engine} ${r.status}: ${r.reason}`);
}

/** The JSON form of a run: sample ids are replaced by the overlap they produce. */
export function runJson(report: DatasetReport) {
  const loupe = report.runs.find((r) => r.engine === 'Loupe');
  return {
    dataset: report.dataset,
    title: report.title,
    docs: report.docs,
    queriesPerKind: report.queriesPerKind,
    engines: report.runs.map((run) => ({
      engine: run.engine,
      status: run.status,
      ...(run.reason ? { reason: run.reason } : {}),
      buildMs: run.buildMs ?? null,
      ...(run.buildStopped ? { buildStopped: run.buildStopped } : {}),
      memory: run.memory ?? null,
      queriesPerSecond: Object.fromEntries(QUERY_KINDS.map((k) => [k, throughput(run, k) ?? null])),
      queries: Object.fromEntries(
        QUERY_KINDS.map((k) => {
          const r = run.kinds[k];
          if (!r) return [k, null];
          if (r.status === 'ok') return [k, { status: 'ok', ...r.loop, sampled: r.sampleIds.length }];
          return [k, r];
        }),
      ),
      topOverlapWithLoupe: run.engine === 'Loupe' ? null : (overlapWith(loupe, run) ?? null),
      wallMs: run.wallMs,
    })),
  };
}
