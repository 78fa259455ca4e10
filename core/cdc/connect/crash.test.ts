/**
 * kill -9 of the whole connect service while rows are being inserted and captured: after the
 * restart every committed row is in the topic exactly once (records and source offsets are
 * written atomically; the source replays its binlog onto its last snapshot).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { startConnectService, type ConnectApi } from './service.js';

const ASSETS = path.resolve(__dirname, '../../../assets/cdc');
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('connect service crash', () => {
  it('after kill -9 during capture, every committed change is in the topic exactly once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-crash-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'testing/crash-child.ts'), dir], { stdio: ['pipe', 'pipe', 'inherit'] });
    cleanup.push(() => void child.kill('SIGKILL'));
    const url = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const m = /URL (\S+)/.exec(buf);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    const cfg = JSON.parse(fs.readFileSync(path.join(ASSETS, 'source-variant1.json'), 'utf8'));
    const res = await fetch(`${url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cfg) });
    expect(res.status).toBe(201);
    child.stdin.write('go\n');
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const h: ServiceHandle<ConnectApi> = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} }, {});
    cleanup.push(() => h.close());
    const [ids] = h.api.source.executeSync('demo', 'SELECT id FROM customers ORDER BY id');
    const expected = ids!.rows.map((r) => r[0] as number);
    expect(expected.length).toBeGreaterThan(10);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { end } = await h.api.topicLog.offsets('customers', 0);
      if (end >= expected.length || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    const final = (await h.api.topicLog.fetch('customers', 0, 0, { maxRecords: 1_000_000, maxBytes: 1 << 30 })).map((r) => JSON.parse(r.value!).id as number);
    expect(final.length).toBe(new Set(final).size); // no duplicate
    expect([...final].sort((a, b) => a - b)).toEqual(expected); // no loss
  }, 60_000);
});
