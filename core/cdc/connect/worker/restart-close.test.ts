/**
 * A task restart that is still in flight when the service closes must not leave a task running:
 * nothing would ever stop it, and it would go on polling a closed source.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../common/log.js';
import { startConnectService } from '../service.js';

const ASSETS = path.resolve(__dirname, '../../../../assets/cdc');

describe('Connect worker shutdown', () => {
  it('closing while a task restart is in flight leaves no task running', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-restart-close-'));
    const log = memoryLogger();
    const h = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: dir, log, peers: {} });
    const seed = JSON.parse(fs.readFileSync(path.join(ASSETS, 'source-variant1.json'), 'utf8')) as { name: string; config: Record<string, string> };
    const created = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) });
    expect(created.status).toBe(201);
    for (let i = 0; i < 100 && (await h.api.worker.status(seed.name))?.tasks[0]?.state !== 'RUNNING'; i++) await new Promise((r) => setTimeout(r, 50));

    const restart = h.api.worker.restartTask(seed.name, 0);
    await h.close();
    await restart;
    // A task left behind would poll the closed source and fail loudly within a poll interval.
    await new Promise((r) => setTimeout(r, 1500));
    expect(log.lines.filter((l) => l.includes('task failed'))).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});
