import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHost, type Host } from './host.js';
import { startWebHost, type WebHost } from './web-host.js';
import { echoRegistry } from './testing/echo-service.js';
import { freePortBase } from '../common/testing/free-port.js';
import { silentLogger } from '../common/log.js';

let host: Host;
let web: WebHost;
const staticDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-static-'));

beforeAll(async () => {
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Loupe</title>');
  const base = await freePortBase();
  host = await createHost({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'loupe-tr-')), portBase: base, env: {}, log: silentLogger, registry: echoRegistry(['search']) });
  await host.startServices();
  web = await startWebHost(host, { port: base + 6, staticDir });
});
afterAll(async () => {
  await web.close();
  await host.close();
});

/** The browser transport, as the renderer's bridge uses it. */
async function overHttp(method: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${web.url}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-loupe-token': web.token, ...headers },
    body: JSON.stringify(params),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

/** Raw request, so tests can send Host headers fetch would not let through. */
function raw(pathname: string, headers: Record<string, string>, method = 'POST', body = '{}'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: web.port, path: pathname, method, headers }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the host contract over both transports', () => {
  const calls: [string, unknown][] = [
    ['services.status', {}],
    ['settings.get', {}],
    ['settings.update', { theme: 'dark' }],
    ['services.start', { name: 'connect' }],
    ['no.such.method', {}],
    ['services.start', { name: 'elasticsearch' }],
    ['settings.update', { uiPort: 'eighty' }],
    ['settings.update', { areas: { search: { mode: 'remote' } } }],
  ];

  it.each(calls)('%s gives the same answer in-process (as Electron IPC carries it) and over HTTP', async (method, params) => {
    const direct = await host.call(method, params);
    const viaHttp = await overHttp(method, params);
    if (direct.ok) {
      expect(viaHttp.status).toBe(200);
      expect(viaHttp.body).toEqual(JSON.parse(JSON.stringify(direct.result)));
    } else {
      expect(viaHttp.body).toEqual({ error: direct.error });
    }
  });

  it('an unknown method is a 404 naming the method', async () => {
    const r = await overHttp('no.such.method', {});
    expect(r).toEqual({ status: 404, body: { error: { code: 'unknown_method', message: 'unknown method "no.such.method"; see the host contract for the methods there are' } } });
  });

  it('bad params are a 400 naming the parameter and what was wrong', async () => {
    const r = await overHttp('services.start', { name: 'elasticsearch' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('bad_params');
    expect(r.body.error.issues[0].path).toBe('name');
    expect(r.body.error.message).toMatch(/^bad params for services\.start: name: /);
    const extra = await overHttp('services.status', { verbose: true });
    expect(extra.status).toBe(400);
    const semantic = await overHttp('settings.update', { areas: { search: { mode: 'remote' } } });
    expect(semantic).toEqual({
      status: 400,
      body: { error: { code: 'bad_params', message: 'areas.search.remoteUrl: a remote search needs a URL', issues: [{ path: 'areas.search.remoteUrl', message: 'a remote search needs a URL' }] } },
    });
  });

  it('a body that is not JSON is a 400, and the server keeps answering', async () => {
    const res = await fetch(`${web.url}/api/services.status`, { method: 'POST', headers: { 'x-loupe-token': web.token }, body: '{nope' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_params');
    expect((await overHttp('services.status', {})).status).toBe(200);
  });
});

describe('the browser transport refuses what is not the Loupe page', () => {
  it('a request without the token is refused', async () => {
    const res = await fetch(`${web.url}/api/services.status`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('a wrong token is refused', async () => {
    expect((await overHttp('services.status', {}, { 'x-loupe-token': 'x'.repeat(web.token.length) })).status).toBe(401);
  });

  it('a foreign Host header is refused (DNS rebinding)', async () => {
    const r = await raw('/api/services.status', { host: `evil.example:${web.port}`, 'x-loupe-token': web.token });
    expect(r.status).toBe(403);
    const page = await raw('/', { host: `evil.example:${web.port}` }, 'GET', '');
    expect(page.status).toBe(403);
  });

  it('a foreign Origin is refused even with the token', async () => {
    const r = await raw('/api/services.status', { host: `127.0.0.1:${web.port}`, origin: 'http://evil.example', 'x-loupe-token': web.token });
    expect(r.status).toBe(403);
    const same = await raw('/api/services.status', { host: `localhost:${web.port}`, origin: `http://localhost:${web.port}`, 'x-loupe-token': web.token });
    expect(same.status).toBe(200);
  });

  it('events need the token and start with the current service states', async () => {
    expect((await fetch(`${web.url}/api/events`)).status).toBe(401);
    const ctrl = new AbortController();
    const res = await fetch(`${web.url}/api/events?token=${web.token}`, { signal: ctrl.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text.startsWith('event: services.changed\ndata: ')).toBe(true);
    const status = JSON.parse(text.split('\n')[1]!.slice('data: '.length));
    expect(status.find((s: { name: string }) => s.name === 'search').state).toBe('running');
    // A state change arrives as an event.
    const next = host.supervisor.stop('search');
    let more = '';
    while (!more.includes('"stopping"')) more += new TextDecoder().decode((await reader.read()).value);
    await next;
    ctrl.abort();
    await host.supervisor.start('search');
  });

  it('pages carry a strict Content-Security-Policy and never leak the token as a referrer', async () => {
    const res = await fetch(`${web.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const traversal = await raw('/../../etc/passwd', { host: `127.0.0.1:${web.port}` }, 'GET', '');
    expect(traversal.body).not.toContain('root:');
  });

  it('listens on loopback only', () => {
    expect(web.url.startsWith('http://127.0.0.1:')).toBe(true);
  });
});
