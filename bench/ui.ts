/**
 * `npm run bench:ui` — the workbenches' speed in Debian's Chromium against the real `loupe serve`,
 * one suite per workbench in bench/ui/<workbench>.ts. Each suite exports `run(ctx)` and prints
 * its own figures and targets; a suite whose file is missing is skipped with a message.
 * `LOUPE_BENCH_UI=relevance,cdc` runs only those.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const UI_SUITES = ['relevance', 'federation', 'cdc'] as const;

export interface UiSuite {
  run(): Promise<void>;
}

/** The suites to run: all, or those named in LOUPE_BENCH_UI (unknown names are an error). */
export function pickSuites(env: string | undefined): string[] {
  if (!env) return [...UI_SUITES];
  const names = env.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(UI_SUITES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`LOUPE_BENCH_UI names no suite: ${unknown.join(', ')} (suites: ${UI_SUITES.join(', ')})`);
  return names;
}

async function main(): Promise<void> {
  const summary: string[] = [];
  for (const name of pickSuites(process.env.LOUPE_BENCH_UI)) {
    const file = resolve(root, 'bench', 'ui', `${name}.ts`);
    if (!existsSync(file)) {
      summary.push(`${name}: skipped (bench/ui/${name}.ts does not exist yet)`);
      continue;
    }
    process.stdout.write(`\n=== bench:ui ${name} ===\n`);
    const started = performance.now();
    try {
      const suite = (await import(pathToFileURL(file).href)) as UiSuite;
      await suite.run();
      summary.push(`${name}: ok in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } catch (e) {
      process.exitCode = 1;
      summary.push(`${name}: failed (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  process.stdout.write(`\n${summary.join('\n')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
