/**
 * `npm run bench` — runs every benchmark that exists, one after the other, each through its own
 * npm script (so each gets the node flags its script sets). A benchmark whose file is missing
 * is skipped with a message. Options reach the benchmarks through environment variables, e.g.
 * LOUPE_BENCH_DOCS=200000 npm run bench.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const BENCHMARKS = [
  { script: 'bench:search', file: 'bench/search.ts' },
  { script: 'bench:sts', file: 'bench/sts.ts' },
  { script: 'bench:cdc', file: 'bench/cdc.ts' },
  { script: 'bench:ui', file: 'bench/ui.ts' },
];

function runScript(script: string): Promise<number> {
  return new Promise((done) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', () => done(1));
  });
}

export type Plan = { script: string; run: true } | { script: string; run: false; reason: string };

/** Which benchmarks run: those with both an npm script and a file; the others say why not. */
export function planBenchmarks(scripts: Record<string, string>, exists: (file: string) => boolean): Plan[] {
  return BENCHMARKS.map(({ script, file }) => {
    if (!scripts[script]) return { script, run: false, reason: 'no npm script' };
    if (!exists(file)) return { script, run: false, reason: `${file} does not exist yet` };
    return { script, run: true };
  });
}

async function main(): Promise<void> {
  const scripts = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const summary: string[] = [];
  for (const plan of planBenchmarks(scripts, (file) => existsSync(resolve(root, file)))) {
    if (!plan.run) {
      const line = `${plan.script}: skipped (${plan.reason})`;
      process.stdout.write(`\n${line}\n`);
      summary.push(line);
      continue;
    }
    process.stdout.write(`\n=== npm run ${plan.script} ===\n`);
    const started = performance.now();
    const code = await runScript(plan.script);
    summary.push(`${plan.script}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (code !== 0) process.exitCode = 1;
  }
  process.stdout.write(`\n${summary.join('\n')}\n`);
}

// Run only when executed as the script, not when a test imports planBenchmarks.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
