import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDesktop, registerAppScheme, type Desktop } from './desktop.js';
import { createFakeElectron } from './testing/fake-electron.js';
import { echoRegistry } from '../core/host/testing/echo-service.js';
import { freePortBase } from '../core/common/testing/free-port.js';
import { silentLogger } from '../core/common/log.js';
import { CONTENT_SECURITY_POLICY } from '../core/host/csp.js';

const APP_PAGE = 'app://loupe/index.html';
let running: Desktop[] = [];

afterEach(async () => {
  await Promise.all(running.map((d) => d.shutdown()));
  running = [];
});

function rendererDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-renderer-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Loupe</title><script type="module" src="./assets/app.js"></script>');
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("loupe")');
  return dir;
}

async function launch(opts: { autoStart?: boolean } = {}) {
  const fake = createFakeElectron();
  const dir = rendererDir();
  registerAppScheme(fake.electron);
  const started = startDesktop(fake.electron, {
    rendererDir: dir,
    preloadPath: '/opt/loupe/dist/electron/preload.cjs',
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'loupe-desktop-')),
    portBase: await freePortBase(),
    env: {},
    log: silentLogger,
    registry: echoRegistry(['search']),
    autoStart: opts.autoStart ?? false,
  });
  fake.ready();
  const desktop = await started;
  running.push(desktop);
  return { fake, desktop, dir };
}

describe('the desktop window', () => {
  it('is sandboxed and isolated: context isolation and sandbox on, no Node in the page, web security on', async () => {
    const { fake } = await launch();
    expect(fake.state.windows).toHaveLength(1);
    const prefs = fake.state.windows[0].options.webPreferences!;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/opt/loupe/dist/electron/preload.cjs',
    });
    expect(prefs).not.toHaveProperty('enableRemoteModule');
  });

  it('loads the packaged renderer from app:// and shows the window when it is ready', async () => {
    const { fake } = await launch();
    const win = fake.state.windows[0];
    expect(win.loaded).toEqual([APP_PAGE]);
    expect(win.shown).toBe(true);
    expect(fake.state.privilegedSchemes).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
  });

  it('refuses navigation away from the app, new windows and webviews', async () => {
    const { fake } = await launch();
    const contents = fake.state.windows[0].webContents;
    expect(contents.navigate('https://evil.example/')).toBe(true);
    expect(contents.navigate('file:///etc/passwd')).toBe(true);
    expect(contents.navigate('https://evil.example/', 'will-redirect')).toBe(true);
    expect(contents.navigate('app://loupe/index.html#/settings')).toBe(false);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    let webviewPrevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (webviewPrevented = true) });
    expect(webviewPrevented).toBe(true);
  });

  it('denies every permission request (camera, notifications, …)', async () => {
    const { fake } = await launch();
    const answers: boolean[] = [];
    fake.state.permissionHandler?.({}, 'media', (granted) => answers.push(granted));
    fake.state.permissionHandler?.({}, 'notifications', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
  });
});

describe('the app:// protocol', () => {
  it('serves the renderer files with the same Content-Security-Policy as loupe serve', async () => {
    const { fake } = await launch();
    const index = await fake.fetchApp(APP_PAGE);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(await index.text()).toContain('<title>Loupe</title>');
    const js = await fake.fetchApp('app://loupe/assets/app.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('answers 404 for files outside the renderer folder and for other hosts', async () => {
    const { fake } = await launch();
    expect((await fake.fetchApp('app://loupe/..%2f..%2f..%2fetc%2fpasswd')).status).toBe(404);
    expect((await fake.fetchApp('app://loupe/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await fake.fetchApp('app://loupe/missing.js')).status).toBe(404);
    expect((await fake.fetchApp('app://other/index.html')).status).toBe(404);
  });
});

describe('the host over IPC', () => {
  it('answers contract calls from the app page with the host result', async () => {
    const { fake, desktop } = await launch();
    const outcome = await fake.invoke('loupe:invoke', APP_PAGE, 'services.status', {});
    expect(outcome).toEqual(await desktop.host.call('services.status', {}));
    expect(outcome).toMatchObject({ ok: true });
    const names = (outcome as { result: { name: string }[] }).result.map((s) => s.name);
    expect(names).toEqual(['search', 'idp', 'sts', 'connect', 'clickhouse']);
  });

  it('gives unknown methods and bad params the contract error, not an exception', async () => {
    const { fake } = await launch();
    expect(await fake.invoke('loupe:invoke', APP_PAGE, 'services.explode', {})).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(await fake.invoke('loupe:invoke', APP_PAGE, 'services.start', { name: 'nope' })).toMatchObject({ ok: false, error: { code: 'bad_params' } });
    expect(await fake.invoke('loupe:invoke', APP_PAGE, 42, {})).toMatchObject({ ok: false, error: { code: 'bad_params' } });
  });

  it('refuses calls from any page other than the packaged renderer', async () => {
    const { fake } = await launch();
    for (const url of ['https://evil.example/', 'file:///tmp/x.html', 'app://other/index.html', null]) {
      expect(await fake.invoke('loupe:invoke', url, 'settings.get', {})).toEqual({
        ok: false,
        error: { code: 'unauthorized', message: 'only the Loupe window may call the host' },
      });
    }
  });

  it('forwards host events to the window: a settings change arrives as loupe:event', async () => {
    const { fake } = await launch();
    const outcome = (await fake.invoke('loupe:invoke', APP_PAGE, 'settings.update', { theme: 'dark' })) as { ok: true; result: unknown };
    expect(outcome.ok).toBe(true);
    const sent = fake.state.windows[0].webContents.sent.filter((m) => m.channel === 'loupe:event' && m.args[0] === 'settings.changed');
    expect(sent).toHaveLength(1);
    expect(sent[0].args[1]).toEqual(outcome.result);
  });

  it('starts the embedded services and reports their state changes to the window', async () => {
    const { fake, desktop } = await launch({ autoStart: true });
    await expect.poll(async () => ((await desktop.host.call('services.status', {})) as { result: { name: string; state: string }[] }).result.find((s) => s.name === 'search')?.state).toBe('running');
    const changes = fake.state.windows[0].webContents.sent.filter((m) => m.args[0] === 'services.changed');
    expect(changes.length).toBeGreaterThan(0);
    const last = changes.at(-1)!.args[1] as { name: string; state: string; url: string }[];
    const search = last.find((s) => s.name === 'search')!;
    expect(search.state).toBe('running');
    const res = await fetch(search.url);
    expect(await res.json()).toMatchObject({ name: 'search' });
  });
});

describe('shutdown', () => {
  it('closing the last window stops the services, frees the IPC handler and quits', async () => {
    const { fake, desktop } = await launch({ autoStart: true });
    await expect.poll(async () => ((await desktop.host.call('services.status', {})) as { result: { name: string; state: string; url: string }[] }).result.find((s) => s.name === 'search')?.state).toBe('running');
    const url = ((await desktop.host.call('services.status', {})) as { result: { name: string; url: string }[] }).result.find((s) => s.name === 'search')!.url;
    fake.emitApp('window-all-closed');
    await expect.poll(() => fake.state.quitCalls).toBe(1);
    expect(fake.state.ipcHandlers.has('loupe:invoke')).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('a quit from the menu (before-quit) waits for the services to stop first', async () => {
    const { fake } = await launch();
    expect(fake.emitApp('before-quit')).toBe(true);
    await expect.poll(() => fake.state.quitCalls).toBe(1);
    // The second before-quit (from our own app.quit) goes through.
    expect(fake.emitApp('before-quit')).toBe(false);
  });
});
