import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, HELP } from './main.js';
import { freePortBase, isFree, occupy } from '../common/testing/free-port.js';
import { SERVICE_NAMES } from '../common/service.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {}, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Starts the real `loupe` command and collects its output until `ready` (or exit). */
const children = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
});

function startLoupe(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOUPE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const ready = new Promise<{ stdout: string; stderr: string; exit?: number | null }>((resolve) => {
    child.stdout.on('data', () => {
      if (/^ready$/m.test(stdout)) resolve({ stdout, stderr });
    });
    child.on('exit', (code) => resolve({ stdout, stderr, exit: code }));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

describe('the loupe command', () => {
  it('--help lists the subcommands and every port variable', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(HELP);
    for (const v of ['LOUPE_SEARCH_PORT 9200', 'LOUPE_IDP_PORT 8080', 'LOUPE_IDP_HTTPS_PORT 8443', 'LOUPE_STS_PORT 8090', 'LOUPE_CONNECT_PORT 8083', 'LOUPE_CLICKHOUSE_PORT 8123', 'LOUPE_UI_PORT 5170']) {
      expect(HELP).toContain(v);
    }
  });

  it('--version prints the package version', async () => {
    expect((await run(['--version'])).out).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('a wrong flag or service name is a usage error with exit code 2', async () => {
    expect(await run(['services', '--only', 'search,kafka'])).toMatchObject({
      code: 2,
      err: 'loupe: --only: unknown service kafka; the services are search, idp, sts, connect, clickhouse\nRun "loupe --help" for usage.',
    });
    expect((await run(['services', '--port-base', 'abc'])).code).toBe(2);
    expect((await run(['frobnicate'])).err).toContain('unknown command "frobnicate"');
  });

  it('`loupe services --only search` prints one line per service and then ready, and stops cleanly on SIGTERM', async () => {
    const base = await freePortBase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'));
    const p = startLoupe(['services', '--only', 'search', '--port-base', String(base), '--data-dir', dataDir]);
    const r = await p.ready;
    expect(r.exit, r.stderr).toBeUndefined();
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('ready');
    expect(lines).toEqual([`search http://127.0.0.1:${base}`, 'ready']);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(await isFree(base)).toBe(true);
  }, 60_000);

  it('`loupe services` lists all five services by name', async () => {
    const base = await freePortBase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'));
    const p = startLoupe(['services', '--port-base', String(base), '--data-dir', dataDir]);
    const r = await p.ready;
    expect(r.exit, r.stderr).toBeUndefined();
    const names = r.stdout.trim().split('\n').slice(0, -1).map((l) => l.split(' ')[0]);
    expect(names).toEqual([...SERVICE_NAMES]);
    // the embedded CDC source's own address, N+7, beside the connect service's
    expect(r.stdout).toContain(`connect http://127.0.0.1:${base + 4} http://127.0.0.1:${base + 7}\n`);
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
  }, 120_000);

  it('a port in use makes `loupe services` fail with the service, the port and the fix', async () => {
    const base = await freePortBase();
    const release = await occupy(base);
    const p = startLoupe(['services', '--only', 'search', '--port-base', String(base), '--data-dir', mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'))]);
    try {
      const r = await p.ready;
      expect(r.exit).toBe(1);
      expect(r.stderr).toContain(`loupe: search failed to start: port ${base} on 127.0.0.1 is already in use; set LOUPE_SEARCH_PORT or --port-base`);
      expect(r.stdout).not.toMatch(/^ready$/m);
    } finally {
      p.child.kill('SIGKILL');
      await release();
    }
  }, 60_000);

  it('`loupe serve` prints the UI URL with its token', async () => {
    const base = await freePortBase();
    const p = startLoupe(['serve', '--only', 'search', '--port-base', String(base), '--data-dir', mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'))]);
    const r = await p.ready;
    expect(r.exit, r.stderr).toBeUndefined();
    const m = new RegExp(`http://127\\.0\\.0\\.1:${base + 6}/\\?token=([A-Za-z0-9_-]{32})`).exec(r.stdout);
    expect(m).not.toBeNull();
    const ok = await fetch(`http://127.0.0.1:${base + 6}/api/services.status`, { method: 'POST', headers: { 'x-loupe-token': m![1]! }, body: '{}' });
    expect(ok.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  }, 60_000);
});
