import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHost, type Host } from './host.js';
import { echoRegistry } from './testing/echo-service.js';
import { freePortBase, isFree, occupy } from '../common/testing/free-port.js';
import { silentLogger } from '../common/log.js';
import type { ServiceStatus } from './contract.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'loupe-sup-'));
let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('service supervisor', () => {
  it('starts every available service on its port from --port-base and frees the ports on close', async () => {
    const base = await freePortBase();
    host = await createHost({ dataDir: tmp(), portBase: base, env: {}, log: silentLogger, registry: echoRegistry() });
    await host.startServices();
    const status = host.supervisor.status();
    expect(status.map((s) => [s.name, s.state, s.port])).toEqual([
      ['search', 'running', base],
      ['idp', 'running', base + 1],
      ['sts', 'running', base + 3],
      ['connect', 'running', base + 4],
      ['clickhouse', 'running', base + 5],
    ]);
    const res = await fetch(`http://127.0.0.1:${base}/`);
    expect(await res.json()).toMatchObject({ name: 'search' });
    await host.close();
    host = undefined;
    for (const p of [base, base + 1, base + 3, base + 4, base + 5]) expect(await isFree(p)).toBe(true);
  });

  it('a port already in use is a clear error naming the service, the port and how to change it', async () => {
    const base = await freePortBase();
    const release = await occupy(base + 3);
    try {
      host = await createHost({ dataDir: tmp(), portBase: base, env: {}, log: silentLogger, registry: echoRegistry() });
      await host.startServices();
      const sts = host.supervisor.statusOf('sts');
      expect(sts.state).toBe('failed');
      expect(sts.lastError).toBe(`port ${base + 3} on 127.0.0.1 is already in use; set LOUPE_STS_PORT or --port-base, or change the sts port in Settings`);
      // The others are unaffected.
      expect(host.supervisor.statusOf('search').state).toBe('running');
    } finally {
      await release();
    }
    // Once the port is free, a retry works.
    expect((await host!.supervisor.start('sts')).state).toBe('running');
  });

  it('an environment variable wins over --port-base for its own port', async () => {
    const base = await freePortBase();
    const stsPort = await freePortBase(1);
    host = await createHost({ dataDir: tmp(), portBase: base, env: { LOUPE_STS_PORT: String(stsPort) }, log: silentLogger, registry: echoRegistry() });
    expect(host.settings.view().overriddenBy).toMatchObject({ sts: 'LOUPE_STS_PORT', search: `--port-base ${base}` });
    expect(host.settings.effective().areas.sts.port).toBe(stsPort);
  });

  it('restart stops and starts a service, and every state change is announced', async () => {
    const base = await freePortBase();
    host = await createHost({ dataDir: tmp(), portBase: base, env: {}, log: silentLogger, registry: echoRegistry(['search']) });
    const seen: string[] = [];
    host.on((event, payload) => {
      if (event === 'services.changed') seen.push((payload as ServiceStatus[]).find((s) => s.name === 'search')!.state);
    });
    await host.supervisor.start('search');
    await host.supervisor.restart('search');
    expect(seen).toEqual(['starting', 'running', 'stopping', 'stopped', 'starting', 'running']);
    expect((await fetch(`http://127.0.0.1:${base}/`)).status).toBe(200);
  });

  it('an engine that is not part of the build is reported unavailable, never faked', async () => {
    host = await createHost({ dataDir: tmp(), portBase: await freePortBase(), env: {}, log: silentLogger, registry: echoRegistry(['search']) });
    await host.startServices(['search', 'connect']);
    expect(host.supervisor.statusOf('connect')).toMatchObject({ state: 'unavailable', lastError: 'the embedded connect engine is not part of this build yet' });
  });

  it('an area set to remote is not started and its URL is the remote one', async () => {
    host = await createHost({ dataDir: tmp(), portBase: await freePortBase(), env: {}, log: silentLogger, registry: echoRegistry() });
    const events: ServiceStatus[][] = [];
    host.on((event, payload) => event === 'services.changed' && events.push(payload as ServiceStatus[]));
    const r = await host.call('settings.update', { areas: { search: { mode: 'remote', remoteUrl: 'https://es.example.test:9200/' } } });
    expect(r.ok).toBe(true);
    // A stopped service switched to remote changes its status: the UI hears of it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.at(-1)?.find((s) => s.name === 'search')).toMatchObject({ state: 'remote', url: 'https://es.example.test:9200' });
    await host.startServices(['search']);
    expect(host.supervisor.statusOf('search')).toMatchObject({ state: 'remote', url: 'https://es.example.test:9200', mode: 'remote' });
  });

  it('changing the port of a running service restarts it on the new port', async () => {
    const base = await freePortBase();
    host = await createHost({ dataDir: tmp(), portBase: base, env: {}, log: silentLogger, registry: echoRegistry(['search']) });
    await host.supervisor.start('search');
    const newPort = await freePortBase(1);
    // The port is fixed by --port-base for this run, so the stored value changes but the effective one does not.
    const view = await host.call('settings.update', { areas: { search: { port: newPort } } });
    expect(view.ok && (view.result as { settings: { areas: { search: { port: number } } } }).settings.areas.search.port).toBe(base);
    await host.close();

    host = await createHost({ dataDir: host.dataDir, env: {}, log: silentLogger, registry: echoRegistry(['search']) });
    await host.supervisor.start('search');
    expect(host.supervisor.statusOf('search').port).toBe(newPort);
    const other = await freePortBase(1);
    await host.call('settings.update', { areas: { search: { port: other } } });
    await new Promise((r) => setTimeout(r, 200));
    expect(host.supervisor.statusOf('search')).toMatchObject({ state: 'running', port: other });
    expect((await fetch(`http://127.0.0.1:${other}/`)).status).toBe(200);
  });
});
