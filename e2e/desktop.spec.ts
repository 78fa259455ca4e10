/**
 * The desktop app itself, where Electron's binary exists (skipped otherwise: on machines with
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1 the unit tests in electron/ cover main's logic against a fake).
 * Builds the app, launches it on a free port base and its own data folder, and checks that the
 * page runs sandboxed with only `window.loupe` to reach the host.
 */
import { test, expect, _electron as electron } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePortBase } from '../core/common/testing/free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function electronBinary(): string | null {
  try {
    const binary = createRequire(import.meta.url)('electron') as string;
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
test.skip(binary === null, 'Electron binary not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD); npm start says the same');

test('the desktop window shows the shell over IPC, sandboxed, and closing it stops the services', async () => {
  execFileSync(process.execPath, [path.join(ROOT, 'bin', 'build.mjs'), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  const base = await freePortBase();
  const names = ['SEARCH', 'IDP', 'IDP_HTTPS', 'STS', 'CONNECT', 'CLICKHOUSE', 'UI'];
  const ports = Object.fromEntries(names.map((n, i) => [`LOUPE_${n}_PORT`, String(base + i)]));
  const app = await electron.launch({
    executablePath: binary!,
    args: [ROOT],
    env: { ...process.env, ...ports, LOUPE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'loupe-desktop-e2e-')) },
  });
  const page = await app.firstWindow();
  await expect(page.getByRole('heading', { level: 1, name: 'Federation' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Desktop · Connected' })).toBeVisible();
  expect(page.url()).toBe('app://loupe/index.html');

  // Only the bridge object reaches the page: no Node, no ipcRenderer.
  const globals = await page.evaluate(() => {
    const w = globalThis as unknown as Record<string, unknown>;
    return { loupe: Object.keys((w.loupe ?? {}) as object).sort(), require: typeof w.require, process: typeof w.process };
  });
  expect(globals).toEqual({ loupe: ['invoke', 'subscribe'], require: 'undefined', process: 'undefined' });

  // Live states arrive over IPC like over SSE.
  const services = await page.evaluate(async () => {
    const w = globalThis as unknown as { loupe: { invoke(m: string, p: unknown): Promise<{ ok: boolean; result: { name: string; state: string }[] }> } };
    return (await w.loupe.invoke('services.status', {})).result;
  });
  for (const s of services) {
    await expect(page.getByRole('list', { name: 'Service states' }).locator(`[data-service="${s.name}"]`)).toHaveAttribute('data-state', /running|unavailable|starting/);
  }

  await app.close();
  // The embedded services went down with the window.
  for (let i = 0; i < 6; i++) await expect(fetch(`http://127.0.0.1:${base + i}/`)).rejects.toThrow();
});
