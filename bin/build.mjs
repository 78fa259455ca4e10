#!/usr/bin/env node
// `npm run build`: everything electron-builder packages, into dist/ (or --out DIR).
//   dist/core/**, dist/electron/*.js   core and the Electron main process as ES modules, one
//                                      file per source file so relative paths (assets/…) hold
//   dist/electron/preload.cjs          the preload, bundled into ONE CommonJS file: a sandboxed
//                                      preload cannot load modules, only require('electron')
//   dist/renderer/                     the renderer, built by Vite
// Type errors are the typecheck's job (`npm run typecheck`); this only transforms.
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'dist' },
    'skip-renderer': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});
const OUT = path.resolve(ROOT, values.out);
const say = (msg) => values.quiet || console.log(msg);

/** Source files of a folder, without tests and test helpers. */
async function sources(dir) {
  const out = [];
  for (const entry of await fs.readdir(path.join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(ROOT, path.join(entry.parentPath ?? entry.path, entry.name));
    if (/\.test\.ts$/.test(rel) || rel.split(path.sep).includes('testing')) continue;
    out.push(rel);
  }
  return out.sort();
}

async function buildMain() {
  const files = [...(await sources('core')), ...(await sources('electron'))];
  const ts = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/^electron[/\\]preload\.ts$/.test(f));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ts,
    outdir: OUT,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  // Data files that sit beside the code (kept at the same relative place).
  for (const f of files.filter((f) => !f.endsWith('.ts'))) {
    await fs.mkdir(path.dirname(path.join(OUT, f)), { recursive: true });
    await fs.copyFile(path.join(ROOT, f), path.join(OUT, f));
  }
  say(`main: ${ts.length} modules → ${path.relative(ROOT, OUT)}/{core,electron}`);
}

async function buildPreload() {
  const outfile = path.join(OUT, 'electron', 'preload.cjs');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['electron/preload.ts'],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'chrome120',
    external: ['electron'],
    sourcemap: false,
    logLevel: 'warning',
  });
  say(`preload: ${path.relative(ROOT, outfile)}`);
}

async function buildRenderer() {
  const { build } = await import('vite');
  await build({
    configFile: path.join(ROOT, 'renderer', 'vite.config.ts'),
    logLevel: values.quiet ? 'error' : 'warn',
    build: { outDir: path.join(OUT, 'renderer'), emptyOutDir: true },
  });
  say(`renderer: ${path.relative(ROOT, path.join(OUT, 'renderer'))}`);
}

await fs.rm(path.join(OUT, 'core'), { recursive: true, force: true });
await fs.rm(path.join(OUT, 'electron'), { recursive: true, force: true });
await Promise.all([buildMain(), buildPreload()]);
if (!values['skip-renderer']) await buildRenderer();
