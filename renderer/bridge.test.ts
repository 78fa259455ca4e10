// Not part of `npm run typecheck`: renderer/tsconfig.json checks the page code with the DOM
// library, which clashes with Node's types in the host code this test drives (the root tsconfig
// checks that code).
/**
 * The renderer's two transports carry the same contract: the same calls through IPC (preload
 * API → desktop IPC handler) and through HTTP (`loupe serve`'s web host) against ONE real host
 * give the same results and the same errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpBridge, ipcBridge, HostError, type Bridge, type PreloadApi } from './bridge.js';
import { startDesktop, registerAppScheme, type Desktop } from '../electron/desktop.js';
import { createDesktopApi } from '../electron/preload-api.js';
import { createFakeElectron } from '../electron/testing/fake-electron.js';
import { startWebHost, type WebHost } from '../core/host/web-host.js';
import { echoRegistry } from '../core/host/testing/echo-service.js';
import { freePortBase } from '../core/common/testing/free-port.js';
import { silentLogger } from '../core/common/log.js';
import { closeServer, listen } from '../core/common/http.js';
import { createServer } from 'node:http';

let desktop: Desktop;
let web: WebHost;
let ipc: Bridge;
let http: Bridge;

beforeAll(async () => {
  const fake = createFakeElectron();
  registerAppScheme(fake.electron);
  const rendererDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bridge-'));
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Loupe</title>');
  const base = await freePortBase();
  const started = startDesktop(fake.electron, {
    rendererDir,
    preloadPath: '/preload.cjs',
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'loupe-bridge-data-')),
    portBase: base,
    env: {},
    log: silentLogger,
    registry: echoRegistry(['search', 'sts']),
    autoStart: false,
  });
  fake.ready();
  desktop = await started;
  await desktop.host.startServices(['search']);
  // The preload's API over the fake ipcRenderer, as the packaged page would call it.
  const preload = createDesktopApi({
    invoke: (channel, ...args) => fake.invoke(channel, 'app://loupe/index.html', ...args) as Promise<unknown>,
    on: () => undefined,
  });
  ipc = ipcBridge(preload as PreloadApi);
  web = await startWebHost(desktop.host, { port: base + 6, staticDir: rendererDir });
  http = httpBridge(web.token, web.url);
});

afterAll(async () => {
  await web?.close();
  await desktop?.shutdown();
});

async function errorOf(p: Promise<unknown>): Promise<HostError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(HostError);
    return err as HostError;
  }
  throw new Error('expected the call to fail');
}

describe('the same call through IPC and through HTTP', () => {
  it('services.status: the same list, with the running service and the unavailable ones', async () => {
    const [a, b] = await Promise.all([ipc.invoke('services.status', {}), http.invoke('services.status', {})]);
    expect(a).toEqual(b);
    expect(a.find((s) => s.name === 'search')?.state).toBe('running');
    expect(a.find((s) => s.name === 'idp')?.state).toBe('unavailable');
  });

  it('settings.get and settings.update: the same view, and an update through one is seen through the other', async () => {
    expect(await ipc.invoke('settings.get', {})).toEqual(await http.invoke('settings.get', {}));
    const updated = await ipc.invoke('settings.update', { theme: 'dark' });
    expect(updated.settings.theme).toBe('dark');
    expect(await http.invoke('settings.get', {})).toEqual(updated);
  });

  it('an unknown method fails the same way: code unknown_method and the same message', async () => {
    // @ts-expect-error not a contract method: what a stale renderer might send
    const a = await errorOf(ipc.invoke('services.explode', {}));
    // @ts-expect-error same
    const b = await errorOf(http.invoke('services.explode', {}));
    expect(a.code).toBe('unknown_method');
    expect([b.code, b.message]).toEqual([a.code, a.message]);
  });

  it('bad params fail the same way, with the same per-parameter issues', async () => {
    const patch = { areas: { search: { port: 70000 } } };
    const a = await errorOf(ipc.invoke('settings.update', patch));
    const b = await errorOf(http.invoke('settings.update', patch));
    expect(a.code).toBe('bad_params');
    expect(a.issues).toEqual([{ path: 'areas.search.port', message: expect.stringContaining('65535') }]);
    expect([b.code, b.message, b.issues]).toEqual([a.code, a.message, a.issues]);
  });

  it('over HTTP, a wrong token is refused as unauthorized', async () => {
    const e = await errorOf(httpBridge('wrong-token', web.url).invoke('services.status', {}));
    expect(e.code).toBe('unauthorized');
  });

  it('over HTTP, an integer beyond 2^53 in a result stays exact (a BIGINT id in cdc.sql rows), as IPC\'s structured clone keeps it', async () => {
    const answer = '{"results":[{"columns":["id"],"rows":[[4611686018427387907],[42]]}]}';
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    const port = await listen(server, '127.0.0.1', 0, 'test');
    try {
      const r = (await httpBridge('t', `http://127.0.0.1:${port}`).invoke('cdc.sql', { sql: 'SELECT id FROM big' })) as unknown as { results: { rows: unknown[][] }[] };
      expect(r.results[0]!.rows).toEqual([[4611686018427387907n], [42]]);
    } finally {
      await closeServer(server);
    }
  });

  it('over HTTP, an unreachable host is a network error with a readable message', async () => {
    const e = await errorOf(httpBridge(web.token, 'http://127.0.0.1:1').invoke('services.status', {}));
    expect(e.code).toBe('network');
    expect(e.message).toMatch(/^Cannot reach the Loupe host/);
  });
});
