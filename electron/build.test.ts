/**
 * `npm run build` produces what electron-builder packages. The build runs once here into
 * tmp/ (inside the checkout, so the compiled modules resolve node_modules like dist/ does).
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { freePortBase } from '../core/common/testing/free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'tmp', `build-test-${process.pid}`);

/** The YAML parser electron-builder itself reads its config with (js-yaml, through app-builder-lib). */
function parseYaml(text: string): unknown {
  const fromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
  return (fromBuilder('js-yaml') as { load(text: string): unknown }).load(text);
}

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin', 'build.mjs'), '--out', path.relative(ROOT, OUT), '--quiet'], { cwd: ROOT });
}, 120_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every module specifier a compiled file imports (static and dynamic). */
function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of source.matchAll(/(?:^|[;\s])import\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  return out;
}

describe('npm run build', () => {
  it('compiles the Electron main process and core as ES modules, with main where package.json points', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.type).toBe('module');
    expect(pkg.main).toBe('dist/electron/main.js');
    const main = readFileSync(path.join(OUT, 'electron', 'main.js'), 'utf8');
    expect(main).toMatch(/^import .* from "electron";$/m);
    expect(main).not.toMatch(/\brequire\(/);
    for (const f of ['electron/desktop.js', 'electron/app-protocol.js', 'core/host/host.js', 'core/host/web-host.js', 'core/common/log.js']) {
      expect(existsSync(path.join(OUT, f)), f).toBe(true);
    }
    // Tests and test helpers stay out of the package.
    expect(walk(OUT).filter((f) => /\.test\.js$|[/\\]testing[/\\]/.test(f))).toEqual([]);
  });

  it('every relative import in the compiled main process and core lands on a built file', () => {
    const missing: string[] = [];
    for (const file of walk(OUT).filter((f) => f.endsWith('.js') && !f.includes(`${path.sep}renderer${path.sep}`))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        if (!existsSync(target)) missing.push(`${path.relative(OUT, file)} → ${spec}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the compiled desktop module loads in Node and exports startDesktop', async () => {
    const mod = await import(pathToFileURL(path.join(OUT, 'electron', 'desktop.js')).href);
    expect(typeof mod.startDesktop).toBe('function');
    expect(typeof mod.hardenContents).toBe('function');
  });

  it('the compiled host (what the packaged app runs) starts every embedded service from dist', async () => {
    const { createHost } = await import(pathToFileURL(path.join(OUT, 'core', 'host', 'host.js')).href);
    const { silentLogger } = await import(pathToFileURL(path.join(OUT, 'core', 'common', 'log.js')).href);
    const host = await createHost({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'loupe-dist-')), portBase: await freePortBase(), env: {}, log: silentLogger });
    try {
      await host.startServices();
      const outcome = await host.call('services.status', {});
      expect(outcome.ok).toBe(true);
      for (const s of outcome.result as { name: string; state: string; lastError?: string }[]) {
        expect([s.name, s.state, s.lastError]).toEqual([s.name, expect.stringMatching(/^(running|unavailable)$/), undefined]);
      }
    } finally {
      await host.close();
    }
  }, 60_000);

  it('bundles the preload into one CommonJS file whose only require is electron', () => {
    const files = readdirSync(path.join(OUT, 'electron')).filter((f) => f.startsWith('preload'));
    expect(files).toContain('preload.cjs');
    const preload = readFileSync(path.join(OUT, 'electron', 'preload.cjs'), 'utf8');
    const requires = [...preload.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(preload).toContain('exposeInMainWorld("loupe"');
  });

  it('builds the renderer with relative asset URLs and nothing fetched from elsewhere', () => {
    const html = readFileSync(path.join(OUT, 'renderer', 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^\.\//);
      expect(existsSync(path.join(OUT, 'renderer', ref)), ref).toBe(true);
    }
    // The CSP allows no inline script.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const file of walk(path.join(OUT, 'renderer')).filter((f) => /\.(js|css|html)$/.test(f))) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/https?:\/\/(fonts\.googleapis|cdn\.|unpkg|cdnjs|jsdelivr)/);
    }
  });
});

describe('electron-builder.yml', () => {
  const config = parseYaml(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('packages the build output for Linux (AppImage, deb), macOS (dmg) and Windows (nsis)', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.mac.target).toEqual(expect.arrayContaining(['dmg']));
    expect(config.win.target).toEqual(expect.arrayContaining(['nsis']));
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**', 'dist/core/**', 'dist/renderer/**', 'package.json']));
  });

  it('passes electron-builder\'s own schema validation (what `npm run dist` checks first)', async () => {
    // app-builder-lib is the library behind the electron-builder command; these are its loader and validator.
    const builderLib = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
    const { getConfig, validateConfiguration } = builderLib('./out/util/config/config.js');
    const { DebugLogger } = builderLib('builder-util');
    const loaded = await getConfig(ROOT, 'electron-builder.yml', null);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('points at icons that exist', () => {
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon]) {
      expect(existsSync(path.join(ROOT, icon)), icon).toBe(true);
    }
  });
});
