/**
 * Starts the real `loupe serve` as a child process on a free port base with its own data
 * folder, and reads the URL it prints, the way a user would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePortBase } from '../core/common/testing/free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface LoupeServe {
  /** The URL as printed, with `?token=`. */
  openUrl: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  token: string;
  portBase: number;
  dataDir: string;
  /** Everything the command printed so far. */
  output(): string;
  /** SIGTERM, then waits for the exit; returns the exit code. */
  stop(): Promise<number | null>;
}

export async function startLoupeServe(opts: { dataDir?: string } = {}): Promise<LoupeServe> {
  const portBase = await freePortBase();
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.mjs'), 'serve', '--port-base', String(portBase), '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, LOUPE_LOG_LEVEL: process.env.LOUPE_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const openUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`loupe serve printed no URL and "ready" within 60 s.\nstdout:\n${out}\nstderr:\n${err}`)), 60_000);
    const check = () => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out)?.[1];
      if (url && /^ready$/m.test(out)) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`loupe serve exited with ${code} before it was ready.\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });
  const url = new URL(openUrl);
  return {
    openUrl,
    origin: url.origin,
    token: url.searchParams.get('token')!,
    portBase,
    dataDir,
    output: () => out + err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
