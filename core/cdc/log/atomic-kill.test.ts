/**
 * kill -9 of a process in the middle of atomic multi-topic writes, many times over: after each
 * reopen every write is in the log whole or not at all (the undo journal rolls back a write
 * whose end line is missing), and writing simply continues.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog } from './embedded-log.js';
import { sizeOf } from './testing/atomic-batches.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function runAndKill(dir: string, ms: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'testing/atomic-writer-child.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
    child.once('exit', (code) => reject(new Error(`writer exited ${code}`)));
  });
  await new Promise((r) => setTimeout(r, ms));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

describe('embedded log under kill -9', () => {
  it('every atomic write is whole or absent after each of several kills, and the offsets topic says which', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-atomic-kill-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    let lastBatches = 0;
    for (const ms of [150, 260, 90, 330, 200]) {
      await runAndKill(dir, ms);
      const log = await EmbeddedLog.open({ dir, retentionCheckMs: 0, segmentBytes: 16 * 1024 });
      const offs = (await log.fetch('offs', 0, 0, { maxRecords: 1e6, maxBytes: 1 << 30 })).map((r) => Number(r.value));
      const perBatch = new Map<number, number>();
      for (let p = 0; p < 3; p++) {
        for (const r of await log.fetch('data', p, 0, { maxRecords: 1e7, maxBytes: 1 << 30 })) {
          const n = Number(r.value!.split(':')[0]);
          perBatch.set(n, (perBatch.get(n) ?? 0) + 1);
        }
      }
      await log.close();
      // the batches the offsets topic lists, in order, each once, are exactly the ones in data, each whole
      expect(offs).toEqual(offs.map((_, i) => i + 1));
      expect([...perBatch.keys()].sort((a, b) => a - b)).toEqual(offs);
      for (const [n, count] of perBatch) expect(count).toBe(sizeOf(n));
      expect(offs.length).toBeGreaterThan(lastBatches);
      lastBatches = offs.length;
    }
  }, 60_000);
});
